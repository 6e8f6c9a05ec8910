/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-input-error.h"

#include "ns3/log.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcInputError");

namespace
{

std::string
Compose(const std::string& file,
        uint32_t line,
        const std::string& expected,
        const std::string& got,
        bool atEof)
{
    std::ostringstream os;
    os << MrcParse::Printable(file, SIZE_MAX) << ":" << line << ": expected " << expected
       << ", got ";
    if (atEof)
    {
        os << "end of file";
    }
    else
    {
        os << "'" << MrcParse::Printable(got) << "'";
    }
    return os.str();
}

} // namespace

MrcInputError::MrcInputError(const std::string& file,
                             uint32_t line,
                             const std::string& expected,
                             const std::string& got,
                             bool atEof)
    : std::runtime_error(Compose(file, line, expected, got, atEof)),
      m_file(file),
      m_line(line)
{
}

const std::string&
MrcInputError::GetFile() const
{
    return m_file;
}

uint32_t
MrcInputError::GetLine() const
{
    return m_line;
}

MrcLineReader::MrcLineReader(std::istream& in, std::string file)
    : m_in(in),
      m_file(std::move(file))
{
}

bool
MrcLineReader::Next(bool skipHash)
{
    std::string text;
    while (std::getline(m_in, text))
    {
        ++m_line;
        if (!text.empty() && text.back() == '\r')
        {
            text.pop_back(); // files written on Windows
        }
        std::istringstream is(text);
        std::vector<std::string> fields;
        std::string f;
        while (is >> f)
        {
            fields.push_back(f);
        }
        if (fields.empty() || (skipHash && fields[0][0] == '#'))
        {
            continue;
        }
        m_text = std::move(text);
        m_fields = std::move(fields);
        return true;
    }
    m_text.clear();
    m_fields.clear();
    return false;
}

const std::vector<std::string>&
MrcLineReader::Fields() const
{
    return m_fields;
}

const std::string&
MrcLineReader::Text() const
{
    return m_text;
}

uint32_t
MrcLineReader::Line() const
{
    return m_line;
}

const std::string&
MrcLineReader::File() const
{
    return m_file;
}

void
MrcLineReader::Fail(const std::string& expected, const std::string& got) const
{
    throw MrcInputError(m_file, m_line, expected, got);
}

void
MrcLineReader::Fail(const std::string& expected) const
{
    throw MrcInputError(m_file, m_line, expected, m_text);
}

void
MrcLineReader::FailEof(const std::string& expected) const
{
    throw MrcInputError(m_file, m_line + 1, expected, "", true);
}

namespace MrcParse
{

bool
U64(const std::string& s, uint64_t& out)
{
    if (s.empty() || s.size() > 20)
    {
        return false;
    }
    uint64_t v = 0;
    for (char c : s)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (UINT64_MAX - d) / 10)
        {
            return false;
        }
        v = v * 10 + d;
    }
    out = v;
    return true;
}

bool
U32(const std::string& s, uint32_t& out)
{
    uint64_t v;
    if (!U64(s, v) || v > UINT32_MAX)
    {
        return false;
    }
    out = static_cast<uint32_t>(v);
    return true;
}

bool
Double(const std::string& s, double& out)
{
    if (s.empty())
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
    {
        return false;
    }
    out = v;
    return true;
}

bool
SecondsToPs(const std::string& s, int64_t& ps)
{
    // Fixed-point form: digits [ '.' digits ], read exactly.
    size_t dot = s.find('.');
    std::string whole = s.substr(0, dot);
    std::string frac = dot == std::string::npos ? "" : s.substr(dot + 1);
    uint64_t w = 0;
    bool fixed = !s.empty() && (whole.empty() || U64(whole, w)) &&
                 (frac.empty() || frac.find_first_not_of("0123456789") == std::string::npos) &&
                 !(whole.empty() && frac.empty());
    if (fixed)
    {
        // The whole seconds and a fraction below 1 s must fit int64 picoseconds.
        const uint64_t limit = static_cast<uint64_t>(INT64_MAX) / 1000000000000ULL - 1;
        if (w > limit)
        {
            return false;
        }
        int64_t v = static_cast<int64_t>(w) * 1000000000000LL;
        int64_t scale = 100000000000LL; // 0.1 s in ps
        bool roundUp = false;
        for (size_t i = 0; i < frac.size(); ++i)
        {
            int d = frac[i] - '0';
            if (scale > 0)
            {
                v += d * scale;
                scale /= 10;
            }
            else
            {
                roundUp = (i == 12 && d >= 5) || roundUp;
                break;
            }
        }
        ps = v + (roundUp ? 1 : 0);
        return true;
    }
    double d;
    if (!Double(s, d) || d < 0 || !(d * 1e12 < 9.2e18))
    {
        return false;
    }
    ps = std::llround(d * 1e12);
    return true;
}

namespace
{

/// Split "12.5Gbps" into number and unit; false unless the number is a finite value >= 0.
bool
SplitUnit(const std::string& s, double& value, std::string& unit)
{
    size_t i = 0;
    while (i < s.size() &&
           (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
            ((s[i] == 'e' || s[i] == 'E') && i > 0 && i + 1 < s.size() &&
             (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '-' ||
              s[i + 1] == '+')) ||
            ((s[i] == '-' || s[i] == '+') && i > 0 && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
    {
        ++i;
    }
    if (!Double(s.substr(0, i), value) || value < 0)
    {
        return false;
    }
    unit = s.substr(i);
    return true;
}

} // namespace

bool
Rate(const std::string& s, uint64_t& bps)
{
    double v;
    std::string unit;
    if (!SplitUnit(s, v, unit))
    {
        return false;
    }
    static const std::pair<const char*, double> units[] = {
        {"", 1},       {"bps", 1},     {"b/s", 1},     {"Bps", 8},     {"B/s", 8},
        {"Kbps", 1e3}, {"kbps", 1e3},  {"Kb/s", 1e3},  {"kb/s", 1e3},  {"KBps", 8e3},
        {"kBps", 8e3}, {"KB/s", 8e3},  {"kB/s", 8e3},  {"Mbps", 1e6},  {"Mb/s", 1e6},
        {"MBps", 8e6}, {"MB/s", 8e6},  {"Gbps", 1e9},  {"Gb/s", 1e9},  {"GBps", 8e9},
        {"GB/s", 8e9}, {"Tbps", 1e12}, {"Tb/s", 1e12}, {"TBps", 8e12}, {"TB/s", 8e12},
    };
    for (const auto& u : units)
    {
        if (unit == u.first)
        {
            double r = std::round(v * u.second);
            if (!(r < 1.8e19))
            {
                return false;
            }
            bps = static_cast<uint64_t>(r);
            return true;
        }
    }
    return false;
}

bool
Delay(const std::string& s, int64_t& ps)
{
    double v;
    std::string unit;
    if (!SplitUnit(s, v, unit))
    {
        return false;
    }
    static const std::pair<const char*, double> units[] = {
        {"", 1e12},
        {"s", 1e12},
        {"ms", 1e9},
        {"us", 1e6},
        {"ns", 1e3},
        {"ps", 1},
    };
    for (const auto& u : units)
    {
        if (unit == u.first)
        {
            double r = v * u.second;
            if (!(r < 9.2e18))
            {
                return false;
            }
            ps = std::llround(r);
            return true;
        }
    }
    return false;
}

std::string
Printable(const std::string& s, std::size_t maxChars)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i)
    {
        if (out.size() >= maxChars)
        {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c >= 0x20 && c < 0x7f) || c == '\t')
        {
            out += static_cast<char>(c);
        }
        else
        {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

} // namespace MrcParse

} // namespace ns3
