/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-scenario.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <malloc.h>
#include <sstream>
#include <sys/wait.h>
#include <system_error>

namespace ns3
{
namespace MrcTest
{

std::string
TempDir(const std::string& prefix)
{
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    const char* made = mkdtemp(pattern.data());
    EXPECT_NE(made, nullptr) << "cannot make a temporary folder " << pattern;
    return made ? std::string(made) : std::string();
}

ScopedTempDir::ScopedTempDir(const std::string& prefix)
    : m_path(TempDir(prefix))
{
}

ScopedTempDir::~ScopedTempDir()
{
    if (!m_path.empty())
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
}

const std::string&
ScopedTempDir::Path() const
{
    return m_path;
}

std::string
ReadFile(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}

std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream s(text);
    std::string line;
    while (std::getline(s, line))
    {
        out.push_back(line);
    }
    return out;
}

std::vector<uint8_t>
PacketBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

std::vector<uint8_t>
HeaderBytes(const Header& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> v(b.GetSize());
    b.CopyData(v.data(), v.size());
    return v;
}

Ipv6Address
HostAddress(uint32_t i)
{
    uint8_t b[16] = {0xfd, 0};
    b[14] = static_cast<uint8_t>((i + 1) >> 8);
    b[15] = static_cast<uint8_t>(i + 1);
    return Ipv6Address(b);
}

std::string
ShellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
    {
        q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

std::pair<int, std::string>
Shell(const std::string& command)
{
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        return {-1, out};
    }
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    {
        out.append(buf.data(), n);
    }
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::pair<int, std::string>
RunCommand(const std::string& command)
{
    return Shell(command + " 2>&1");
}

std::string
ExampleBinary(const std::string& name)
{
    namespace fs = std::filesystem;
    const char* dir = std::getenv("MRC_EXAMPLES_DIR");
    std::error_code ec;
    const fs::path candidate =
        (dir != nullptr && *dir != '\0')
            ? fs::path(dir) / name
            : fs::read_symlink("/proc/self/exe", ec).parent_path() / "examples" / name;
    return fs::exists(candidate, ec) ? candidate.string() : "";
}

Ptr<MrcTopology>
TwoPlaneClos(uint32_t hosts,
             bool trimming,
             uint32_t trimThreshold,
             uint64_t ecnKmin,
             Time linkDelay)
{
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::CLOS;
    c.planes = 2;
    c.hosts = hosts;
    c.hostsPerT0 = 2;
    c.t1PerPlane = 2;
    c.hostDelay = linkDelay;
    c.fabricDelay = linkDelay;
    MrcTopologyHelper th(c);
    th.SetNames(false);
    for (MrcTier t : {MrcTier::T0, MrcTier::T1})
    {
        MrcSwitchHelper& sh = th.GetSwitchHelper(t);
        if (trimming)
        {
            sh.SetSwitchAttribute("TrimmingEnabled", BooleanValue(true));
            sh.SetTrimmerAttribute("TrimThreshold", UintegerValue(trimThreshold));
        }
        if (ecnKmin > 0)
        {
            sh.SetEcnAttribute("Kmin", UintegerValue(ecnKmin));
            sh.SetEcnAttribute("Kmax", UintegerValue(ecnKmin + 1));
            sh.SetEcnAttribute("Pmax", DoubleValue(1.0));
        }
    }
    Ptr<MrcTopology> t = th.Build();
    MrcRdmaHelper rdma;
    MrcMultipathHelper::InstallNics(rdma, t);
    return t;
}

Ptr<MrcTopology>
OnePlaneClos(uint32_t hosts)
{
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::CLOS;
    c.hosts = hosts;
    c.hostsPerT0 = 2;
    c.t1PerPlane = 2;
    MrcTopologyHelper th(c);
    th.SetNames(false);
    return th.Build();
}

void
InstallNicsOnPlane0(MrcRdmaHelper& rdma, Ptr<MrcTopology> t)
{
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        rdma.Install(t->GetHost(h), t->GetNicPort(h, 0), t->GetAddress(h, 0));
    }
}

MrcWorkRequest
WriteRequest(Ptr<MrcMemoryRegion> region, uint64_t id, uint32_t length, uint64_t offset)
{
    MrcWorkRequest wr;
    wr.id = id;
    wr.remoteAddress = region->GetBase() + offset;
    wr.rkey = region->GetRkey();
    wr.length = length;
    return wr;
}

MrcWorkRequest
WriteRequest(const MrcRdmaHelper::Connection& c, uint64_t id, uint32_t length, uint64_t offset)
{
    return WriteRequest(c.region, id, length, offset);
}

Ptr<MrcMultipathQueuePair>
Mp(Ptr<MrcQueuePair> qp)
{
    return DynamicCast<MrcMultipathQueuePair>(qp);
}

void
CompletionLog::Wc(const MrcWorkCompletion& c)
{
    wc.push_back(c);
}

void
CompletionLog::Rc(const MrcRecvCompletion& c)
{
    rc.push_back(c);
}

void
CompletionLog::Attach(Ptr<MrcQueuePair> req, Ptr<MrcQueuePair> resp)
{
    req->SetCompletionCallback(MakeCallback(&CompletionLog::Wc, this));
    resp->SetReceiveCallback(MakeCallback(&CompletionLog::Rc, this));
}

void
CompletionLog::Attach(const MrcRdmaHelper::Connection& c)
{
    Attach(c.requester, c.responder);
}

void
RunSimMain(std::vector<std::string> args)
{
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    std::exit(MrcSimMain(static_cast<int>(argv.size()), argv.data()));
}

uint64_t
HeapBytesInUse()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    const struct mallinfo m = mallinfo();
    return static_cast<uint64_t>(static_cast<uint32_t>(m.uordblks)) +
           static_cast<uint64_t>(static_cast<uint32_t>(m.hblkhd));
#endif
}

MrcScenarioConfig
FatTreeIncastConfig(const std::string& transport,
                    const std::string& seed,
                    const std::vector<std::pair<std::string, std::string>>& attributes,
                    const std::string& profile)
{
    MrcScenarioOptions o;
    o.scenario = "incast";
    MrcScenarios::Find("incast")->preset(o);
    o.transports = "";
    o.transport = transport;
    o.topo.topology = "fattree";
    o.topo.k = "4";
    o.senders = "15";
    o.bytes = "1000000";
    o.seed = seed;
    o.sampleInterval = "0";
    o.profile = profile;
    MrcScenarioConfig c = o.ToConfig();
    c.attributeOverrides.insert(c.attributeOverrides.end(), attributes.begin(), attributes.end());
    c.progress = false;
    return c;
}

} // namespace MrcTest
} // namespace ns3
