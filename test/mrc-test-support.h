/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TEST_SUPPORT_H
#define MRC_TEST_SUPPORT_H

#include "ns3/header.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-scenario-config.h"
#include "ns3/mrc-topology.h"
#include "ns3/mrc-work-request.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc-tests
 * Fixtures shared by the GoogleTest files: temporary folders, whole-file reads and
 * writes, shell commands and example programs, the small two-plane Clos most MRC tests
 * run on, and RDMA Write requests.
 */

namespace ns3
{

/// Fixtures shared by the tests.
namespace MrcTest
{

/**
 * The configuration of the 15 -> 1 incast of 1 MB per sender on the k = 4 fat-tree (2
 * hosts per T0, 4 per pod; host h sits under T0 h / 2 of pod h / 4), the setup of the
 * incast-fairness-by-position tests: mrc-sim's incast preset, one transport, no
 * time series, no progress lines.
 * \param transport roce, uec or mrc
 * \param seed the run's seed
 * \param attributes attribute overrides (name, value) appended to the profile's
 * \param profile a profile name, or empty for the transport's default
 * \return the configuration, ready for MrcScenarioRunner
 */
MrcScenarioConfig FatTreeIncastConfig(
    const std::string& transport,
    const std::string& seed,
    const std::vector<std::pair<std::string, std::string>>& attributes = {},
    const std::string& profile = "");

/**
 * Make a fresh empty folder under the system's temporary folder (TMPDIR, else /tmp).
 * A test failure (not an abort) if it cannot be made.
 * \param prefix start of the folder's name (a random suffix follows)
 * \return the folder's path
 */
std::string TempDir(const std::string& prefix = "mrc-test");

/// A fresh empty temporary folder that is removed, with its contents, when the object goes.
class ScopedTempDir
{
  public:
    /// \param prefix start of the folder's name
    explicit ScopedTempDir(const std::string& prefix = "mrc-test");
    ~ScopedTempDir();
    ScopedTempDir(const ScopedTempDir&) = delete;
    ScopedTempDir& operator=(const ScopedTempDir&) = delete;

    /// \return the folder ("" if it could not be made)
    const std::string& Path() const;

  private:
    std::string m_path; //!< the folder
};

/**
 * \param path a file
 * \return its bytes ("" if it cannot be read)
 */
std::string ReadFile(const std::string& path);

/**
 * Write a file, replacing it.
 * \param path the file
 * \param text its new contents
 */
void WriteFile(const std::string& path, const std::string& text);

/**
 * \param text some text
 * \return its lines, without their line ends (a last line without one included)
 */
std::vector<std::string> Lines(const std::string& text);

/**
 * \param p a packet
 * \return its bytes
 */
std::vector<uint8_t> PacketBytes(Ptr<const Packet> p);

/**
 * \param h a header
 * \return the bytes it serializes to on its own
 */
std::vector<uint8_t> HeaderBytes(const Header& h);

/**
 * \param i a host's index
 * \return the address the single-switch tests give it: fd00::(i + 1)
 */
Ipv6Address HostAddress(uint32_t i);

/**
 * Quote a string for the shell: in single quotes, any single quote in it written as '\''.
 * \param s the string
 * \return s as one shell word
 */
std::string ShellQuote(const std::string& s);

/**
 * Run a shell command.
 * \param command the command (given to /bin/sh)
 * \return its exit status (-1 if it did not exit normally) and standard output
 */
std::pair<int, std::string> Shell(const std::string& command);

/**
 * Run a shell command with its standard error sent to its standard output.
 * \param command the command (given to /bin/sh)
 * \return its exit status (-1 if it did not exit normally) and both outputs
 */
std::pair<int, std::string> RunCommand(const std::string& command);

/**
 * Find an example program of the module: MRC_EXAMPLES_DIR/name when that variable is
 * set (CTest sets it), else examples/name beside the running test binary.
 * \param name the program's file name
 * \return its path, or "" when it is not there (say, in an ns-3 tree without it)
 */
std::string ExampleBinary(const std::string& name);

/**
 * The small two-plane Clos of the MRC tests: `hosts` hosts, 2 per T0, 2 T1 per plane
 * (two paths per plane between hosts on different T0s), 100 Gb/s links, switches
 * without names, and an MRC NIC on every host (MrcMultipathHelper::InstallNics).
 * \param hosts number of hosts (even)
 * \param trimming switches trim packets (T0 and T1)
 * \param trimThreshold the trimmers' TrimThreshold when trimming (bytes)
 * \param ecnKmin when not 0: every switch marks ECN from Kmin on, with certainty from
 *        Kmin + 1 bytes (Pmax 1)
 * \param linkDelay delay of every link
 * \return the fabric
 */
Ptr<MrcTopology> TwoPlaneClos(uint32_t hosts,
                              bool trimming = false,
                              uint32_t trimThreshold = 125000,
                              uint64_t ecnKmin = 0,
                              Time linkDelay = MicroSeconds(1));

/**
 * The one-plane Clos of the UEC tests: `hosts` hosts, 2 per T0, 2 T1, 100 Gb/s links of
 * 1 us, switches without names, no NICs yet.
 * \param hosts number of hosts (even)
 * \return the fabric
 */
Ptr<MrcTopology> OnePlaneClos(uint32_t hosts);

/**
 * Install a NIC made by `rdma` on every host, on the host's first port (plane 0).
 * \param rdma the RDMA helper (its queue-pair type and attributes)
 * \param t the fabric
 */
void InstallNicsOnPlane0(MrcRdmaHelper& rdma, Ptr<MrcTopology> t);

/**
 * An RDMA Write of `length` bytes into a remote region.
 * \param region the remote region
 * \param id the work request id
 * \param length bytes to write
 * \param offset where in the region
 * \return the work request
 */
MrcWorkRequest WriteRequest(Ptr<MrcMemoryRegion> region,
                            uint64_t id,
                            uint32_t length,
                            uint64_t offset = 0);

/**
 * An RDMA Write of `length` bytes into a connection's remote region.
 * \param c the connection
 * \param id the work request id
 * \param length bytes to write
 * \param offset where in the region
 * \return the work request
 */
MrcWorkRequest WriteRequest(const MrcRdmaHelper::Connection& c,
                            uint64_t id,
                            uint32_t length,
                            uint64_t offset = 0);

/**
 * \param qp a queue pair made by the MRC transport
 * \return it as the MRC queue pair (null if it is of another transport)
 */
Ptr<MrcMultipathQueuePair> Mp(Ptr<MrcQueuePair> qp);

/// The completions a requester and the messages a responder reported, in order.
struct CompletionLog
{
    std::vector<MrcWorkCompletion> wc; //!< the requester's work completions
    std::vector<MrcRecvCompletion> rc; //!< the responder's received messages

    /// \param c a work completion (completion callback)
    void Wc(const MrcWorkCompletion& c);
    /// \param c a received message (receive callback)
    void Rc(const MrcRecvCompletion& c);
    /// Log the completions of req and the messages of resp. \param req \param resp
    void Attach(Ptr<MrcQueuePair> req, Ptr<MrcQueuePair> resp);
    /// Log a connection's requester and responder. \param c the connection
    void Attach(const MrcRdmaHelper::Connection& c);
};

/**
 * Run mrc-sim's main with these arguments and exit with its exit code (for death tests,
 * which run it in a child process).
 * \param args the arguments, program name first
 */
[[noreturn]] void RunSimMain(std::vector<std::string> args);

/// \return the bytes malloc has handed out and not taken back now (mallinfo2; mallinfo's
/// 32-bit fields before glibc 2.33), for tests that compare peak memory of runs
uint64_t HeapBytesInUse();

} // namespace MrcTest

} // namespace ns3

#endif /* MRC_TEST_SUPPORT_H */
