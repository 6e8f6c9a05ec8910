/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-multipath-queue-pair.h"

#include "mrc-port-status-agent.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/buffer.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMultipathQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcMultipathQueuePair);

namespace
{

using MrcByteIo::ReadU16;

/// Deserialize a header from raw bytes (control packets only).
template <typename H>
void
ReadHeader(H& h, const uint8_t* bytes, uint32_t n)
{
    Buffer b;
    b.AddAtStart(n);
    b.Begin().Write(bytes, n);
    h.Deserialize(b.Begin());
}

/// Deserialize consecutive fixed-size headers from raw bytes through one Buffer.
template <typename... H>
void
ReadHeaders(const uint8_t* bytes, H&... h)
{
    const uint32_t n = (H::SIZE + ...);
    Buffer b;
    b.AddAtStart(n);
    b.Begin().Write(bytes, n);
    Buffer::Iterator it = b.Begin();
    (it.Next(h.Deserialize(it)), ...);
}

/// ExpCount at or above this value means "retry forever" (OCP MRC API: 25 = infinite).
constexpr uint32_t EXP_COUNT_INFINITE = 25;

} // namespace

TypeId
MrcMultipathQueuePair::GetTypeId()
{
    MrcSprayedAttributeDefaults d;
    d.reorderPsns = 3;
    d.reorderPsnsHelp = "Loss inference: a PSN is lost once this many later PSNs are SACKed "
                        "(MrcSackScoreboard count rule; with LossRule Path counted within the "
                        "path). Default 3 (protocol reference sec. 9). 0 leaves loss to NACKs, "
                        "probes and timeouts.";
    d.reorderTimeHelp = "Reorder window of the time rule. LossRule Time: 0 (default) = "
                        "BaseRtt (our choice), and with both 0 the Count rule is used. "
                        "LossRule Plane or Path: 0 (default) = no time rule (our choice: the "
                        "guard must exceed the queueing skew between planes; protocol "
                        "reference sec. 9 suggests RTT + about 1 BDP).";
    d.ackName = "SACK";
    static TypeId tid = AddPortStatusAttributes(
        AddLossRuleAttributes(AddRecoveryAttributes(AddWindowAttributes(AddSprayedAttributes(
            AddCommonAttributes(TypeId("ns3::MrcMultipathQueuePair")
                                    .SetParent<MrcSprayedQueuePair>()
                                    .SetGroupName("Mrc")
                                    .AddConstructor<MrcMultipathQueuePair>(),
                                4096,
                                "ns3::MrcNscc",
                                "",
                                "4096 B, the default path MTU of the OCP MRC benchmark "
                                "(examples/benchmark/README.md)."),
            d)))));
    return tid;
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

MrcMultipathQueuePair::MrcMultipathQueuePair()
    : MrcSprayedQueuePair(0),
      m_timestamps(false),
      m_mpr(8),
      m_maxWimm(64),
      m_timeoutExp(8),
      m_linearCount(7),
      m_expCount(7),
      m_planeReorderPsns(16),
      m_globalReorderPsns(96),
      m_timeoutLosesPath(true),
      m_retxRttSamples(true),
      m_lossRule(LOSS_PATH),
      m_sleek(true),
      m_lossOooCwndFactor(1.5),
      m_lossOooMinPkts(5),
      m_lossMarksBad(true),
      m_alwaysSkipCeRun(8),
      m_srcPortHigh(false),
      m_portStatusUpdates(true),
      m_cfgPeerMpr(0),
      m_dynamicMpr(true),
      m_maxWimmDest(0),
      m_tackMessages(1),
      m_completeOnTack(false),
      m_portStatusTimeout(MilliSeconds(2)),
      m_portStatusTries(3),
      m_portRemapDelay(0),
      m_peerMpr(8),
      m_wimmOutstanding(0),
      m_nextMsn(0),
      m_nextRqMsn(0),
      m_retries(0),
      m_nextProbeId(0),
      m_tailProbeId(0),
      m_tailProbeOutstanding(false),
      m_tackedMessages(0),
      m_completedRequests(0),
      m_evTableDisposed(false),
      m_tackOwed(0)
{
    m_reorderPsns = 3;
    m_receiveInRtr = true; // arrivals are processed from RTR on
}

MrcMultipathQueuePair::~MrcMultipathQueuePair() = default;

void
MrcMultipathQueuePair::DoDispose()
{
    Simulator::Remove(m_timer);
    Simulator::Remove(m_tailProbe);
    Simulator::Remove(m_retry);
    if (m_portStatus)
    {
        m_portStatus->StopQp(m_qpn);
        m_portStatus = nullptr;
    }
    if (m_evTable && !m_evTableDisposed)
    {
        m_evTable->SetProbeCallback(Callback<void, uint32_t>());
        m_evTable->Dispose();
    }
    m_evTable = nullptr;
    m_profile = nullptr;
    MrcSprayedQueuePair::DoDispose();
}

Time
MrcMultipathQueuePair::TimeoutFromExponent(uint32_t exponent)
{
    return NanoSeconds(int64_t(1024) << std::min<uint32_t>(exponent, 40));
}

void
MrcMultipathQueuePair::SetEvCandidates(const std::vector<MrcEvCandidate>& candidates)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET && m_state != MrcQpState::INIT,
                    "MrcMultipathQueuePair::SetEvCandidates: QP " << m_qpn
                                                                  << " is already connected");
    m_candidates = candidates;
}

void
MrcMultipathQueuePair::SetEvProfile(Ptr<MrcEvProfile> profile)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET && m_state != MrcQpState::INIT,
                    "MrcMultipathQueuePair::SetEvProfile: QP " << m_qpn << " is already connected");
    m_profile = profile;
}

int64_t
MrcMultipathQueuePair::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_evTable || !m_profile,
                    "MrcMultipathQueuePair::AssignStreams: QP " << m_qpn << " is not connected");
    m_profile->AssignStreams(stream);
    m_evTable->AssignStreams(stream + 1);
    return 2;
}

Ptr<MrcEvTable>
MrcMultipathQueuePair::GetEvTable() const
{
    return m_evTable;
}

const MrcMultipathCounters&
MrcMultipathQueuePair::GetMultipathCounters() const
{
    return m_mpCounters;
}

uint8_t
MrcMultipathQueuePair::GetPeerMpr() const
{
    return m_peerMpr;
}

uint32_t
MrcMultipathQueuePair::GetMaxWimmDest() const
{
    return m_maxWimmDest;
}

uint64_t
MrcMultipathQueuePair::GetTransportAckedMessages() const
{
    return m_tackedMessages;
}

bool
MrcMultipathQueuePair::UsesTimeRule() const
{
    if (m_lossRule == LOSS_PLANE || m_lossRule == LOSS_PATH)
    {
        return m_reorderTime.IsStrictlyPositive();
    }
    return m_lossRule == LOSS_TIME &&
           (m_reorderTime.IsStrictlyPositive() || m_baseRtt.IsStrictlyPositive());
}

void
MrcMultipathQueuePair::ConfigureLossRule(MrcSackScoreboard::Config& cfg) const
{
    cfg.timeoutLosesPath = m_timeoutLosesPath;
    if (m_lossRule == LOSS_PATH)
    {
        cfg.pathCount = m_reorderPsns > 0;
        cfg.pathReorderPsns = std::max<uint32_t>(m_reorderPsns, 1);
        cfg.groupedCount = true;
        cfg.reorderPsns = m_planeReorderPsns;
        cfg.globalReorderPsns = m_globalReorderPsns;
    }
    else if (m_lossRule == LOSS_PLANE)
    {
        cfg.reorderPsns = m_reorderPsns;
        cfg.groupedCount = true;
    }
    if (UsesTimeRule())
    {
        if (m_lossRule == LOSS_TIME)
        {
            cfg.reorderPsns = 0;
        }
        cfg.timeRule = true;
        cfg.reorderTime = m_reorderTime.IsStrictlyPositive() ? m_reorderTime : m_baseRtt;
    }
    else if (m_lossRule == LOSS_COUNT || m_lossRule == LOSS_TIME)
    {
        cfg.reorderPsns = m_reorderPsns;
    }
}

void
MrcMultipathQueuePair::DoModifyToRts()
{
    // RTS attributes: the sender's initial PSN and the peer window it assumes. Nothing
    // has been sent yet, so the scoreboard is simply rebuilt.
    m_peerMpr = m_cfgPeerMpr > 0 ? m_cfgPeerMpr : m_mpr;
    MrcSackScoreboard::Config cfg;
    cfg.capacityPsns = uint32_t(std::max(m_mpr, m_peerMpr)) * MrcReceiveBitmap::MPR_UNIT_PSNS;
    ConfigureLossRule(cfg);
    m_sb = std::make_unique<MrcSackScoreboard>(cfg, m_initialPsn & MrcBthHeader::PSN_MASK);
}

Time
MrcMultipathQueuePair::GetCurrentTimeout() const
{
    const Time base = TimeoutFromExponent(m_timeoutExp);
    if (m_retries < m_linearCount)
    {
        return base;
    }
    const uint32_t shift = std::min<uint32_t>(m_retries - m_linearCount + 1, 24);
    return base * int64_t(1ULL << shift);
}

bool
MrcMultipathQueuePair::UsesPort(uint32_t port) const
{
    return m_nic && port < m_nic->GetNPorts();
}

void
MrcMultipathQueuePair::DoConnect()
{
    const uint32_t nPorts = m_nic->GetNPorts();
    if (!m_profile)
    {
        m_profile = CreateObject<MrcEvProfile>();
        const bool anyCarrier = std::any_of(m_candidates.begin(),
                                            m_candidates.end(),
                                            [](const MrcEvCandidate& c) { return c.hasCarrier; });
        m_profile->SetFormat(anyCarrier ? MrcEvProfile::SRV6 : MrcEvProfile::STRUCTURED);
    }
    m_evTable = CreateObject<MrcEvTable>();
    m_evTable->Init(m_profile, nPorts, m_candidates);
    m_evTable->SetBaseRtt(m_baseRtt);
    m_evTable->SetProbeCallback(MakeCallback(&MrcMultipathQueuePair::SendEvProbe, this));

    MrcSackScoreboard::Config cfg;
    cfg.capacityPsns = uint32_t(m_mpr) * MrcReceiveBitmap::MPR_UNIT_PSNS;
    ConfigureLossRule(cfg);
    m_sb = std::make_unique<MrcSackScoreboard>(cfg, m_initialPsn & MrcBthHeader::PSN_MASK);
    m_peerMpr = m_mpr;
    SetUpResponder(uint32_t(m_mpr) * MrcReceiveBitmap::MPR_UNIT_PSNS);
    m_reverseEv.assign(nPorts, MrcEvTable::NO_EV);
    m_reversePos.assign(nPorts, 0);
    if (m_tailProbeDelay.IsZero())
    {
        m_tailProbeDelay = m_baseRtt * 2;
    }
    for (uint32_t p = 0; p < nPorts; ++p)
    {
        Ptr<MrcNetDevice> dev = m_nic->GetDevice(p);
        dev->AddLinkChangeCallback(
            MakeCallback(&MrcMultipathQueuePair::LocalLinkChanged, this).Bind(p));
        if (!dev->IsLinkUp())
        {
            m_evTable->SetLocalPortUp(p, false);
        }
    }
    // The NIC's Port Status agent sends and applies this QP's Port Status Updates. (A
    // controller learns of this QP through the NIC's QueuePairConnected trace.)
    m_portStatus = MrcPortStatusAgent::Install(m_nic);
}

void
MrcMultipathQueuePair::DoPostSend(MrcSendWqe& wqe)
{
    if (wqe.wr.opcode != MrcWrOpcode::WRITE && wqe.wr.opcode != MrcWrOpcode::WRITE_WITH_IMM)
    {
        std::ostringstream why;
        why << "MRC supports only RDMA Write and Write-with-Immediate; work request " << wqe.wr.id
            << " has operation " << unsigned(wqe.wr.opcode);
        EnterError(MrcQpError::UNSUPPORTED_OPERATION, why.str(), MrcWcStatus::LOCAL_OP_ERROR);
        return;
    }
    const bool imm = wqe.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM;
    m_wqeMsn.emplace_back(m_nextMsn, m_nextRqMsn);
    ++m_nextMsn;
    if (imm)
    {
        ++m_nextRqMsn;
    }
    NotifyReady();
}

void
MrcMultipathQueuePair::DoEnterError()
{
    Simulator::Remove(m_timer);
    Simulator::Remove(m_tailProbe);
    Simulator::Remove(m_retry);
    if (m_portStatus)
    {
        m_portStatus->StopQp(m_qpn);
    }
    m_wqeMsn.clear();
    if (m_evTable)
    {
        // stop probing: the EV states stay readable, no event keeps the simulation alive
        m_evTable->SetProbeCallback(Callback<void, uint32_t>());
        m_evTable->Dispose();
        m_evTableDisposed = true;
    }
}

// ---------------------------------------------------------------------------
// Requester: sending
// ---------------------------------------------------------------------------

uint64_t
MrcMultipathQueuePair::GetSendWindow() const
{
    return std::min<uint64_t>(uint64_t(m_peerMpr) * MrcSethHeader::MPR_UNIT_PSNS,
                              m_sb->GetCapacity());
}

bool
MrcMultipathQueuePair::CanRetransmit() const
{
    const uint64_t inflight = m_cc.inflight > 0 ? static_cast<uint64_t>(m_cc.inflight) : 0;
    if (m_sb->GetRetransmitQueueSize() == 0 || inflight >= m_cc.cwnd)
    {
        return false;
    }
    // a retransmission obeys the peer's window too (else it is NACKed out of window again)
    uint32_t psn;
    m_sb->NextRetransmit(psn);
    return SeqOf(psn) < m_una + GetSendWindow();
}

bool
MrcMultipathQueuePair::CanSendNew() const
{
    if (m_sndNxt >= m_nextWqeSeq || m_sendQueue.empty())
    {
        return false;
    }
    if (m_sndNxt >= m_una + GetSendWindow() || !m_sb->HasRoom())
    {
        return false;
    }
    const MrcSendWqe& w = m_sendQueue[FindWqe(m_sndNxt)];
    if (w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM && m_sndNxt == w.firstSeq && m_maxWimm > 0 &&
        m_wimmOutstanding >= m_maxWimm)
    {
        return false;
    }
    const uint32_t len = PayloadOf(w, m_sndNxt - w.firstSeq);
    const uint64_t inflight = m_cc.inflight > 0 ? static_cast<uint64_t>(m_cc.inflight) : 0;
    return inflight + len <= m_cc.cwnd; // unsigned: an unlimited window is UINT64_MAX
}

Time
MrcMultipathQueuePair::GetNextSendTime(uint32_t port) const
{
    if (m_state != MrcQpState::RTS || !m_evTable)
    {
        return Time::Max();
    }
    if (!m_evTable->IsPlaneUp(port) || m_evTable->GetActiveCount(port) == 0)
    {
        return Time::Max();
    }
    if (CanRetransmit() || CanSendNew())
    {
        return Simulator::Now();
    }
    return Time::Max();
}

bool
MrcMultipathQueuePair::ChooseNext(uint32_t port, Time now, TxChoice& c)
{
    const uint32_t planeBit = 1u << port;
    if (CanRetransmit() && m_sb->NextRetransmit(c.psn))
    {
        const uint32_t lostEv = m_sb->GetRecord(c.psn)->ev;
        c.ev = m_evTable->Select(planeBit, lostEv);
        if (c.ev == MrcEvTable::NO_EV && !OtherPlaneUsable(port))
        {
            // only fall back to the failed EV when no other plane could carry it
            c.ev = m_evTable->Select(planeBit);
        }
        if (c.ev == MrcEvTable::NO_EV)
        {
            ++m_mpCounters.noEvStalls;
            ScheduleRetry();
            return false;
        }
        c.seq = SeqOf(c.psn);
        c.retx = true;
        if (m_sb->GetRecord(c.psn)->state == MrcPsnState::RETX_PENDING)
        {
            ++m_mpCounters.nackRetransmits;
        }
        m_sb->OnRetransmit(c.psn, c.ev, now, static_cast<uint8_t>(port), m_evTable->GetPath(c.ev));
        return true;
    }
    if (!CanSendNew())
    {
        return false;
    }
    c.ev = m_evTable->Select(planeBit);
    if (c.ev == MrcEvTable::NO_EV)
    {
        ++m_mpCounters.noEvStalls;
        ScheduleRetry();
        return false;
    }
    c.seq = m_sndNxt;
    c.group = static_cast<uint8_t>(port);
    c.path = m_evTable->GetPath(c.ev);
    return true;
}

bool
MrcMultipathQueuePair::OtherPlaneUsable(uint32_t port) const
{
    for (uint32_t p = 0; p < m_nic->GetNPorts(); ++p)
    {
        if (p != port && m_evTable->IsPlaneUp(p) && m_evTable->GetActiveCount(p) > 0 &&
            m_nic->GetDevice(p)->IsLinkUp())
        {
            return true;
        }
    }
    return false;
}

void
MrcMultipathQueuePair::OnNewDataSent(const MrcSendWqe& w, uint64_t pktIdx)
{
    if (pktIdx == 0 && w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM)
    {
        ++m_wimmOutstanding;
    }
}

Ptr<Packet>
MrcMultipathQueuePair::BuildDataPacket(uint32_t port,
                                       std::size_t idx,
                                       uint64_t pktIdx,
                                       uint32_t len,
                                       const TxChoice& c,
                                       bool ar,
                                       uint8_t dscp)
{
    // headers, innermost first
    DataParts d = MakeDataParts(idx, pktIdx, len, c, ar);
    Ptr<Packet> p = d.packet;
    MrcTsethHeader ts;
    ts.SetTxTimestamp(MrcTsethHeader::TimeToTicks(Simulator::Now()));
    MrcMethHeader meth;
    meth.SetMsn(m_wqeMsn[idx].first);
    meth.SetRqMsn(m_wqeMsn[idx].second);
    d.bth.SetTimestampPresent(m_timestamps);
    MrcAddHeaders(p, {&d.bth, &meth, m_timestamps ? &ts : nullptr, &d.reth});
    const MrcEvEntry& e = m_evTable->GetEntry(c.ev);
    Encapsulate(p,
                port,
                e.ev.value,
                e.ev.hasCarrier ? &e.ev.carrier : nullptr,
                dscp,
                m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT);
    return p;
}

void
MrcMultipathQueuePair::AfterDataSent(Ptr<const Packet> /* p */, Time /* now */)
{
    ArmTimer();
    ArmTailProbe();
}

void
MrcMultipathQueuePair::Encapsulate(Ptr<Packet> p,
                                   uint32_t port,
                                   uint32_t evValue,
                                   const MrcUsidCarrier* carrier,
                                   uint8_t dscp,
                                   MrcEcn ecn) const
{
    const MrcEvWire wire =
        MrcEvEncode(evValue, m_srcPortHigh ? MrcEvSplit::SRC_PORT_HIGH : MrcEvSplit::SRC_PORT_LOW);
    const Ipv6Address src = m_nic->GetAddress(port);
    AddIpUdpIcrc(p, src, GetRemoteAddress(port), dscp, ecn, wire.flowLabel, wire.udpSrcPort);
    if (carrier)
    {
        MrcSrv6Encapsulate(p, MrcMakeTrafficClass(dscp, ecn), wire.flowLabel, src, *carrier);
    }
}

void
MrcMultipathQueuePair::ScheduleRetry()
{
    if (m_retry.IsExpired())
    {
        m_retry = Simulator::Schedule(MicroSeconds(1), &MrcMultipathQueuePair::NotifyReady, this);
    }
}

void
MrcMultipathQueuePair::LocalLinkChanged(uint32_t port)
{
    if (!m_evTable || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return;
    }
    if (m_portRemapDelay.IsStrictlyPositive())
    {
        // the NIC notices late (CX8: seconds); the state is read again when the delay ends
        Ptr<MrcMultipathQueuePair> self(this);
        Simulator::Schedule(m_portRemapDelay, [self, port]() { self->ApplyLocalPortState(port); });
        return;
    }
    ApplyLocalPortState(port);
}

void
MrcMultipathQueuePair::ApplyLocalPortState(uint32_t port)
{
    if (!m_evTable || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return;
    }
    const bool up = m_nic->GetDevice(port)->IsLinkUp();
    NS_LOG_LOGIC("QP " << m_qpn << ": local port " << port << (up ? " up" : " down"));
    m_evTable->SetLocalPortUp(port, up);
    if (m_portStatusUpdates)
    {
        SendPortStatus();
    }
    NotifyReady();
}

bool
MrcMultipathQueuePair::GetPortStatusUpdates() const
{
    return m_portStatusUpdates;
}

Time
MrcMultipathQueuePair::GetPortStatusTimeout() const
{
    return m_portStatusTimeout;
}

uint32_t
MrcMultipathQueuePair::GetPortStatusAttempts() const
{
    return m_portStatusTries;
}

bool
MrcMultipathQueuePair::ApplyPeerPortMask(uint32_t mask)
{
    if (!m_evTable || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return false;
    }
    ++m_mpCounters.portStatusReceived;
    for (uint32_t p = 0; p < m_evTable->GetPlaneCount() && p < MrcErthHeader::MAX_PORT; ++p)
    {
        m_evTable->SetRemotePortUp(p, (mask & MrcErthHeader::PortBit(p + 1)) != 0);
    }
    return true;
}

void
MrcMultipathQueuePair::ApplyPeerPortStatus(uint32_t mask)
{
    if (ApplyPeerPortMask(mask))
    {
        NotifyReady();
    }
}

bool
MrcMultipathQueuePair::SendEndpointPacket(uint32_t port, Ptr<Packet> p)
{
    if (!m_evTable || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return false;
    }
    SendReverse(port, p, 0);
    return true;
}

void
MrcMultipathQueuePair::SendPortStatus()
{
    // scope Nic: one update per peer NIC at the end of this instant; Qp: this QP's own now
    m_portStatus->LocalPortsChanged(this, &m_mpCounters);
}

void
MrcMultipathQueuePair::ReceivePortStatusResponse(const MrcRxPacket& rx)
{
    m_portStatus->ReceiveResponseAtQp(this, rx);
}

void
MrcMultipathQueuePair::ReceivePortStatus(const MrcRxPacket& rx)
{
    if (m_portStatus->ReceiveRequestAtQp(this, rx))
    {
        NotifyReady();
    }
}

void
MrcMultipathQueuePair::SetRemotePortUp(uint32_t plane, bool up)
{
    if (m_evTable)
    {
        m_evTable->SetRemotePortUp(plane, up);
        NotifyReady();
    }
}

// ---------------------------------------------------------------------------
// Requester: timers and probes
// ---------------------------------------------------------------------------

void
MrcMultipathQueuePair::ArmTimer()
{
    Time deadline;
    uint32_t psn;
    if (!m_sb->GetOldestDeadline(GetCurrentTimeout(), deadline, psn))
    {
        Simulator::Remove(m_timer);
        return;
    }
    if (!m_timer.IsExpired() && m_timerAt <= deadline)
    {
        return; // fires early and re-arms itself
    }
    Simulator::Remove(m_timer);
    const Time now = Simulator::Now();
    m_timerAt = std::max(deadline, now);
    m_timer = Simulator::Schedule(m_timerAt - now, &MrcMultipathQueuePair::OnTimer, this);
}

void
MrcMultipathQueuePair::OnTimer()
{
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    const Time now = Simulator::Now();
    const Time rto = GetCurrentTimeout();
    Time deadline;
    uint32_t psn;
    if (!m_sb->GetOldestDeadline(rto, deadline, psn))
    {
        return;
    }
    if (deadline > now)
    {
        m_timerAt = deadline;
        m_timer = Simulator::Schedule(deadline - now, &MrcMultipathQueuePair::OnTimer, this);
        return;
    }
    ++m_counters.timeouts;
    ++m_retries;
    NS_LOG_LOGIC("QP " << m_qpn << " timeout " << m_retries << " at PSN " << psn << " (rto "
                       << rto.As(Time::US) << ")");
    if (m_expCount < EXP_COUNT_INFINITE && m_retries > m_linearCount + m_expCount)
    {
        std::ostringstream why;
        why << "retry counter exceeded: " << m_retries << " timeouts without progress at PSN "
            << psn << " (LinearCount " << m_linearCount << ", ExpCount " << m_expCount
            << ", TimeoutExponent " << m_timeoutExp << ")";
        RetryExceeded(why.str());
        return;
    }
    const MrcSackUpdate& upd = m_sb->OnTimeout(now, rto);
    HandleLosses(upd, true);
    TraceCc();
    ArmTimer();
    NotifyReady();
}

void
MrcMultipathQueuePair::RetryExceeded(const std::string& why)
{
    EnterError(MrcQpError::RETRY_EXCEEDED, why, MrcWcStatus::RETRY_EXCEEDED);
}

void
MrcMultipathQueuePair::ArmTailProbe()
{
    m_lastActivity = Simulator::Now();
    if (m_tailProbeDelay.IsZero() || !m_tailProbe.IsExpired())
    {
        return;
    }
    if (m_sb->GetOutstandingPsns() == 0 && !AwaitingTransportAck())
    {
        return;
    }
    m_tailProbe = Simulator::Schedule(m_tailProbeDelay, &MrcMultipathQueuePair::OnTailProbe, this);
}

void
MrcMultipathQueuePair::OnTailProbe()
{
    if (m_state != MrcQpState::RTS || (m_sb->GetOutstandingPsns() == 0 && !AwaitingTransportAck()))
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_lastActivity + m_tailProbeDelay)
    {
        m_tailProbe = Simulator::Schedule(m_lastActivity + m_tailProbeDelay - now,
                                          &MrcMultipathQueuePair::OnTailProbe,
                                          this);
        return;
    }
    if (!CanRetransmit() && !CanSendNew())
    {
        uint32_t mask = 0;
        for (uint32_t p = 0; p < m_nic->GetNPorts(); ++p)
        {
            if (m_nic->GetDevice(p)->IsLinkUp())
            {
                mask |= 1u << p;
            }
        }
        const uint32_t ev = m_evTable->Select(mask);
        if (ev != MrcEvTable::NO_EV)
        {
            m_tailProbeId = ++m_nextProbeId;
            m_tailProbeOutstanding = true;
            m_tailProbeSentAt = now;
            SendProbe(ev, m_tailProbeId);
        }
    }
    m_lastActivity = now;
    m_tailProbe = Simulator::Schedule(m_tailProbeDelay, &MrcMultipathQueuePair::OnTailProbe, this);
}

void
MrcMultipathQueuePair::SendEvProbe(uint32_t evId)
{
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    SendProbe(evId, ++m_nextProbeId);
}

void
MrcMultipathQueuePair::SendProbe(uint32_t evId, uint16_t probeId)
{
    const MrcEvEntry& e = m_evTable->GetEntry(evId);
    const uint32_t port = e.ev.plane;
    if (port >= m_nic->GetNPorts() || !m_nic->GetDevice(port)->IsLinkUp())
    {
        return;
    }
    Ptr<Packet> p = Create<Packet>();
    MrcPethHeader peth;
    peth.SetProbeId(probeId);
    peth.SetTxTimestamp(MrcTsethHeader::TimeToTicks(Simulator::Now()));
    p->AddHeader(peth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_PROBE);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(0); // probes use no PSN
    p->AddHeader(bth);
    Encapsulate(p,
                port,
                e.ev.value,
                e.ev.hasCarrier ? &e.ev.carrier : nullptr,
                m_dataDscp,
                m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT);
    ++m_mpCounters.probesSent;
    SendControl(port, p, m_dataDscp, CONTROL_UNCOUNTED);
}

// ---------------------------------------------------------------------------
// Requester: SACK and NACK processing
// ---------------------------------------------------------------------------

void
MrcMultipathQueuePair::OnLostPsn(const MrcPsnEvent& e, bool timeout)
{
    if (e.record.ev >= m_evTable->GetEvCount())
    {
        return;
    }
    if (timeout)
    {
        ++m_mpCounters.timedOutPsns;
        m_evTable->OnTimeout(e.record.ev);
    }
    else
    {
        ++m_mpCounters.inferredLosses;
        if (m_lossMarksBad)
        {
            m_evTable->OnInferredLoss(e.record.ev);
        }
    }
}

bool
MrcMultipathQueuePair::MayComplete(const MrcSendWqe& /* w */) const
{
    // with CompleteOnTransportAck a SACKed request also waits for the peer's report
    return !m_completeOnTack || m_completedRequests < m_tackedMessages;
}

void
MrcMultipathQueuePair::OnRequestCompleted(const MrcSendWqe& w)
{
    ++m_completedRequests;
    if (w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM && m_wimmOutstanding > 0)
    {
        --m_wimmOutstanding;
    }
    if (!m_wqeMsn.empty())
    {
        m_wqeMsn.pop_front();
    }
}

bool
MrcMultipathQueuePair::AfterAckProgress()
{
    const bool progress = AdvanceUna();
    if (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR)
    {
        return progress; // a completion put the QP in the error state
    }
    ArmTimer();
    return progress;
}

void
MrcMultipathQueuePair::ReceiveSack(const MrcRxPacket& rx)
{
    const uint8_t* h = rx.headers + rx.extOffset;
    MrcSethHeader seth;
    MrcCcStateHeader ccs;
    ReadHeaders(h, seth, ccs);
    const Time now = Simulator::Now();
    const bool pr = seth.IsProbeResponse();
    const MrcPathFeedback m = seth.GetPathFeedback();
    const uint32_t evId = m_evTable->FindByValue(seth.GetEntropy());
    if (pr)
    {
        ++m_mpCounters.probesAnswered;
        if (evId != MrcEvTable::NO_EV)
        {
            m_evTable->OnProbeAnswer(evId, m);
        }
    }
    else if (evId != MrcEvTable::NO_EV)
    {
        m_evTable->OnSack(evId, m);
    }
    if (m_dynamicMpr && seth.GetMpr() > 0)
    {
        m_peerMpr = seth.GetMpr();
    }

    const MrcSackUpdate& upd =
        pr ? m_sb->OnSack(seth.GetCackPsn(), seth.GetSackBasePsn(), seth.GetSackBitmap())
           : m_sb->OnSack(seth);
    // (upd is the scoreboard's reused result: read it before the next scoreboard call)
    const MrcCcAck ack = CcAckOf(seth, ccs, upd, now);
    const bool anyAcked = !upd.acked.empty();
    HandleLosses(upd, false);
    if (m_sleek && !pr && m_lossRule == LOSS_COUNT)
    {
        SleekCheck(ccs.GetOooCount());
    }
    if (pr && m_tailProbeOutstanding && seth.GetProbeId() == m_tailProbeId)
    {
        TailProbeAnswered(seth, now);
    }
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    if (anyAcked)
    {
        m_retries = 0;
        m_ccOps->OnAck(m_cc, ack);
    }
    TraceCc();
    if (AfterAckProgress())
    {
        m_retries = 0;
    }
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    ArmTailProbe();
    NotifyReady();
}

MrcCcAck
MrcMultipathQueuePair::CcAckOf(const MrcSethHeader& seth,
                               const MrcCcStateHeader& ccs,
                               const MrcSackUpdate& upd,
                               Time now) const
{
    const bool pr = seth.IsProbeResponse();
    MrcCcAck ack;
    ack.newlyAckedBytes = upd.ackedBytes;
    ack.ecnEcho = !pr && seth.GetPathFeedback() != MrcPathFeedback::NONE;
    ack.rcvCwndPend = ccs.GetRcvCwndPen();
    ack.restoreCwnd = ccs.GetRestoreCwnd();
    ack.serviceTime = pr ? Time(0) : m_serviceTime;
    if (!pr)
    {
        if (m_timestamps)
        {
            ack.rttValid = true;
            ack.rttSample = MrcTsethHeader::ElapsedBetween(ccs.GetTxTimestamp(),
                                                           MrcTsethHeader::TimeToTicks(now));
        }
        else
        {
            const uint32_t ackPsn = seth.GetAckPsn();
            for (const MrcPsnEvent& e : upd.acked)
            {
                if (e.psn == ackPsn)
                {
                    ack.retransmitted = e.record.retxCount > 0;
                    ack.rttSample = now - e.record.sendTime;
                    // [U]: valid if never retransmitted, or retransmitted once and the ACK
                    // answers that copy (Retx echo). SETH has no Retx echo: a PSN sent
                    // twice counts as answered by its retransmission when the sample is at
                    // least the base RTT (an earlier copy's SACK would come back sooner).
                    ack.rttValid =
                        !ack.retransmitted ||
                        (m_retxRttSamples && e.record.retxCount == 1 && ack.rttSample >= m_baseRtt);
                    break;
                }
            }
        }
    }
    if (ack.rttValid && ack.serviceTime.IsStrictlyPositive())
    {
        ack.rttSample = std::max(ack.rttSample - ack.serviceTime, Time(0)); // RTT - service time
    }
    return ack;
}

void
MrcMultipathQueuePair::SleekCheck(uint32_t oooCount)
{
    // UEC SLEEK (protocol reference Q4): enter recovery when the receiver holds
    // max(min(LossOooCwndFactor x cwnd, maxwnd), LossOooMinPkts x MTU) / MTU packets
    // out of order
    const uint64_t mtu = std::max<uint32_t>(m_mtu, 1);
    uint64_t maxWnd = uint64_t(m_sb->GetCapacity()) * mtu;
    if (Ptr<MrcNscc> nscc = DynamicCast<MrcNscc>(m_ccOps))
    {
        maxWnd = nscc->GetMaxWnd();
    }
    const double cwnd = static_cast<double>(std::min<uint64_t>(m_cc.cwnd, maxWnd));
    const uint64_t bytes = std::max<uint64_t>(
        static_cast<uint64_t>(std::min(m_lossOooCwndFactor * cwnd, double(maxWnd))),
        uint64_t(m_lossOooMinPkts) * mtu);
    if (oooCount >= bytes / mtu)
    {
        const uint32_t limit = static_cast<uint32_t>(
            std::min<uint64_t>(std::max<uint64_t>(m_cc.cwnd / mtu, 1), m_sb->GetCapacity()));
        HandleLosses(m_sb->StartRecovery(limit), false);
    }
}

void
MrcMultipathQueuePair::TailProbeAnswered(const MrcSethHeader& seth, Time now)
{
    // a tail probe's answer: what was sent before the probe and is still not SACKed is lost
    // (only when one SACK block covers every outstanding PSN, so "not SACKed" means "not
    // arrived")
    m_tailProbeOutstanding = false;
    // Only the block the answer's bitmap covers: beyond it "not SACKed" says nothing.
    // (Before: only when at most 64 PSNs were outstanding, so a tail of more than 64
    // PSNs, e.g. after a dead path ate part of a window, waited for the timeout.)
    const uint32_t end =
        (seth.GetSackBasePsn() + MrcSethHeader::SACK_BITMAP_BITS) & MrcSackScoreboard::PSN_MASK;
    const MrcSackUpdate& late = m_sb->OnTimeoutBelow(now, now - m_tailProbeSentAt, end);
    HandleLosses(late, false);
}

void
MrcMultipathQueuePair::ReceiveNack(const MrcRxPacket& rx)
{
    MrcNethHeader neth;
    ReadHeader(neth, rx.headers + rx.extOffset, MrcNethHeader::SIZE);
    const MrcNackReason reason = neth.GetNackReason();
    const uint32_t psn = neth.GetNackPsn();
    if (reason == MrcNackReason::UNEXP_EVENT)
    {
        std::ostringstream why;
        why << "NACK UNEXP_EVENT for PSN " << psn << " (fatal)";
        EnterError(MrcQpError::REMOTE_OP_ERROR, why.str(), MrcWcStatus::REMOTE_OP_ERROR);
        return;
    }
    const bool trimmed =
        reason == MrcNackReason::TRIMMED || reason == MrcNackReason::TRIMMED_LASTHOP;
    const uint32_t evId = m_evTable->FindByValue(neth.GetEntropy());
    if (evId != MrcEvTable::NO_EV)
    {
        m_evTable->OnNack(evId, reason);
    }
    const MrcPsnRecord* r = m_sb->OnNack(psn);
    bool wasRetransmission = false;
    if (r)
    {
        wasRetransmission = r->retxCount > 0;
        const uint32_t bytes = r->bytes;
        // Karn's rule: a NACK for a PSN sent more than once cannot tell which copy it
        // answers, so it carries no RTT sample (a stale copy's NACK just after the
        // retransmission would otherwise set base_rtt far too low).
        const Time rtt = wasRetransmission ? Time(0) : Simulator::Now() - r->sendTime;
        const MrcCcNackKind kind = reason == MrcNackReason::TRIMMED ? MrcCcNackKind::TRIMMED
                                   : reason == MrcNackReason::TRIMMED_LASTHOP
                                       ? MrcCcNackKind::TRIMMED_LAST_HOP
                                       : MrcCcNackKind::OTHER;
        m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
        m_ccOps->OnNackWithRtt(m_cc, bytes, kind, rtt);
        TraceCc();
    }
    if (trimmed)
    {
        ++m_mpCounters.trimNacksReceived;
    }
    else if (wasRetransmission)
    {
        // another NACK for a packet already retried: it counts against the retry counter
        ++m_retries;
        if (m_expCount < EXP_COUNT_INFINITE && m_retries > m_linearCount + m_expCount)
        {
            std::ostringstream why;
            why << "retry counter exceeded: NACK " << MrcNackReasonToString(reason) << " for PSN "
                << psn << " after " << (m_retries - 1) << " retries";
            RetryExceeded(why.str());
            return;
        }
    }
    ArmTimer();
    NotifyReady();
}

// ---------------------------------------------------------------------------
// Responder
// ---------------------------------------------------------------------------

void
MrcMultipathQueuePair::ReceiveOther(const MrcRxPacket& rx)
{
    const uint8_t op = rx.opcode;
    if (op == MrcOpcode::MRC_ENDPOINT_REQUEST)
    {
        ReceivePortStatus(rx);
    }
    else if (op == MrcOpcode::MRC_ENDPOINT_RESPONSE)
    {
        ReceivePortStatusResponse(rx);
    }
    else if (op == MrcOpcode::MRC_TRANSPORT_ACK)
    {
        ReceiveTransportAck(rx);
    }
    else
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": opcode " << unsigned(op) << " ignored");
    }
}

uint32_t
MrcMultipathQueuePair::EvOf(const MrcRxPacket& rx) const
{
    const MrcPacketInfo& i = *rx.info;
    return MrcEvDecode(i.udpSrcPort,
                       i.encapsulated ? i.innerFlowLabel : i.flowLabel,
                       m_srcPortHigh ? MrcEvSplit::SRC_PORT_HIGH : MrcEvSplit::SRC_PORT_LOW);
}

void
MrcMultipathQueuePair::OnTrimmedArrival(const MrcRxPacket& rx, const Arrival& a, bool lastHop)
{
    ++m_mpCounters.trimNacksSent;
    SendNack(rx.port,
             rx.psn,
             a.ev,
             lastHop ? MrcNackReason::TRIMMED_LASTHOP : MrcNackReason::TRIMMED,
             a.tsEcho);
}

bool
MrcMultipathQueuePair::AdmitData(const MrcRxPacket& rx, const Arrival& a)
{
    if (m_maxWimmDest > 0 && MrcOpcode::HasImmediate(rx.opcode))
    {
        // max_wimm_dest: a Write-with-Immediate more than MaxWimmDest ahead of the last one
        // reported is an error (no RNR in MRC); RQMSN is the first METH field
        const auto reported = static_cast<uint16_t>(m_rxMessages.GetImmediateCount());
        const auto ahead = static_cast<int16_t>(ReadU16(rx.headers + rx.extOffset) - reported);
        if (ahead >= static_cast<int32_t>(m_maxWimmDest))
        {
            ++m_mpCounters.wimmDestExceeded;
            SendNack(rx.port, rx.psn, a.ev, MrcNackReason::UNEXP_EVENT, a.tsEcho);
            return false;
        }
    }
    return true;
}

void
MrcMultipathQueuePair::OnOutOfWindow(const MrcRxPacket& rx, const Arrival& a)
{
    ++m_mpCounters.oorNacksSent;
    SendNack(rx.port, rx.psn, a.ev, MrcNackReason::PSN_OOR_WINDOW, a.tsEcho);
}

void
MrcMultipathQueuePair::OnAccessError(const MrcRxPacket& rx,
                                     const Arrival& a,
                                     uint32_t rkey,
                                     uint64_t va)
{
    NS_LOG_LOGIC("QP " << m_qpn << ": rkey " << rkey << " [" << va << ", +" << rx.payloadBytes
                       << ") rejected");
    SendNack(rx.port, rx.psn, a.ev, MrcNackReason::UNEXP_EVENT, a.tsEcho);
}

void
MrcMultipathQueuePair::SetFeedback(Arrival& a)
{
    if (a.ce)
    {
        const uint32_t run = ++m_ceRun[a.ev];
        a.feedback = (m_alwaysSkipCeRun > 0 && run >= m_alwaysSkipCeRun)
                         ? MrcPathFeedback::ALWAYS_SKIP
                         : MrcPathFeedback::SKIP_ONCE;
    }
    else if (!m_ceRun.empty())
    {
        m_ceRun.Erase(a.ev);
    }
}

void
MrcMultipathQueuePair::SendDataAck(uint32_t port, uint32_t psn, const Arrival& a)
{
    SendSack(port, psn, a.ev, a.feedback, false, 0, a.tsEcho);
}

void
MrcMultipathQueuePair::AfterDataAck(const MrcRxPacket& rx, const Arrival& a, uint32_t delivered)
{
    // a Transport ACK follows the SACK (reliability first)
    m_tackOwed += delivered;
    if (m_tackMessages > 0 && (m_tackOwed >= m_tackMessages || !m_rxMessages.HasPending()))
    {
        SendTransportAck(rx.port, a.ev);
    }
}

void
MrcMultipathQueuePair::SendTransportAck(uint32_t port, uint32_t ev)
{
    MrcAethHeader aeth;
    aeth.SetAck(MrcAethHeader::CREDIT_INVALID);
    aeth.SetMsn(static_cast<uint32_t>(m_rxMessages.GetNextMsn() & MrcAethHeader::MSN_MASK));
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(aeth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_TRANSPORT_ACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(m_rxWin->GetCumulativePsn());
    p->AddHeader(bth);
    m_tackOwed = 0;
    ++m_mpCounters.transportAcksSent;
    SendReverse(port, p, ev, CONTROL_UNCOUNTED);
}

void
MrcMultipathQueuePair::ReceiveTransportAck(const MrcRxPacket& rx)
{
    if (rx.info->headerBytes < rx.extOffset + MrcAethHeader::SERIALIZED_SIZE)
    {
        return;
    }
    const uint8_t* h = rx.headers + rx.extOffset;
    MrcAethHeader aeth;
    aeth.SetSyndrome(h[0]);
    if (!aeth.IsAck())
    {
        return;
    }
    ++m_mpCounters.transportAcksRcvd;
    // MSN = messages the peer completed, mod 2^24: advance the unwrapped count
    const uint32_t msn = (uint32_t(h[1]) << 16) | (uint32_t(h[2]) << 8) | h[3];
    const uint32_t ahead =
        (msn - static_cast<uint32_t>(m_tackedMessages)) & MrcAethHeader::MSN_MASK;
    if (ahead == 0 || ahead >= (MrcAethHeader::MSN_MASK + 1) / 2)
    {
        return; // nothing new, or an older ACK overtaken by a newer one
    }
    m_tackedMessages += ahead;
    if (m_completeOnTack && m_state == MrcQpState::RTS)
    {
        AfterAckProgress();
        if (m_state == MrcQpState::RTS)
        {
            NotifyReady();
        }
    }
}

bool
MrcMultipathQueuePair::AwaitingTransportAck() const
{
    return m_completeOnTack && !m_sendQueue.empty() && m_sendQueue.front().EndSeq() <= m_una &&
           m_completedRequests >= m_tackedMessages;
}

void
MrcMultipathQueuePair::ReceiveProbe(const MrcRxPacket& rx)
{
    MrcPethHeader peth;
    ReadHeader(peth, rx.headers + rx.extOffset, MrcPethHeader::SIZE);
    const MrcPathFeedback m =
        rx.GetEcn() == MrcEcn::CE ? MrcPathFeedback::SKIP_ONCE : MrcPathFeedback::NONE;
    SendSack(rx.port,
             m_rxWin->GetCumulativePsn(),
             EvOf(rx),
             m,
             true,
             peth.GetProbeId(),
             peth.GetTxTimestamp());
    m_sackPolicy->OnSackSent();
    if (m_tackMessages > 0 && m_rxMessages.GetNextMsn() > 0)
    {
        // repeat the cumulative Transport ACK: a requester that waits for a lost one
        // (CompleteOnTransportAck) probes the tail
        SendTransportAck(rx.port, EvOf(rx));
    }
}

void
MrcMultipathQueuePair::SendSack(uint32_t port,
                                uint32_t triggerPsn,
                                uint32_t ev,
                                MrcPathFeedback m,
                                bool probe,
                                uint16_t probeId,
                                uint16_t tsEcho)
{
    MrcSethHeader seth;
    m_rxWin->FillSeth(seth, triggerPsn);
    if (probe)
    {
        seth.SetProbeResponse(true);
        seth.SetProbeId(probeId);
    }
    seth.SetEntropy(ev);
    seth.SetPathFeedback(m);
    seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
    MrcCcStateHeader ccs;
    m_rxWin->FillCcState(ccs);
    ccs.SetRcvdBytesUnits(MrcCcStateHeader::BytesToRcvdUnits(m_rcvdBytes));
    const MrcRcvBackpressure::Fields bp = m_rcvBp.OnSack(Simulator::Now());
    ccs.SetRcvCwndPen(bp.pen);
    ccs.SetRestoreCwnd(bp.restore);
    m_mpCounters.penaltySacks += bp.pen > 0 ? 1 : 0;
    m_mpCounters.restoreSacks += bp.restore ? 1 : 0;
    ccs.SetTxTimestamp(tsEcho);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_SACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(m_rxWin->GetCumulativePsn());
    Ptr<Packet> p = Create<Packet>();
    MrcAddHeaders(p, {&bth, &seth, &ccs});
    SendReverse(port, p, ev, CONTROL_ACK);
}

void
MrcMultipathQueuePair::SendNack(uint32_t port,
                                uint32_t psn,
                                uint32_t ev,
                                MrcNackReason reason,
                                uint16_t tsEcho)
{
    MrcNethHeader neth;
    neth.SetNackReason(reason);
    neth.SetEntropy(ev);
    neth.SetNackPsn(psn & MrcBthHeader::PSN_MASK);
    neth.SetTxTimestamp(tsEcho);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_NACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(psn & MrcBthHeader::PSN_MASK);
    Ptr<Packet> p = Create<Packet>();
    MrcAddHeaders(p, {&bth, &neth});
    SendReverse(port, p, ev, CONTROL_NAK);
}

void
MrcMultipathQueuePair::SendReverse(uint32_t port, Ptr<Packet> p, uint32_t echoedEv, uint8_t kind)
{
    // Rotate over the GOOD active EVs of the plane: a reverse path that died silently
    // then loses only some control packets, and the cumulative SACK covers them.
    uint32_t id = MrcEvTable::NO_EV;
    if (port < m_reverseEv.size())
    {
        // the next of the plane's EVs after the last one used, in id order (the plane's
        // list only: a walk over every EV of the QP would touch all planes' entries)
        const std::vector<uint32_t>& ids = m_evTable->GetPlaneIds(port);
        const uint32_t n = ids.size();
        const uint32_t start = m_reverseEv[port] == MrcEvTable::NO_EV ? 0 : m_reversePos[port] + 1;
        for (uint32_t k = 0; k < n; ++k)
        {
            const uint32_t pos = (start + k) % n;
            if (m_evTable->IsActiveAndGood(ids[pos]))
            {
                id = ids[pos];
                m_reversePos[port] = pos;
                break;
            }
        }
        m_reverseEv[port] = id;
    }
    if (id != MrcEvTable::NO_EV)
    {
        const MrcEvEntry& e = m_evTable->GetEntry(id);
        Encapsulate(p,
                    port,
                    e.ev.value,
                    e.ev.hasCarrier ? &e.ev.carrier : nullptr,
                    m_controlDscp,
                    MrcEcn::NOT_ECT);
    }
    else
    {
        Encapsulate(p, port, echoedEv, nullptr, m_controlDscp, MrcEcn::NOT_ECT);
    }
    SendControl(port, p, m_controlDscp, kind);
}

} // namespace ns3
