/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COMMA_LIST_H
#define MRC_COMMA_LIST_H

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Parsing of comma-separated list attributes (the link layer's DSCP map and DWRR
 * weights).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * \param s a string
 * \return s without blanks (space, tab, newline, carriage return) at both ends
 */
std::string MrcTrim(const std::string& s);

/**
 * \ingroup mrc
 * Parse a non-negative decimal integer of at most nine digits.
 * \param s the text, without blanks
 * \param[out] value its value, if it is one
 * \return false if s is not such an integer
 */
bool MrcParseUnsigned(const std::string& s, uint32_t& value);

/**
 * \ingroup mrc
 * \param s a comma-separated list
 * \return its items without surrounding blanks; none for an empty or all-blank string
 */
std::vector<std::string> MrcSplitCommas(const std::string& s);

} // namespace ns3

#endif /* MRC_COMMA_LIST_H */
