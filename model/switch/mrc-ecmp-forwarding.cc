/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecmp-forwarding.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEcmpForwarding");

NS_OBJECT_ENSURE_REGISTERED(MrcEcmpForwarding);

namespace
{

/// SplitMix64's output function (Steele, Lea, Flood 2014; constants by S. Vigna):
/// a bijective 64-bit mix with full avalanche.
uint64_t
Mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/// Absorb one word into a running hash.
uint64_t
Absorb(uint64_t h, uint64_t w)
{
    return Mix64(h ^ (w + 0x9e3779b97f4a7c15ull));
}

/// Table of the reflected CRC-32 (IEEE 802.3, polynomial 0x04C11DB7) for one byte.
struct Crc32Table
{
    uint32_t t[256]; //!< entries

    Crc32Table()
    {
        for (uint32_t i = 0; i < 256; ++i)
        {
            uint32_t r = i;
            for (int b = 0; b < 8; ++b)
            {
                r = (r & 1U) ? (r >> 1) ^ 0xEDB88320U : r >> 1;
            }
            t[i] = r;
        }
    }
};

const Crc32Table g_crc32;

/// Feed the n low bytes of v, most significant first, into a running CRC-32.
uint32_t
CrcBytes(uint32_t crc, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; --i)
    {
        crc = g_crc32.t[(crc ^ static_cast<uint8_t>(v >> (8 * i))) & 0xFFU] ^ (crc >> 8);
    }
    return crc;
}

/// Up to this many strides (every switch of a Clos or fat-tree has one to three),
/// FindRange scans them; more are searched by bisection.
constexpr std::size_t SCAN_STRIDES = 4;

void
CheckLength(uint8_t prefixLength)
{
    NS_ABORT_MSG_IF(prefixLength > 128,
                    "MrcEcmpForwarding: prefix length " << unsigned(prefixLength)
                                                        << " is out of range: allowed 0..128");
}

} // namespace

TypeId
MrcEcmpForwarding::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcEcmpForwarding")
            .SetParent<MrcForwarding>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcEcmpForwarding>()
            .AddAttribute("Seed",
                          "Per-switch seed of the ECMP hash; give every switch its own (our "
                          "choice: the topology helper uses the node id) to avoid hash "
                          "polarization.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcEcmpForwarding::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HashFunction",
                          "ECMP hash of the 5-tuple. Mix (default, our choice): a seeded "
                          "64-bit mix, every distinct 5-tuple lands on a port as if at "
                          "random. Crc32: CRC-32 (IEEE 802.3) of the 5-tuple's 40 bytes in "
                          "network order, rotated right by Seed mod 32 bits, linear as switch "
                          "ASIC hashes are: entropy values that differ only in their low k "
                          "bits spread exactly evenly over 2^j <= 2^k ports.",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<HashFunction>(HASH_MIX),
                          MakeEnumAccessor<HashFunction>(&MrcEcmpForwarding::m_hashFunction),
#else
                          EnumValue(HASH_MIX),
                          MakeEnumAccessor(&MrcEcmpForwarding::m_hashFunction),
#endif
                          MakeEnumChecker(HASH_MIX, "Mix", HASH_CRC32, "Crc32"));
    return tid;
}

MrcEcmpForwarding::MrcEcmpForwarding()
    : m_seed(0),
      m_hashFunction(HASH_MIX)
{
    NS_LOG_FUNCTION(this);
}

MrcEcmpForwarding::~MrcEcmpForwarding()
{
    NS_LOG_FUNCTION(this);
}

std::size_t
MrcEcmpForwarding::KeyHash::operator()(const Key& k) const
{
    return static_cast<std::size_t>(Mix64(k.hi ^ Mix64(k.lo)));
}

MrcEcmpForwarding::Key
MrcEcmpForwarding::ToKey(const Ipv6Address& a)
{
    return ToKey(MrcIpv6Bytes(a));
}

MrcEcmpForwarding::Key
MrcEcmpForwarding::ToKey(const MrcIpv6Bytes& a)
{
    return Key{MrcByteIo::ReadU64(a.bytes), MrcByteIo::ReadU64(a.bytes + 8)};
}

MrcEcmpForwarding::Key
MrcEcmpForwarding::MaskOf(uint8_t length)
{
    auto word = [](int bits) -> uint64_t {
        if (bits <= 0)
        {
            return 0;
        }
        if (bits >= 64)
        {
            return ~uint64_t{0};
        }
        return ~uint64_t{0} << (64 - bits);
    };
    return Key{word(length), word(length - 64)};
}

MrcEcmpForwarding::LengthTable&
MrcEcmpForwarding::TableFor(uint8_t length)
{
    auto it = std::find_if(m_tables.begin(), m_tables.end(), [length](const LengthTable& t) {
        return t.length <= length;
    });
    if (it != m_tables.end() && it->length == length)
    {
        return *it;
    }
    LengthTable t;
    t.length = length;
    t.mask = MaskOf(length);
    return *m_tables.insert(it, std::move(t));
}

MrcEcmpForwarding::Group*
MrcEcmpForwarding::Find(Ipv6Address prefix, uint8_t prefixLength)
{
    for (LengthTable& t : m_tables)
    {
        if (t.length == prefixLength)
        {
            Key k = ToKey(prefix);
            k.hi &= t.mask.hi;
            k.lo &= t.mask.lo;
            auto it = t.routes.find(k);
            return it == t.routes.end() ? nullptr : &it->second;
        }
    }
    return nullptr;
}

void
MrcEcmpForwarding::UpdateLive(Group& g) const
{
    g.live.clear();
    for (uint32_t port : g.ports)
    {
        if (IsPortUp(port))
        {
            g.live.push_back(port);
        }
    }
}

void
MrcEcmpForwarding::AddRoute(Ipv6Address prefix, uint8_t prefixLength, uint32_t port)
{
    NS_LOG_FUNCTION(this << prefix << unsigned(prefixLength) << port);
    CheckLength(prefixLength);
    LengthTable& t = TableFor(prefixLength);
    Key k = ToKey(prefix);
    k.hi &= t.mask.hi;
    k.lo &= t.mask.lo;
    Group& g = t.routes[k];
    if (std::find(g.ports.begin(), g.ports.end(), port) == g.ports.end())
    {
        g.ports.push_back(port);
        UpdateLive(g);
    }
}

void
MrcEcmpForwarding::ReplaceRoute(Ipv6Address prefix,
                                uint8_t prefixLength,
                                const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << prefix << unsigned(prefixLength) << ports.size());
    CheckLength(prefixLength);
    NS_ABORT_MSG_IF(ports.empty(),
                    "MrcEcmpForwarding::ReplaceRoute " << prefix << "/" << unsigned(prefixLength)
                                                       << ": empty port set (use RemoveRoute)");
    LengthTable& t = TableFor(prefixLength);
    Key k = ToKey(prefix);
    k.hi &= t.mask.hi;
    k.lo &= t.mask.lo;
    Group& g = t.routes[k];
    g.ports.clear();
    for (uint32_t port : ports)
    {
        if (std::find(g.ports.begin(), g.ports.end(), port) == g.ports.end())
        {
            g.ports.push_back(port);
        }
    }
    UpdateLive(g);
}

bool
MrcEcmpForwarding::RemoveRoute(Ipv6Address prefix, uint8_t prefixLength)
{
    NS_LOG_FUNCTION(this << prefix << unsigned(prefixLength));
    CheckLength(prefixLength);
    for (auto it = m_tables.begin(); it != m_tables.end(); ++it)
    {
        if (it->length != prefixLength)
        {
            continue;
        }
        Key k = ToKey(prefix);
        k.hi &= it->mask.hi;
        k.lo &= it->mask.lo;
        const bool erased = it->routes.erase(k) > 0;
        if (it->routes.empty())
        {
            m_tables.erase(it);
        }
        return erased;
    }
    return false;
}

std::vector<uint32_t>
MrcEcmpForwarding::GetRoute(Ipv6Address prefix, uint8_t prefixLength) const
{
    CheckLength(prefixLength);
    Group* g = const_cast<MrcEcmpForwarding*>(this)->Find(prefix, prefixLength);
    return g ? g->ports : std::vector<uint32_t>();
}

uint32_t
MrcEcmpForwarding::GetNRoutes() const
{
    std::size_t n = m_rangeFirst.size();
    for (const LengthTable& t : m_tables)
    {
        n += t.routes.size();
    }
    return static_cast<uint32_t>(n);
}

// ---------------------------------------------------------------- range routes

uint32_t
MrcEcmpForwarding::SetRangeRoutes(const std::vector<std::vector<uint32_t>>& groups,
                                  const std::vector<RangeRoute>& runs)
{
    NS_LOG_FUNCTION(this << groups.size() << runs.size());
    // Check the runs first: nothing changes on an abort.
    std::vector<Key> first;
    std::vector<uint64_t> last;
    first.reserve(runs.size());
    last.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        const RangeRoute& r = runs[i];
        const Key k = ToKey(r.first);
        NS_ABORT_MSG_IF(r.count == 0 || k.lo + (r.count - 1) < k.lo,
                        "MrcEcmpForwarding::SetRangeRoutes: run " << i << " at " << r.first
                                                                  << " is empty or crosses a "
                                                                     "64-bit boundary");
        NS_ABORT_MSG_IF(r.group >= groups.size() || groups[r.group].empty(),
                        "MrcEcmpForwarding::SetRangeRoutes: run " << i << " names group " << r.group
                                                                  << " of " << groups.size()
                                                                  << " (or an empty group)");
        NS_ABORT_MSG_IF(
            i > 0 && !(first.back().hi < k.hi || (first.back().hi == k.hi && last.back() < k.lo)),
            "MrcEcmpForwarding::SetRangeRoutes: run "
                << i << " at " << r.first
                << " is not after the previous one (runs in increasing order, "
                   "without overlap)");
        first.push_back(k);
        last.push_back(k.lo + (r.count - 1));
    }
    // Changed runs: a merge walk over the old and the new runs (both in address order).
    uint32_t changed = 0;
    std::size_t o = 0;
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        while (o < m_rangeFirst.size() && Less(m_rangeFirst[o], first[i]))
        {
            ++changed; // an old run that starts where no new one does: removed
            ++o;
        }
        if (o < m_rangeFirst.size() && m_rangeFirst[o] == first[i])
        {
            // a run at the same address: changed unless its end and ports are the same
            if (m_rangeLast[o] != last[i] || RangePorts(o) != groups[runs[i].group])
            {
                ++changed;
            }
            ++o;
        }
        else
        {
            ++changed; // a new run
        }
    }
    changed += static_cast<uint32_t>(m_rangeFirst.size() - o);

    // Keep only the groups some run uses, in first-use order.
    std::vector<uint32_t> newIndex(groups.size(), UINT32_MAX);
    m_rangeGroups.clear();
    m_rangePorts.clear();
    m_rangeGroup.clear();
    m_rangeGroup.reserve(runs.size());
    for (const RangeRoute& r : runs)
    {
        uint32_t& g = newIndex[r.group];
        if (g == UINT32_MAX)
        {
            g = static_cast<uint32_t>(m_rangeGroups.size());
            const std::vector<uint32_t>& ports = groups[r.group];
            m_rangeGroups.push_back(RangeGroup{static_cast<uint32_t>(m_rangePorts.size()),
                                               static_cast<uint32_t>(ports.size()),
                                               0});
            m_rangePorts.insert(m_rangePorts.end(), ports.begin(), ports.end());
        }
        m_rangeGroup.push_back(g);
    }
    m_rangeLive.assign(m_rangePorts.size(), 0);
    for (RangeGroup& g : m_rangeGroups)
    {
        UpdateRangeLive(g);
    }
    m_rangeFirst = std::move(first);
    m_rangeLast = std::move(last);
    BuildStrides();
    CopyRunGroups();
    m_rangeFirst.shrink_to_fit();
    m_rangeLast.shrink_to_fit();
    m_rangeGroup.shrink_to_fit();
    m_rangeGroups.shrink_to_fit();
    m_rangePorts.shrink_to_fit();
    m_rangeLive.shrink_to_fit();
    m_runGroups.shrink_to_fit();
    return changed;
}

uint32_t
MrcEcmpForwarding::GetNRangeRoutes() const
{
    return static_cast<uint32_t>(m_rangeFirst.size());
}

uint32_t
MrcEcmpForwarding::GetNRangeGroups() const
{
    return static_cast<uint32_t>(m_rangeGroups.size());
}

uint32_t
MrcEcmpForwarding::GetNRangeStrides() const
{
    return static_cast<uint32_t>(m_strides.size());
}

MrcEcmpForwarding::RangeRoute
MrcEcmpForwarding::GetRangeRoute(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_rangeFirst.size(),
                    "MrcEcmpForwarding::GetRangeRoute: route " << i << " of "
                                                               << m_rangeFirst.size());
    uint8_t b[16];
    MrcByteIo::WriteU64(b, m_rangeFirst[i].hi);
    MrcByteIo::WriteU64(b + 8, m_rangeFirst[i].lo);
    return RangeRoute{Ipv6Address(b), m_rangeLast[i] - m_rangeFirst[i].lo + 1, m_rangeGroup[i]};
}

int64_t
MrcEcmpForwarding::FindRangeRoute(Ipv6Address dst) const
{
    return FindRange(ToKey(dst));
}

void
MrcEcmpForwarding::BuildStrides()
{
    m_strides.clear();
    for (std::size_t i = 0; i < m_rangeFirst.size(); ++i)
    {
        const Key& k = m_rangeFirst[i];
        const uint64_t count = m_rangeLast[i] - k.lo + 1;
        if (!m_strides.empty())
        {
            Stride& s = m_strides.back();
            // the run before ends at m_rangeLast[i - 1]: this one continues the stride if it
            // starts right after it (same high word) and has the stride's size
            if (m_rangeFirst[i - 1].hi == k.hi && k.lo - m_rangeLast[i - 1] == 1 &&
                s.count == count)
            {
                ++s.n;
                continue;
            }
        }
        uint8_t shift = NO_SHIFT;
        if ((count & (count - 1)) == 0)
        {
            shift = 0;
            while ((uint64_t{1} << shift) != count)
            {
                ++shift;
            }
        }
        m_strides.push_back(Stride{k, count, static_cast<uint32_t>(i), 1, shift});
    }
    m_strides.shrink_to_fit();
}

void
MrcEcmpForwarding::CopyRunGroups()
{
    m_runGroups.resize(m_rangeGroup.size());
    for (std::size_t i = 0; i < m_rangeGroup.size(); ++i)
    {
        const RangeGroup& g = m_rangeGroups[m_rangeGroup[i]];
        m_runGroups[i] = RunGroup{g.first, g.n, g.nLive, m_rangePorts[g.first]};
    }
}

std::vector<uint32_t>
MrcEcmpForwarding::RangePorts(std::size_t i) const
{
    const RangeGroup& g = m_rangeGroups[m_rangeGroup[i]];
    return std::vector<uint32_t>(m_rangePorts.begin() + g.first,
                                 m_rangePorts.begin() + g.first + g.n);
}

void
MrcEcmpForwarding::UpdateRangeLive(RangeGroup& g)
{
    g.nLive = 0;
    for (uint32_t i = 0; i < g.n; ++i)
    {
        const uint32_t port = m_rangePorts[g.first + i];
        if (IsPortUp(port))
        {
            m_rangeLive[g.first + g.nLive++] = port;
        }
    }
}

int64_t
MrcEcmpForwarding::FindRange(const Key& d) const
{
    // The last stride whose first address is not after d: the last run not after d is
    // in it (the next stride starts after d). Inside the stride, run j starts at
    // first + j * count, so d's run is (d - first) / count if that is below n; past the
    // stride's last run, d is in the gap before the next stride (no run).
    // A few strides are scanned from the last, more are searched by bisection.
    const Stride* found = nullptr;
    const std::size_t nStrides = m_strides.size();
    if (nStrides <= SCAN_STRIDES)
    {
        for (std::size_t s = nStrides; s-- > 0;)
        {
            if (!Less(d, m_strides[s].first))
            {
                found = &m_strides[s];
                break;
            }
        }
        if (found == nullptr)
        {
            return -1;
        }
    }
    else
    {
        auto it = std::upper_bound(m_strides.begin(),
                                   m_strides.end(),
                                   d,
                                   [](const Key& k, const Stride& s) { return Less(k, s.first); });
        if (it == m_strides.begin())
        {
            return -1;
        }
        found = &*(it - 1);
    }
    const Stride& st = *found;
    const Key& first = st.first;
    if (first.hi != d.hi)
    {
        return -1;
    }
    const uint64_t offset = d.lo - first.lo;
    const uint64_t j = st.shift != NO_SHIFT ? offset >> st.shift : offset / st.count;
    if (j >= st.n)
    {
        return -1;
    }
    return static_cast<int64_t>(st.run0 + j);
}

std::vector<uint32_t>
MrcEcmpForwarding::GetNextHops(Ipv6Address dst) const
{
    const Key d = ToKey(dst);
    const int64_t r = FindRange(d);
    if (r >= 0)
    {
        return RangePorts(static_cast<std::size_t>(r));
    }
    for (const LengthTable& t : m_tables)
    {
        auto it = t.routes.find(Key{d.hi & t.mask.hi, d.lo & t.mask.lo});
        if (it != t.routes.end())
        {
            return it->second.ports;
        }
    }
    return {};
}

std::size_t
MrcEcmpForwarding::GetRouteBytes() const
{
    std::size_t b =
        m_rangeFirst.capacity() * sizeof(Key) + m_rangeLast.capacity() * sizeof(uint64_t) +
        m_rangeGroup.capacity() * sizeof(uint32_t) + m_rangeGroups.capacity() * sizeof(RangeGroup) +
        (m_rangePorts.capacity() + m_rangeLive.capacity()) * sizeof(uint32_t) +
        m_strides.capacity() * sizeof(Stride) + m_runGroups.capacity() * sizeof(RunGroup) +
        m_tables.capacity() * sizeof(LengthTable) + m_portDown.capacity() / 8;
    for (const LengthTable& t : m_tables)
    {
        // a hash node holds the key, the group and the next pointer (and the hash code)
        b += t.routes.bucket_count() * sizeof(void*);
        for (const auto& route : t.routes)
        {
            b += sizeof(void*) + sizeof(std::size_t) + sizeof(route) +
                 (route.second.ports.capacity() + route.second.live.capacity()) * sizeof(uint32_t);
        }
    }
    return b;
}

void
MrcEcmpForwarding::SetPortState(uint32_t port, bool up)
{
    NS_LOG_FUNCTION(this << port << up);
    if (port >= m_portDown.size())
    {
        if (up)
        {
            return;
        }
        m_portDown.resize(port + 1, false);
    }
    if (m_portDown[port] == !up)
    {
        return;
    }
    m_portDown[port] = !up;
    bool rangeChanged = false;
    for (RangeGroup& g : m_rangeGroups)
    {
        if (std::find(m_rangePorts.begin() + g.first, m_rangePorts.begin() + g.first + g.n, port) !=
            m_rangePorts.begin() + g.first + g.n)
        {
            UpdateRangeLive(g);
            rangeChanged = true;
        }
    }
    if (rangeChanged)
    {
        CopyRunGroups();
    }
    for (LengthTable& t : m_tables)
    {
        for (auto& route : t.routes)
        {
            Group& g = route.second;
            if (std::find(g.ports.begin(), g.ports.end(), port) != g.ports.end())
            {
                UpdateLive(g);
            }
        }
    }
}

bool
MrcEcmpForwarding::IsPortUp(uint32_t port) const
{
    return port >= m_portDown.size() || !m_portDown[port];
}

uint64_t
MrcEcmpForwarding::Hash(const MrcPacketInfo& info) const
{
    return HashWithDst(info, ToKey(info.dst));
}

uint64_t
MrcEcmpForwarding::HashWithDst(const MrcPacketInfo& info, const Key& d) const
{
    const Key s = ToKey(info.src);
    if (m_hashFunction == HASH_CRC32)
    {
        uint32_t crc = 0xFFFFFFFFU;
        crc = CrcBytes(crc, s.hi, 8);
        crc = CrcBytes(crc, s.lo, 8);
        crc = CrcBytes(crc, d.hi, 8);
        crc = CrcBytes(crc, d.lo, 8);
        crc = CrcBytes(crc, info.flowLabel & 0xFFFFFU, 4);
        crc = CrcBytes(crc, info.udpSrcPort, 2);
        crc = CrcBytes(crc, info.udpDstPort, 2);
        crc = ~crc;
        const uint32_t r = static_cast<uint32_t>(m_seed % 32);
        return r == 0 ? crc : (crc >> r) | (crc << (32 - r));
    }
    uint64_t h = Mix64(m_seed);
    h = Absorb(h, s.hi);
    h = Absorb(h, s.lo);
    h = Absorb(h, d.hi);
    h = Absorb(h, d.lo);
    h = Absorb(h,
               (static_cast<uint64_t>(info.flowLabel) << 32) |
                   (static_cast<uint64_t>(info.udpSrcPort) << 16) | info.udpDstPort);
    return h;
}

int32_t
MrcEcmpForwarding::DoRoute(MrcPacketInfo& info, uint32_t /* inPort */)
{
    const Key d = ToKey(info.dst);
    if (!m_strides.empty())
    {
        const int64_t r = FindRange(d);
        if (r >= 0)
        {
            const RunGroup& g = m_runGroups[r];
            if (g.nLive == 0)
            {
                return NO_ROUTE;
            }
            if (g.n == 1)
            {
                return static_cast<int32_t>(g.port0); // one port (live): no hash needed
            }
            const uint64_t h = HashWithDst(info, d);
            uint32_t port = m_rangePorts[g.first + h % g.n];
            if (g.nLive != g.n && !IsPortUp(port))
            {
                // The flow's port is down: rehash over the live ports only.
                port = m_rangeLive[g.first + Mix64(h) % g.nLive];
            }
            if (g.nLive > 1)
            {
                port = ChoosePort(info, h, port, &m_rangeLive[g.first], g.nLive);
            }
            return static_cast<int32_t>(port);
        }
    }
    for (const LengthTable& t : m_tables)
    {
        auto it = t.routes.find(Key{d.hi & t.mask.hi, d.lo & t.mask.lo});
        if (it == t.routes.end())
        {
            continue;
        }
        const Group& g = it->second;
        if (g.live.empty())
        {
            return NO_ROUTE;
        }
        if (g.ports.size() == 1)
        {
            return static_cast<int32_t>(g.ports[0]); // one port (live): no hash needed
        }
        const uint64_t h = HashWithDst(info, d);
        uint32_t port = g.ports[h % g.ports.size()];
        if (g.live.size() != g.ports.size() && !IsPortUp(port))
        {
            // The flow's port is down: rehash over the live ports only.
            port = g.live[Mix64(h) % g.live.size()];
        }
        if (g.live.size() > 1)
        {
            port = ChoosePort(info, h, port, g.live.data(), static_cast<uint32_t>(g.live.size()));
        }
        return static_cast<int32_t>(port);
    }
    return NO_ROUTE;
}

uint32_t
MrcEcmpForwarding::ChoosePort(const MrcPacketInfo& /* info */,
                              uint64_t /* hash */,
                              uint32_t ecmpPort,
                              const uint32_t* /* live */,
                              uint32_t /* nLive */)
{
    return ecmpPort;
}

} // namespace ns3
