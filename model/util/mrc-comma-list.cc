/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-comma-list.h"

#include <algorithm>

namespace ns3
{

std::string
MrcTrim(const std::string& s)
{
    const char* blanks = " \t\n\r";
    std::size_t b = s.find_first_not_of(blanks);
    if (b == std::string::npos)
    {
        return "";
    }
    std::size_t e = s.find_last_not_of(blanks);
    return s.substr(b, e - b + 1);
}

bool
MrcParseUnsigned(const std::string& s, uint32_t& value)
{
    if (s.empty() || s.size() > 9 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return false;
    }
    value = static_cast<uint32_t>(std::stoul(s));
    return true;
}

std::vector<std::string>
MrcSplitCommas(const std::string& s)
{
    std::vector<std::string> items;
    if (MrcTrim(s).empty())
    {
        return items;
    }
    std::size_t start = 0;
    while (true)
    {
        std::size_t comma = s.find(',', start);
        items.push_back(MrcTrim(s.substr(start, comma - start)));
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
    return items;
}

} // namespace ns3
