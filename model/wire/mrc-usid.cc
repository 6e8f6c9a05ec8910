/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-usid.h"

#include "mrc-byte-io.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcUsid");

MrcUsidCarrier::MrcUsidCarrier()
    : m_high(0),
      m_low(0)
{
}

MrcUsidCarrier::MrcUsidCarrier(uint32_t locatorBlock, std::initializer_list<uint16_t> usids)
    : MrcUsidCarrier(locatorBlock, usids.begin(), static_cast<uint32_t>(usids.size()))
{
}

MrcUsidCarrier::MrcUsidCarrier(uint32_t locatorBlock, const uint16_t* usids, uint32_t count)
    : m_high(static_cast<uint64_t>(locatorBlock) << 32),
      m_low(0)
{
    NS_ABORT_MSG_IF(count > MAX_USIDS,
                    "a uSID carrier holds at most " << MAX_USIDS << " uSIDs after a 32-bit "
                                                    << "locator block; got " << count
                                                    << " (use an SRH for longer paths)");
    for (uint32_t i = 0; i < count; ++i)
    {
        NS_ABORT_MSG_IF(usids[i] == 0,
                        "uSID " << i << " of the carrier is 0, the end-of-carrier marker; "
                                << "allowed 0x0001..0xffff");
        // slot i sits at bit offset 32 + 16 i from the top of the address
        if (i < 2)
        {
            m_high |= static_cast<uint64_t>(usids[i]) << (16 * (1 - i));
        }
        else
        {
            m_low |= static_cast<uint64_t>(usids[i]) << (16 * (5 - i));
        }
    }
}

MrcUsidCarrier::MrcUsidCarrier(const Ipv6Address& address)
{
    uint8_t buf[16];
    address.GetBytes(buf);
    m_high = MrcByteIo::ReadU64(buf);
    m_low = MrcByteIo::ReadU64(buf + 8);
}

MrcUsidCarrier
MrcUsidCarrier::FromBytes(const uint8_t buf[16])
{
    MrcUsidCarrier c;
    c.m_high = MrcByteIo::ReadU64(buf);
    c.m_low = MrcByteIo::ReadU64(buf + 8);
    return c;
}

Ipv6Address
MrcUsidCarrier::ToAddress() const
{
    uint8_t buf[16];
    GetBytes(buf);
    return Ipv6Address(buf);
}

void
MrcUsidCarrier::GetBytes(uint8_t buf[16]) const
{
    MrcByteIo::WriteU64(buf, m_high);
    MrcByteIo::WriteU64(buf + 8, m_low);
}

uint32_t
MrcUsidCarrier::GetLocatorBlock() const
{
    return static_cast<uint32_t>(m_high >> 32);
}

uint16_t
MrcUsidCarrier::GetActiveUsid() const
{
    return static_cast<uint16_t>(m_high >> 16);
}

uint16_t
MrcUsidCarrier::GetUsid(uint32_t slot) const
{
    NS_ABORT_MSG_IF(slot >= MAX_USIDS,
                    "uSID slot " << slot << " does not exist: allowed 0.." << MAX_USIDS - 1);
    if (slot < 2)
    {
        return static_cast<uint16_t>(m_high >> (16 * (1 - slot)));
    }
    return static_cast<uint16_t>(m_low >> (16 * (5 - slot)));
}

uint64_t
MrcUsidCarrier::GetKey48() const
{
    return m_high >> 16;
}

bool
MrcUsidCarrier::Matches(uint32_t locatorBlock, uint16_t usid) const
{
    return GetKey48() == MakeKey48(locatorBlock, usid);
}

void
MrcUsidCarrier::Shift()
{
    // The 96-bit uSID part spans the low half of m_high and all of m_low.
    m_high = (m_high & 0xffffffff00000000ULL) | ((m_high & 0xffffULL) << 16) | (m_low >> 48);
    m_low <<= 16;
}

void
MrcUsidCarrier::ShiftAddress(uint8_t* address, uint32_t count)
{
    // The address bytes in network order: the 4-byte block, then slots 0..5 of 2 bytes
    // each. Each shift moves the slots one place towards the block, a zero entering slot 5
    // (Shift's arithmetic on the same bytes).
    const uint32_t bytes = 2 * std::min<uint32_t>(count, MAX_USIDS);
    if (bytes == 0)
    {
        return;
    }
    std::memmove(address + 4, address + 4 + bytes, 12 - bytes);
    std::memset(address + 16 - bytes, 0, bytes);
}

bool
MrcUsidCarrier::IsEnd() const
{
    return GetActiveUsid() == 0;
}

uint32_t
MrcUsidCarrier::GetRemainingCount() const
{
    uint32_t n = 0;
    while (n < MAX_USIDS && GetUsid(n) != 0)
    {
        ++n;
    }
    return n;
}

uint32_t
MrcUsidCarrier::GetRemaining(std::array<uint16_t, MAX_USIDS>& out) const
{
    out.fill(0);
    uint32_t n = 0;
    while (n < MAX_USIDS)
    {
        uint16_t u = GetUsid(n);
        if (u == 0)
        {
            break;
        }
        out[n++] = u;
    }
    return n;
}

void
MrcUsidCarrier::Print(std::ostream& os) const
{
    os << ToAddress();
}

std::ostream&
operator<<(std::ostream& os, const MrcUsidCarrier& carrier)
{
    carrier.Print(os);
    return os;
}

uint16_t
MrcMakeUsid(uint32_t plane, MrcUsidType type, uint32_t index)
{
    NS_ABORT_MSG_IF(plane >= MRC_USID_MAX_PLANES,
                    "plane " << plane << " does not fit the uSID layout: allowed 0.."
                             << MRC_USID_MAX_PLANES - 1
                             << " (the 4-bit plane field holds plane + 1)");
    NS_ABORT_MSG_IF(index >= MRC_USID_MAX_INDEX,
                    "uSID index " << index << " (" << MrcUsidTypeName(type)
                                  << ") does not fit the 10-bit index field: allowed 0.."
                                  << MRC_USID_MAX_INDEX - 1);
    return static_cast<uint16_t>(((plane + 1) << 12) | (static_cast<uint32_t>(type) << 10) | index);
}

uint32_t
MrcUsidPlane(uint16_t usid)
{
    uint32_t field = usid >> 12;
    NS_ABORT_MSG_IF(field == 0,
                    "uSID 0x" << std::hex << usid << std::dec
                              << " has plane field 0, which the model's layout never uses "
                              << "(the field holds plane + 1)");
    return field - 1;
}

uint16_t
MrcUsidWithPlane(uint16_t usid, uint32_t plane)
{
    NS_ABORT_MSG_IF(plane >= MRC_USID_MAX_PLANES,
                    "plane " << plane << " does not fit the uSID layout: allowed 0.."
                             << MRC_USID_MAX_PLANES - 1);
    return static_cast<uint16_t>((usid & ~MRC_USID_PLANE_MASK) | ((plane + 1) << 12));
}

const char*
MrcUsidTypeName(MrcUsidType type)
{
    switch (type)
    {
    case MrcUsidType::T0:
        return "T0";
    case MrcUsidType::T1:
        return "T1";
    case MrcUsidType::HOST_DOWNLINK:
        return "DOWNLINK";
    case MrcUsidType::T2:
        return "T2";
    }
    return "?";
}

} // namespace ns3
