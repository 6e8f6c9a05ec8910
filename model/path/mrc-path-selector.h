/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SELECTOR_H
#define MRC_PATH_SELECTOR_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The path-selection family: which NIC port (plane) and which entropy (UDP source port,
 * flow label) a queue pair's next packet uses, and how feedback about a path changes later
 * choices. MrcPathSelector is the common base; RoCEv2's fixed ECMP entropy
 * (MrcFixedEntropyPathSelector, here), UEC's spraying strategies (MrcUecPathSelector,
 * mrc-uec-path-selector.h) and MRC's EV table (MrcEvTable, mrc-ev-table.h) derive from it.
 */

namespace ns3
{

class MrcUsidCarrier;

/**
 * \ingroup mrc
 * One packet's path: the NIC port it leaves on and the header fields that steer it
 * through ECMP (or, in SRv6 mode, the entropy value a transport maps to a uSID path).
 * A port of MrcPathSelector::NO_PORT means that no path can be used now (the EV table
 * passes over every EV of the asked port's plane).
 */
struct MrcPathChoice
{
    uint32_t port{0};       //!< NIC port index (plane)
    uint16_t udpSrcPort{0}; //!< UDP source port
    uint32_t flowLabel{0};  //!< IPv6 flow label (20 bits)
    uint32_t ev{0};         //!< entropy value (transports without EVs: the hash used)
    /// Path group: choices that share a route share it (a transport's per-path loss rules
    /// count by it). Selectors that know no routes leave 0.
    uint32_t path{0};
    /// The source route of an SRv6 path (the selector keeps it; valid until the selector
    /// changes its paths), or nullptr for a path ECMP hashes.
    const MrcUsidCarrier* carrier{nullptr};
};

/**
 * \ingroup mrc
 * What a transport asks for when it needs a path (MrcPathSelector::Select).
 */
struct MrcPathRequest
{
    /// The port that has room now (the scheduler's port), or 0xffffffff
    /// (MrcPathSelector::NO_PORT): any port of `ports`.
    uint32_t port{0xffffffff};
    /// With port NO_PORT: bit p set = port p can carry the packet now.
    uint32_t ports{0xffffffff};
    /// The packet is a retransmission.
    bool retransmission{false};
    /// For a retransmission: the EV the lost copy left on, to pass over with its path;
    /// 0xffffffff (MrcPathSelector::NO_EV) when the transport does not know it (a selector
    /// may then avoid the path of its latest loss feedback).
    uint32_t lostEv{0xffffffff};
};

/**
 * Feedback a transport gives a path selector about one path (entropy value). The first
 * four values are those of UEC's MrcUecEvFeedback (an alias of this enum); MRC's SACK
 * path feedback maps onto GOOD, ECN and BAD (MrcPathSignalOfSack), its trim NACK onto
 * NACK, its timeout and inferred loss onto TIMEOUT and LOSS.
 */
enum class MrcPathSignal : uint8_t
{
    GOOD = 0,    ///< acknowledged without congestion
    ECN = 1,     ///< acknowledged with CE (or CNP)
    NACK = 2,    ///< NACKed (trimmed, out of window)
    TIMEOUT = 3, ///< retransmission timeout (path unknown or the one last used)
    LOSS = 4,    ///< a loss inferred from SACK holes, before any timer fired
    BAD = 5,     ///< the receiver says the path is bad (MRC SACK m = ALWAYS_SKIP)
};

/// Number of MrcPathSignal values.
constexpr uint32_t MRC_PATH_SIGNAL_COUNT = 6;

/// \param s a signal \return its name, e.g. "TIMEOUT"
const char* MrcPathSignalName(MrcPathSignal s);

/**
 * \param s a signal
 * \return true for the signals that report a lost packet or a failed path (TIMEOUT, LOSS,
 *         BAD); strategies without finer rules treat these three alike
 */
constexpr bool
MrcPathSignalIsLoss(MrcPathSignal s)
{
    return s == MrcPathSignal::TIMEOUT || s == MrcPathSignal::LOSS || s == MrcPathSignal::BAD;
}

/**
 * \ingroup mrc
 * Path-selection strategy of a queue pair, the base of the family. One object per queue
 * pair; it keeps only its own variables. The transport calls Init once when the QP is
 * connected, then Select for every packet it builds for a port, and Feedback as ACKs,
 * NACKs and timeouts come back (spraying policies such as REPS and the MRC EV table use
 * it).
 *
 * Select and Feedback are non-virtual: they count (GetSelectCount, GetNoPathCount,
 * GetFeedbackCount) and call the strategy's DoSelect and DoFeedback hooks, one virtual call
 * each. Members of the family that keep their own entry points (UEC's NextEv and On*,
 * the EV table's Select(planes, exclude) and On*) count through the same counters, so the
 * statistics do not depend on which interface a transport uses.
 *
 * The transports (RoCE, UEC, MRC) use nothing but this interface, so any member of the family
 * can be named by TypeId in their selector attributes. Besides Select and Feedback it has a
 * few optional parts, each with a do-nothing default, for selectors that keep per-path
 * health: the port state (SetLocalPortUp, SetRemotePortUp, CanUsePort), the path of control
 * packets sent back (SelectReverse), out-of-band probes (SetProbeSender, ProbeAnswered), the
 * base RTT (SetBaseRtt) and the random streams (AssignStreams).
 */
class MrcPathSelector : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPathSelector();
    ~MrcPathSelector() override;

    /**
     * Start selecting paths for a connection.
     * \param localQpn the local queue pair number
     * \param remoteQpn the peer's queue pair number
     * \param nPorts number of ports of the local NIC
     */
    virtual void Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts) = 0;

    /**
     * \param port a NIC port
     * \return true if this selector ever sends on it
     */
    virtual bool UsesPort(uint32_t port) const = 0;

    /**
     * Choose the path of the next packet.
     * \param port the NIC port that has room now (the scheduler's port), or
     *        NO_PORT when the transport asks for the connection's default path
     * \param retransmission the packet is a retransmission
     * \return the path (its port is `port` unless port is NO_PORT; NO_PORT if none can be
     *         used now)
     */
    MrcPathChoice Select(uint32_t port, bool retransmission)
    {
        MrcPathRequest r;
        r.port = port;
        r.retransmission = retransmission;
        return Select(r);
    }

    /**
     * Choose the path of the next packet (the full request).
     * \param r what the transport asks for
     * \return the path (its port is r.port unless that is NO_PORT; NO_PORT if none can be
     *         used now)
     */
    MrcPathChoice Select(const MrcPathRequest& r)
    {
        const MrcPathChoice c = DoSelect(r);
        CountSelect(c.port != NO_PORT);
        return c;
    }

    /**
     * Feedback about one path.
     * \param ev the entropy value the feedback is about (MrcPathChoice::ev)
     * \param kind what happened
     */
    void Feedback(uint32_t ev, MrcPathSignal kind)
    {
        CountFeedback(kind);
        DoFeedback(ev, kind);
    }

    /**
     * Feedback of a lost packet (kind LOSS or TIMEOUT) whose path is known to work: a packet
     * sent later on the same path has been delivered, so the loss was random or congestion,
     * not a dead path. Counted as that signal. Default: Feedback(ev, kind).
     * \param ev the entropy value of the lost packet
     * \param kind LOSS or TIMEOUT
     */
    virtual void LossOnLivePath(uint32_t ev, MrcPathSignal kind);

    /// \return the number of distinct paths this selector spreads a connection over
    virtual uint32_t GetPathCount() const = 0;

    // ---- optional parts (defaults: nothing) ----

    /**
     * A local NIC port went down or came up. Default: ignored.
     * \param port the port (plane) \param up true if up
     */
    virtual void SetLocalPortUp(uint32_t port, bool up);
    /**
     * The peer's port of a plane went down or came up (MRC Port Status). Default: ignored.
     * \param port the port (plane) \param up true if up
     */
    virtual void SetRemotePortUp(uint32_t port, bool up);
    /**
     * \param port a NIC port
     * \return true if the port is up at both ends and has paths a Select could return
     *         (default: UsesPort)
     */
    virtual bool CanUsePort(uint32_t port) const;
    /**
     * The path of a control packet (ACK, NACK) this end sends back to the peer on a port.
     * Not counted as a selection. Default: none (port NO_PORT), and the transport answers
     * on the EV it echoes.
     * \param port the port the control packet leaves on
     * \return the path, or port NO_PORT
     */
    virtual MrcPathChoice SelectReverse(uint32_t port);
    /**
     * Where to send out-of-band probes: a selector that tests paths by itself (the EV table
     * probes the EVs it took out of use) calls cb with the path to probe, and hears of the
     * answer through ProbeAnswered. Default: never probes.
     * \param cb the transport's probe sender (a null callback stops probing)
     */
    virtual void SetProbeSender(Callback<void, const MrcPathChoice&> cb);
    /**
     * The answer to a probe on a path arrived.
     * \param ev the EV the probe went on
     * \param kind GOOD, ECN or BAD (what the answer says of the path)
     * \return true if the selector was waiting for it (default: false)
     */
    virtual bool ProbeAnswered(uint32_t ev, MrcPathSignal kind);
    /// \param rtt the connection's base RTT (timers counted in RTTs). Default: ignored.
    virtual void SetBaseRtt(Time rtt);
    /**
     * The NIC port (plane) the application that opened the connection bound it to, as a
     * verbs application binds a queue pair to a port; given before Init. Default: ignored
     * (a selector that sprays over the ports, or chooses them itself).
     * \param port the port
     */
    virtual void AssignPort(uint32_t port);
    /**
     * Use fixed random-number streams.
     * \param stream first stream index
     * \return the number of streams used (default 0)
     */
    virtual int64_t AssignStreams(int64_t stream);

    /// \return the number of paths handed out (packets), by any entry point
    uint64_t GetSelectCount() const;
    /// \return the number of selections that found no usable path
    uint64_t GetNoPathCount() const;
    /// \param kind a signal \return the number of feedbacks of that kind received
    uint64_t GetFeedbackCount(MrcPathSignal kind) const;
    /// \return the number of feedbacks of all kinds received
    uint64_t GetFeedbackCount() const;

    /// "no particular port"
    static constexpr uint32_t NO_PORT = 0xffffffff;
    /// "no EV" (an unknown lost EV; the EV table: no EV found)
    static constexpr uint32_t NO_EV = 0xffffffff;

  protected:
    /**
     * The strategy's choice (see Select).
     * \param r the request
     * \return the path
     */
    virtual MrcPathChoice DoSelect(const MrcPathRequest& r) = 0;

    /**
     * The strategy's reaction to feedback (see Feedback). Default: ignored.
     * \param ev the entropy value
     * \param kind what happened
     */
    virtual void DoFeedback(uint32_t ev, MrcPathSignal kind);

    /**
     * The choice of a strategy that puts its EV into the UDP source port and the flow label
     * (MrcEvEncode with MrcEvSplit::SRC_PORT_LOW: the UEC strategies and the EV table).
     * \param port the NIC port
     * \param ev the 32-bit entropy value
     * \return the choice
     */
    static MrcPathChoice EvChoice(uint32_t port, uint32_t ev);

    /// \param found a path was handed out (else: none usable)
    void CountSelect(bool found)
    {
        ++(found ? m_selects : m_noPath);
    }

    /// \param kind the signal received
    void CountFeedback(MrcPathSignal kind)
    {
        ++m_feedback[static_cast<uint8_t>(kind)];
    }

  private:
    uint64_t m_selects{0};                                    //!< paths handed out
    uint64_t m_noPath{0};                                     //!< selections without a path
    std::array<uint64_t, MRC_PATH_SIGNAL_COUNT> m_feedback{}; //!< feedbacks by signal
};

/**
 * \ingroup mrc
 * RoCEv2's fixed ECMP entropy: one NIC port and one (UDP source port, flow label) pair
 * for the whole life of the queue pair, derived from the two QP numbers.
 *
 * Flow label: the Linux RDMA stack's rule for RoCEv2 (rdma_calc_flow_label): v = local
 * QPN x remote QPN (64 bit), v ^= v >> 20, v ^= v >> 40, label = v & 0xFFFFF; XORed with
 * the Salt attribute (20 bits). UDP source port: the Linux rule that folds the label
 * into 14 bits (rdma_flow_label_to_udp_sport): (label & 0x3FFF) ^ ((label & 0xFC000) >>
 * 14), OR 0xC000. Port: the Port attribute when it is set; else, under PortRule Assigned (the
 * default), the port the connection's opener assigned (AssignPort: mrc-sim gives connections
 * the planes in turn); else (PortRule FlowLabel, or nothing assigned) label mod nPorts, the
 * rule before session 44. Feedback is ignored; Select returns the same path for every packet (the
 * asked port is not looked at).
 */
class MrcFixedEntropyPathSelector : public MrcPathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Where the port comes from when the Port attribute is not set.
    enum PortRule : uint8_t
    {
        ASSIGNED,  //!< the port the opener assigned (AssignPort), else the flow label's
        FLOW_LABEL //!< label mod nPorts, whatever was assigned
    };

    MrcFixedEntropyPathSelector();

    void Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts) override;
    void AssignPort(uint32_t port) override;
    bool UsesPort(uint32_t port) const override;
    /// \return 1
    uint32_t GetPathCount() const override;

    /**
     * \param localQpn local QPN
     * \param remoteQpn remote QPN
     * \return the 20-bit flow label of the Linux rule (without salt)
     */
    static uint32_t FlowLabelOf(uint32_t localQpn, uint32_t remoteQpn);

    /**
     * \param flowLabel a 20-bit flow label
     * \return the RoCEv2 UDP source port the Linux rule derives from it (0xC000..0xFFFF)
     */
    static uint16_t UdpSourcePortOf(uint32_t flowLabel);

  protected:
    MrcPathChoice DoSelect(const MrcPathRequest& r) override;

  private:
    uint32_t m_portAttr;  //!< Port attribute
    uint32_t m_salt;      //!< Salt attribute
    uint32_t m_assigned;  //!< the opener's port (AssignPort), or NO_PORT
    PortRule m_portRule;  //!< PortRule attribute
    MrcPathChoice m_path; //!< the fixed path
};

} // namespace ns3

#endif /* MRC_PATH_SELECTOR_H */
