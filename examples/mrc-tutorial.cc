/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mrc-tutorial: the smallest complete MRC program, for reading along with the tutorial
// chapter (doc/mrc-tutorial.rst). It builds a 2-plane Clos fabric of 4 hosts, connects
// one pair of MRC queue pairs (host 0 writes into a memory region of host 3), posts a few
// RDMA Writes and one Write with Immediate, runs the simulation and prints what arrived.
//
//   mrc-tutorial [--writes=3] [--bytes=65536] [--linkDelay=1us]

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-topology-helper.h"

#include <iostream>

using namespace ns3;

namespace
{

// Called on host 0 when a work request ends: the requester saw the last byte acknowledged.
void
OnCompletion(const MrcWorkCompletion& wc)
{
    std::cout << "completion: wr " << wc.wrId << " " << MrcWcStatusName(wc.status) << ", "
              << wc.bytes << " bytes, posted at " << wc.start.GetMicroSeconds() << " us, done at "
              << wc.end.GetMicroSeconds() << " us\n";
}

// Called on host 3 when a whole message has been placed in its memory region.
void
OnReceive(const MrcRecvCompletion& rc)
{
    std::cout << "received: " << rc.bytes << " bytes at offset 0x" << std::hex
              << (rc.address & 0xffffffffULL) << std::dec;
    if (rc.hasImmediate)
    {
        std::cout << " with immediate " << rc.immediate; // only Write with Immediate has one
    }
    std::cout << "\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    // 1. Options. MrcCommandLine is ns-3's CommandLine that also rejects unknown options
    //    and bad values (exit code 2); --PrintHelp lists these three.
    uint32_t writes = 3;
    uint32_t bytes = 65536;
    std::string linkDelay = "1us";
    MrcCommandLine cmd;
    cmd.Usage("One MRC queue-pair pair on a 2-plane Clos: a few RDMA Writes, then one Write "
              "with Immediate; prints every completion and the bytes delivered.");
    cmd.AddValue("writes", "plain RDMA Writes to post (1..16)", writes);
    cmd.AddValue("bytes", "bytes per Write (1..1048576)", bytes);
    cmd.AddValue("linkDelay", "propagation delay of every link", linkDelay);
    cmd.Parse(argc, argv);
    if (writes < 1 || writes > 16 || bytes < 1 || bytes > (1u << 20))
    {
        MrcCommandLine::Fail("--writes must be 1..16 and --bytes 1..1048576");
    }

    // 2. The fabric: 2 planes (each host has one NIC port per plane), 4 hosts, 2 hosts
    //    under each T0 switch and 2 T1 switches per plane. Every link runs at 100 Gb/s.
    MrcTopologyConfig shape;
    shape.planes = 2;
    shape.hosts = 4;
    shape.hostsPerT0 = 2;
    shape.t1PerPlane = 2;
    shape.hostDelay = shape.fabricDelay = Time(linkDelay);
    MrcTopologyHelper fabricHelper(shape);
    Ptr<MrcTopology> fabric = fabricHelper.Build(); // also names nodes host0, p0-t1-1, ...

    // 3. One RDMA NIC per host, with one port on each plane.
    MrcRdmaHelper rdma;
    MrcMultipathHelper::InstallNics(rdma, fabric);

    // 4. Connect an MRC requester on host 0 to a responder on host 3. The helper gives
    //    each side one entropy value (EV) per path of every plane (SRv6 paths taken from
    //    the topology), and registers a memory region at host 3 large enough for all.
    const uint64_t regionBytes = uint64_t(writes + 1) * bytes;
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection qp = mrc.Connect(fabric, 0, 3, regionBytes, MrcEvProfile::SRV6);
    qp.requester->SetCompletionCallback(MakeCallback(&OnCompletion));
    qp.responder->SetReceiveCallback(MakeCallback(&OnReceive));

    // 5. Post the work requests. A work request names the remote address and key of the
    //    region; each Write goes to its own slice. They are posted 2 us apart.
    for (uint32_t i = 0; i <= writes; ++i)
    {
        MrcWorkRequest wr;
        wr.id = i + 1;
        wr.remoteAddress = qp.region->GetBase() + uint64_t(i) * bytes;
        wr.rkey = qp.region->GetRkey();
        wr.length = bytes;
        if (i == writes) // the last one carries 32 bits of immediate data
        {
            wr.opcode = MrcWrOpcode::WRITE_WITH_IMM;
            wr.immediate = 42;
        }
        Ptr<MrcQueuePair> requester = qp.requester;
        Simulator::Schedule(MicroSeconds(2 * i), [requester, wr]() {
            NS_ABORT_MSG_UNLESS(requester->PostSend(wr), "PostSend refused");
        });
    }

    // 6. Run until no event is left, then read the counters.
    Simulator::Run();
    const MrcQpCounters& sent = qp.requester->GetCounters();
    std::cout << "delivered: " << qp.region->GetBytesPlaced() << " of " << regionBytes
              << " bytes, exactly once: "
              << (qp.region->IsExactlyOnce(qp.region->GetBase(), regionBytes) ? "yes" : "no")
              << "\n";
    std::cout << "data packets sent: " << sent.dataPacketsSent
              << ", retransmitted: " << sent.retransmittedPackets << "\n";
    Simulator::Destroy();
    return 0;
}
