/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// The TypeId and the attributes, in groups.

#include "mrc-multipath-queue-pair.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/mrc-nscc.h"
#include "ns3/uinteger.h"

namespace ns3
{

TypeId
MrcMultipathQueuePair::GetTypeId()
{
    static const TypeId tid = MakeTypeId();
    return tid;
}

TypeId
MrcMultipathQueuePair::MakeTypeId()
{
    MrcSprayedAttributeDefaults d;
    d.reorderPsns = 3;
    d.reorderPsnsHelp = "Loss inference: a PSN is lost once this many later PSNs are SACKed "
                        "(MrcSackScoreboard count rule; with LossRule Path counted within the "
                        "path). Default 3 (protocol reference sec. 9). 0 leaves loss to NACKs, "
                        "probes and timeouts.";
    d.reorderTimeHelp = "Reorder window of the time rule. LossRule Time: 0 (default) = "
                        "BaseRtt (our choice), and with both 0 the Count rule is used. "
                        "LossRule Plane or Path: 0 (default) = no time rule unless "
                        "ReorderTimeRtts > 0 (our choice: the guard must exceed the queueing "
                        "skew between planes; protocol reference sec. 9 suggests RTT + about "
                        "1 BDP, see ReorderTimeRtts).";
    d.ackName = "SACK";
    TypeId tid = TypeId("ns3::MrcMultipathQueuePair")
                     .SetParent<MrcSprayedQueuePair>()
                     .SetGroupName("Mrc")
                     .AddConstructor<MrcMultipathQueuePair>();
    tid = AddCommonAttributes(tid,
                              4096,
                              MrcNscc::GetTypeId(),
                              TypeId(),
                              "4096 B, the default path MTU of the OCP MRC benchmark "
                              "(examples/benchmark/README.md).");
    tid = AddSprayedAttributes(tid, d);
    tid = AddWindowAttributes(tid);
    tid = AddRecoveryAttributes(tid);
    tid = AddLossRuleAttributes(tid);
    tid = AddPortStatusAttributes(tid);
    return AddPathAttributes(tid);
}

TypeId
MrcMultipathQueuePair::AddWindowAttributes(TypeId tid)
{
    // Windows, Write-with-Immediate limits, Transport ACKs, timestamps and the EV split
    return tid
        .AddAttribute("Timestamps",
                      "Add a TSETH (128 ns ticks) to every data packet and take RTT "
                      "samples from the timestamp the SACK reflects. Default false (our "
                      "choice; the sender's send-time record gives the same sample).",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_timestamps),
                      MakeBooleanChecker())
        .AddAttribute("Mpr",
                      "This QP's receive window in units of 128 PSNs, advertised in every "
                      "SACK (SETH mpr); also the peer window assumed before the first "
                      "SACK and the sender scoreboard's capacity. Default 8 (1024 PSNs, "
                      "the OCP API example; protocol reference sec. 9).",
                      UintegerValue(8),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_mpr),
                      MakeUintegerChecker<uint8_t>(1, 255))
        .AddAttribute("PeerMpr",
                      "The peer's receive window (units of 128 PSNs) assumed at RTS "
                      "before its first SACK (OCP RTS attribute mpr). 0 = use Mpr "
                      "(default; the behaviour before the lifecycle existed).",
                      UintegerValue(0),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_cfgPeerMpr),
                      MakeUintegerChecker<uint8_t>())
        .AddAttribute("DynamicMpr",
                      "Take the peer's window from the mpr field of every SACK (OCP RTR "
                      "dynamic MPR). false keeps the RTS value. Default true.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_dynamicMpr),
                      MakeBooleanChecker())
        .AddAttribute("MaxWimmDest",
                      "Write-with-Immediate messages this QP accepts outstanding as a "
                      "responder (OCP RTR attribute max_wimm_dest): the last packet of "
                      "one whose RQMSN is MaxWimmDest or more ahead of the last one "
                      "reported is refused with NACK UNEXP_EVENT (an error; MRC has no "
                      "RNR). 0 = no limit (default).",
                      UintegerValue(0),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_maxWimmDest),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("MaxWimm",
                      "Most Write-with-Immediate requests outstanding (started, not "
                      "acknowledged); a new one waits. 0 = no limit. Default 64 (not "
                      "published; our choice).",
                      UintegerValue(64),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_maxWimm),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("TransportAckMessages",
                      "Responder: send a Transport ACK (opcode 0xD1, AETH: ACK syndrome "
                      "with the no-credit code 0x1f, MSN = messages completed so far, "
                      "mod 2^24) once this many messages have completed in MSN order, or "
                      "sooner when no later message is in progress. 0 = no Transport "
                      "ACKs. Default 1 (our choice: one per message; the spec's trigger "
                      "and coalescing are not published).",
                      UintegerValue(1),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_tackMessages),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("CompleteOnTransportAck",
                      "Requester: a Write completes only when all its PSNs are SACKed "
                      "and a Transport ACK covers its MSN. false (default, our choice) "
                      "completes it on SACK coverage alone and only counts Transport "
                      "ACKs; true needs a peer with TransportAckMessages > 0.",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_completeOnTack),
                      MakeBooleanChecker())
        .AddAttribute("AlwaysSkipCeRun",
                      "Responder: a SACK carries m = ALWAYS_SKIP when this many packets "
                      "in a row on its EV arrived CE (our rule; the spec leaves it to the "
                      "implementation). 0 disables ALWAYS_SKIP. Default 8.",
                      UintegerValue(8),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_alwaysSkipCeRun),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute(
            "AlwaysSkipRule",
            "Responder: when a CE run of AlwaysSkipCeRun becomes m = ALWAYS_SKIP (the "
            "spec leaves the rule to the implementation; mrc-protocol.md sec. 9). CeRun: "
            "always. Relative (default, our choice): not while the EV's plane is marked as "
            "a whole and another plane of the QP is not: the QP's moving share of CE "
            "arrivals on the EV's plane (gain 1/16 per arrival) is at least "
            "AlwaysSkipPlaneMarked and some other plane that had arrivals since the run "
            "began is below it; the SACK then carries SKIP_ONCE. A plane short of capacity "
            "marks every path through it, and the sender replaces a retired EV from the "
            "same plane, so retiring would only shrink the plane. With one plane, or every "
            "plane marked, the rule cannot tell a bad path from a bottleneck and answers "
            "as CeRun.",
#if MRC_NS3_VERSION_MINOR >= 41
            EnumValue<AlwaysSkipRule>(ALWAYS_SKIP_RELATIVE),
            MakeEnumAccessor<AlwaysSkipRule>(&MrcMultipathQueuePair::m_alwaysSkipRule),
#else
            EnumValue(ALWAYS_SKIP_RELATIVE),
            MakeEnumAccessor(&MrcMultipathQueuePair::m_alwaysSkipRule),
#endif
            MakeEnumChecker(ALWAYS_SKIP_CE_RUN, "CeRun", ALWAYS_SKIP_RELATIVE, "Relative"))
        .AddAttribute("AlwaysSkipPlaneMarked",
                      "AlwaysSkipRule Relative: the share of a plane's arrivals that are CE "
                      "at or above which the plane counts as marked. Default 0.5 (our "
                      "choice: most of the plane's packets marked).",
                      DoubleValue(0.5),
                      MakeDoubleAccessor(&MrcMultipathQueuePair::m_planeMarkedShare),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("EvSrcPortHigh",
                      "EV split: false (default, protocol reference Q2) puts EV[15:0] in "
                      "the UDP source port and EV[31:16] in the flow label; true the "
                      "other way round (MRC-Client).",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_srcPortHigh),
                      MakeBooleanChecker());
}

TypeId
MrcMultipathQueuePair::AddRecoveryAttributes(TypeId tid)
{
    // the retransmission timeout and the tail probe
    return tid
        .AddAttribute("TimeoutExponent",
                      "Per-packet timeout 1.024 us x 2^TimeoutExponent (OCP mrc.h, at "
                      "most 24). Default 8 = 262.144 us (OCP examples/mrc_qp.md).",
                      UintegerValue(8),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_timeoutExp),
                      MakeUintegerChecker<uint32_t>(0, 24))
        .AddAttribute("LinearCount",
                      "Timeouts retried at the fixed interval before backing off (OCP "
                      "linear_cnt, at most 7). Default 7 (OCP examples/mrc_qp.md).",
                      UintegerValue(7),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_linearCount),
                      MakeUintegerChecker<uint32_t>(0, 7))
        .AddAttribute("ExpCount",
                      "Timeouts retried with doubling interval after the linear ones "
                      "(OCP exp_cnt; 25 = forever). Default 7 (our choice: the OCP "
                      "example's 25 never gives up).",
                      UintegerValue(7),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_expCount),
                      MakeUintegerChecker<uint32_t>(0, 25))
        .AddAttribute("RetxRttSamples",
                      "Take an RTT sample from the SACK of a PSN retransmitted once when "
                      "the sample is at least BaseRtt (UEC NSCC counts such an ACK valid "
                      "when it echoes Retx; SETH has no Retx echo, so the sample's size "
                      "stands in for it). Without it, while only retransmissions are "
                      "acknowledged NSCC gets no sample and cannot grow the window. "
                      "Default true (our choice).",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_retxRttSamples),
                      MakeBooleanChecker())
        .AddAttribute("TimeoutLosesPath",
                      "A per-packet timeout presumes the path (EVs sharing an SRv6 "
                      "carrier) of the timed-out PSN dead and declares lost every PSN "
                      "still in flight on it, not only the timed-out one. Default true "
                      "(our choice: otherwise, with cwnd cut below the bytes stranded on "
                      "a dead path, nothing new is sent, no SACK can infer the loss and "
                      "each stranded PSN waits for its own backed-off timeout).",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_timeoutLosesPath),
                      MakeBooleanChecker())
        .AddAttribute("TailProbeDelay",
                      "Send a reliability probe when data is outstanding, nothing can be "
                      "sent and no SACK came for this long. 0 = 2 x BaseRtt (UEC htsim "
                      "uses base RTT + target delay); 0 with BaseRtt 0 disables probes.",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&MrcMultipathQueuePair::m_tailProbeDelay),
                      MakeTimeChecker());
}

TypeId
MrcMultipathQueuePair::AddLossRuleAttributes(TypeId tid)
{
    // the rules that infer loss from SACKs
    return tid
        .AddAttribute(
            "LossRule",
            "Which rule infers loss from SACK holes. Count (protocol reference "
            "sec. 9 and Q4): a PSN is lost once ReorderPsns later PSNs are SACKed, plus "
            "SLEEK when SleekRecovery; it reads the reordering between paths as loss. "
            "Path (default, our choice): a PSN is lost once ReorderPsns later PSNs sent on the "
            "same "
            "path (EVs sharing an SRv6 carrier; an EV without one is its own path) are "
            "SACKed, since one path delivers in order, or once PlaneReorderPsns later "
            "PSNs of its plane or GlobalReorderPsns later PSNs of any plane are SACKed "
            "(the backstops for a dead path or plane, on which nothing is SACKed), plus "
            "the time rule when ReorderTime > 0; no SLEEK. Time (RACK style): a PSN in "
            "flight is lost once a PSN sent more than ReorderTime after it is SACKed. "
            "Plane: the count rule counting only later PSNs sent on the same plane, plus "
            "the time rule when ReorderTime > 0.",
#if MRC_NS3_VERSION_MINOR >= 41
            EnumValue<LossRule>(LOSS_PATH),
            MakeEnumAccessor<LossRule>(&MrcMultipathQueuePair::m_lossRule),
#else
            EnumValue(LOSS_PATH),
            MakeEnumAccessor(&MrcMultipathQueuePair::m_lossRule),
#endif
            MakeEnumChecker(LOSS_COUNT,
                            "Count",
                            LOSS_TIME,
                            "Time",
                            LOSS_PLANE,
                            "Plane",
                            LOSS_PATH,
                            "Path"))
        .AddAttribute("PlaneReorderPsns",
                      "LossRule Path: a PSN is also lost once this many later PSNs of "
                      "its plane are SACKed (the dead-path backstop; 0 = off). Default "
                      "16 (our choice: above most of the reordering between the paths of "
                      "a plane measured in loss-free sprayed runs, small enough to retire "
                      "a dead path within about one round trip).",
                      UintegerValue(16),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_planeReorderPsns),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("GlobalReorderPsns",
                      "LossRule Path: a PSN is also lost once this many later PSNs of any "
                      "plane are SACKed (the backstop for a plane that died as a whole, "
                      "where no PSN of the plane is SACKed; 0 = off). Default 96 (our "
                      "choice: 48 misread the reordering between planes in loss-free "
                      "sprayed runs 5 times as often).",
                      UintegerValue(96),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_globalReorderPsns),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("BackstopGuard",
                      "LossRule Path: the PlaneReorderPsns and GlobalReorderPsns backstops "
                      "declare a first transmission lost only once it has been out at "
                      "least as long as every PSN SACKed lately (the largest send-to-SACK "
                      "delay of a first transmission over the last two windows of 8 guards) "
                      "plus BackstopGuardMargin: a path slowed by a queue and a dead path "
                      "look the same to a PSN count, only time tells them apart. Without it, "
                      "at 800 Gb/s per QP the 96 PSNs of GlobalReorderPsns pass in 4 us, "
                      "less than one switch queue at the trim threshold, and queueing "
                      "alone retires healthy EVs (validation case 16b). A PSN held back is "
                      "re-checked at its guard's expiry (send time + guard; one timer per "
                      "QP, after RACK's reorder timer), not only at the next SACK. Default "
                      "true since 2026-12-03 (session 18: with ReversePath Probed the quick "
                      "set passes at seeds 1-3; before, 12a failed at seed 1), see "
                      "doc/mrc.rst. The ReorderPsns path rule is exact (one path delivers "
                      "in order) and never guarded.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_backstopGuard),
                      MakeBooleanChecker())
        .AddAttribute("BackstopGuardMargin",
                      "Added to the largest recent send-to-SACK delay by BackstopGuard. 0 "
                      "(default) = BaseRtt (our choice: a PSN delayed a little more than "
                      "the slowest one seen so far is still not taken for lost).",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcMultipathQueuePair::m_backstopGuardMargin),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("RetxPathRule",
                      "LossRule Path: a retransmission still in flight is lost once "
                      "ReorderPsns PSNs sent after it on the same path are acknowledged "
                      "(the path rule in send order; the path rule by PSN position and the "
                      "backstops cover first transmissions only). Without it a lost "
                      "retransmission is found by a tail probe, once the PSN window has "
                      "closed behind it, or by the timeout (validation case 12a, seeds 15 "
                      "and 18: retransmissions on promoted replicas of the gray path, lost "
                      "and found 150-233 us later by tail probes). Default false.",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_retxPathRule),
                      MakeBooleanChecker())
        .AddAttribute("RetxBackstop",
                      "LossRule Path: the plane and global counts in send order for "
                      "retransmissions: a retransmission still in flight is lost once "
                      "PlaneReorderPsns PSNs sent after it on its plane, or "
                      "GlobalReorderPsns on any plane, are acknowledged, with the "
                      "BackstopGuard's wait when that is on. It finds a retransmission "
                      "sent on a dead path that was not yet retired, where RetxPathRule "
                      "never fires (nothing on that path is acknowledged). Without it "
                      "such a loss waits for a tail probe, once the PSN window (Mpr) has "
                      "closed behind it, or for the timeout (validation case 03i: every "
                      "flow stalled 36-39 us once or twice). Our choice; no source "
                      "publishes MRC's loss inference. Default true since session 19 "
                      "(doc/mrc.rst, \"Retransmission backstops\").",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_retxBackstop),
                      MakeBooleanChecker())
        .AddAttribute("ReorderTimeRtts",
                      "LossRule Path or Plane with ReorderTime 0: the time rule's reorder "
                      "window in units of BaseRtt, so it follows the fabric. A PSN is then "
                      "lost once a PSN sent ReorderTimeRtts x BaseRtt after it is SACKed, "
                      "i.e. once it is older than that later PSN's round trip (at least "
                      "BaseRtt) plus the window: 1 gives the protocol reference's model "
                      "default (sec. 9: age > RTT + a reorder guard of about 1 BDP, and "
                      "1 BDP at line rate lasts BaseRtt). Default 0 = no time rule (our "
                      "choice, measured reason in doc/mrc.rst, \"SACK and NACK "
                      "processing\"). A ReorderTime > 0 takes precedence.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&MrcMultipathQueuePair::m_reorderTimeRtts),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("SleekRecovery",
                      "UEC SLEEK loss recovery on the SACK's ooo_count (protocol reference "
                      "Q4 model default): enter recovery when ooo_count >= max(min("
                      "LossOooCwndFactor x cwnd, maxwnd), LossOooMinPkts x Mtu) / Mtu and "
                      "declare lost every PSN in flight from una up to cwnd / Mtu, once "
                      "per episode. Runs besides the ReorderPsns count rule.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_sleek),
                      MakeBooleanChecker())
        .AddAttribute("LossOooCwndFactor",
                      "SLEEK threshold factor on cwnd. Default 1.5 (UEC htsim, Q4).",
                      DoubleValue(1.5),
                      MakeDoubleAccessor(&MrcMultipathQueuePair::m_lossOooCwndFactor),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("LossOooMinPkts",
                      "SLEEK threshold floor in packets. Default 5 (UEC htsim, Q4).",
                      UintegerValue(5),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_lossOooMinPkts),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("InferredLossMarksEvBad",
                      "An inferred (untrimmed) loss marks the EV that carried the packet "
                      "ASSUMED_BAD (protocol reference Q4 default).",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_lossMarksBad),
                      MakeBooleanChecker())
        .AddAttribute("TimeoutMarksEvBad",
                      "A PSN found lost by the retransmission timeout marks the EV that "
                      "carried it ASSUMED_BAD ([P1] section 2.1: a timed-out packet's "
                      "EV leaves the active set). Default true; false is an ablation "
                      "that, with InferredLossMarksEvBad=false and "
                      "MrcEvTable::CarrierLossEvs=0, keeps every EV active whatever is "
                      "lost on it.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_timeoutMarksBad),
                      MakeBooleanChecker());
}

TypeId
MrcMultipathQueuePair::AddPortStatusAttributes(TypeId tid)
{
    // Port Status Updates
    return tid
        .AddAttribute("PortStatusUpdates",
                      "When a local port goes down or up, send the peer QP a Port Status "
                      "Update (ERTH, opcode 0xD8) with the reachable-port mask, on a "
                      "working port; the peer takes the planes whose bit is clear out of "
                      "use (protocol reference Q3). Default true.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcMultipathQueuePair::m_portStatusUpdates),
                      MakeBooleanChecker())
        .AddAttribute("PortRemapDelay",
                      "Time from a local port's link change (as the device detects it) "
                      "to remapping the EVs of its plane and sending the Port Status "
                      "Update; until then the QP keeps using the port. Default 0 "
                      "(protocol reference Q3 model default); about 1-3 s reproduces "
                      "CX8's \"few seconds\" [P1 sec. 3].",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcMultipathQueuePair::m_portRemapDelay),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("PortStatusTimeout",
                      "A Port Status Update the peer has not answered (Endpoint Response, "
                      "opcode 0xD9, same request id) within this time is sent again. "
                      "Default 2 ms (the OCP API's endpoint-operation example; protocol "
                      "reference Q3). 0 = never resend.",
                      TimeValue(MilliSeconds(2)),
                      MakeTimeAccessor(&MrcMultipathQueuePair::m_portStatusTimeout),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("PortStatusAttempts",
                      "Transmissions of one Port Status Update at most (the first one "
                      "included). Default 3 (protocol reference Q3, model default).",
                      UintegerValue(3),
                      MakeUintegerAccessor(&MrcMultipathQueuePair::m_portStatusTries),
                      MakeUintegerChecker<uint32_t>(1));
}

TypeId
MrcMultipathQueuePair::AddPathAttributes(TypeId tid)
{
    return tid
        .AddAttribute("EntropySelector",
                      "TypeId of the per-packet EV strategy (a subclass of "
                      "ns3::MrcPathSelector). Default ns3::MrcEvTable, MRC's EV table "
                      "(profiles, EV health states, probes), which generates its EVs from the "
                      "QP's EV profile and candidates (SetEvProfile, SetEvCandidates).",
                      TypeIdValue(MrcEvTable::GetTypeId()),
                      MakeTypeIdAccessor(&MrcMultipathQueuePair::m_pathsTypeId),
                      MakeTypeIdChecker())
        .AddAttribute(
            "ReversePath",
            "The EV of the control packets (SACKs, NACKs, Transport ACKs, probe answers) "
            "the QP sends back. Rotate: the path selector's reverse path, the "
            "next GOOD active EV of the plane for every packet (the EV table learns which "
            "EVs lose packets only from the SACKs of the QP's own data; not published). "
            "Probed (default since session 17): P1 sec. 2.4's reverse EVs: while the QP only "
            "receives (nothing of its own outstanding or queued) and is active inbound "
            "(data arrived in the last interval, or an inbound message is not complete), once per "
            "ReverseProbeInterval it sends a reliability probe on a "
            "random GOOD EV of the next plane in turn; the EV whose probe is answered "
            "becomes that plane's reverse EV (also when the answer reports CE: P1 says "
            "'if answered'), and the QP's control packets on that plane use it; an answer "
            "to any of its last 16 probes counts, also one that comes after later probes "
            "(our choices: no answer leaves the reverse EV as it was; before the first "
            "answer, and whenever the QP has data of its own outstanding, it rotates as "
            "Rotate does).",
#if MRC_NS3_VERSION_MINOR >= 41
            EnumValue<ReversePath>(REVERSE_PROBED),
            MakeEnumAccessor<ReversePath>(&MrcMultipathQueuePair::m_reversePath),
#else
            EnumValue(REVERSE_PROBED),
            MakeEnumAccessor(&MrcMultipathQueuePair::m_reversePath),
#endif
            MakeEnumChecker(REVERSE_ROTATE, "Rotate", REVERSE_PROBED, "Probed"))
        .AddAttribute("ReverseProbeInterval",
                      "ReversePath Probed: time between reverse-EV probes while the QP is "
                      "active inbound. 0 (default) = BaseRtt (P1 sec. 2.4: one probe per RTT); 0 "
                      "with BaseRtt 0 sends none.",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&MrcMultipathQueuePair::m_revProbeInterval),
                      MakeTimeChecker());
}

} // namespace ns3
