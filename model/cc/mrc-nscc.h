/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NSCC_H
#define MRC_NSCC_H

#include "mrc-congestion-ops.h"

#include "ns3/traced-callback.h"

/**
 * \file
 * \ingroup mrc
 * UEC NSCC (network signal-based congestion control), the sender window controller of
 * the UEC RUD and MRC transports.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * What NSCC did with one ACK (the quadrant taken, or why none was), as reported by the
 * trace source MrcNscc::AckDecision.
 */
enum class MrcNsccDecision : uint8_t
{
    NO_RTT_SAMPLE,           //!< no valid RTT sample: only the byte counters moved
    QUICK_ADAPT,             //!< quick adapt set cwnd to the bytes achieved
    QUICK_ADAPT_IGNORED,     //!< an ECN echo from before the last quick adapt, ignored
    RECEIVER_LIMITED,        //!< Rcv_Cwnd_Pend > 0 throttled the window, no increase
    FAST_INCREASE,           //!< near-zero delay for a window: cwnd += newly x fi_scale
    PROPORTIONAL_INCREASE,   //!< no ECN, delay < target: inc += alpha x newly x (target - delay)
    FAIR_INCREASE,           //!< no ECN, delay >= target: inc += fi x newly
    MULTIPLICATIVE_DECREASE, //!< ECN, delay >= target, and the decrease was applied
    DECREASE_HELD,           //!< ECN, delay >= target, but the once-per-RTT guard held it
    NO_CHANGE,               //!< ECN, delay < target: no window change
};

/**
 * \ingroup mrc
 * Why NSCC cut its window, as reported by the trace source MrcNscc::WindowCut.
 */
enum class MrcNsccCut : uint8_t
{
    TRIM_NACK,               //!< a NACK of a trimmed packet: cwnd -= the packet's bytes
    LOSS,                    //!< an inferred loss (timeout or SACK gap): cwnd -= its bytes
    MULTIPLICATIVE_DECREASE, //!< an ECN echo above the target delay: cwnd x factor
    QUICK_ADAPT,             //!< quick adapt: cwnd = the bytes achieved in the last period
    RECEIVER_PENALTY,        //!< the receiver's Rcv_Cwnd_Pend throttled the window
};

/**
 * \ingroup mrc
 * \param cut a cause \return its name, as events.csv writes it (e.g. "TRIM_NACK")
 */
const char* MrcNsccCutName(MrcNsccCut cut);

/**
 * \ingroup mrc
 * One ACK as NSCC saw it (the argument of the trace source MrcNscc::AckDecision).
 */
struct MrcNsccAckRecord
{
    Time rttSample{0}; //!< the RTT sample (0 when not valid)
    Time baseRtt{0};   //!< base_rtt the delay was measured from
    Time delay{0};     //!< queuing delay used for the decision
    Time target{0};    //!< target delay the delay was compared with
    uint64_t newly{0}; //!< newly acknowledged bytes
    bool ecn{false};   //!< ECN echo
    MrcNsccDecision decision{MrcNsccDecision::NO_RTT_SAMPLE}; //!< what was done
};

/**
 * \ingroup mrc
 * UEC NSCC sender window congestion control (UEC 1.0 §3.6.13, with the UEC reference
 * simulator's defaults).
 *
 * Per ACK the controller places the packet in one of four quadrants (ECN echo yes/no,
 * queuing delay above/below the target): fair increase, proportional increase (with
 * fast increase after a window of zero-delay ACKs), multiplicative decrease (at most
 * once per base RTT, Swift-style on the average delay) or no change. Increases are
 * accumulated in inc_bytes and applied every adjust period or adjust-bytes threshold as
 * cwnd += inc_bytes / cwnd (+ eta once per period). Quick adapt drops cwnd to the bytes
 * achieved in the last base_rtt + target after a trim NACK, a loss, or a very large
 * delay. The receiver can throttle the window with Rcv_Cwnd_Pend / Restore_Cwnd.
 *
 * **Who updates inflight.** The queue pair owns MrcCcState::inflight, as the shared
 * interface says: it adds the packet size when a packet leaves, and subtracts
 * newlyAckedBytes before OnAck(), the packet size before OnNack()/OnNackWithRtt() and
 * before OnLoss(). This is the same as NSCC's own step 1 (inflight -= newly, or -= size),
 * which comes before every other step. Setting the attribute AccountInflight makes this
 * class do the subtractions itself instead (the queue pair then only adds on send).
 * Sizes must use one measure throughout: the one the receiver counts in rcvd_bytes
 * (UEC: payload + 40 B nominal header), so that sends and acknowledgements cancel out.
 *
 * **Send gating.** A packet of b bytes may go when CanSend(s, b), i.e. inflight + b <=
 * cwnd (the rule MrcCcState documents for every queue pair). After adding the packet to
 * inflight the queue pair sets the ack-request flag when AckRequest(s) is true.
 *
 * The controller never changes state outside event calls (no timers), so
 * MrcCcState::notifyChanged is not used. It sets MrcCcState::rate to the line rate.
 */
class MrcNscc : public MrcCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcNscc();
    /**
     * Copy the configuration (attributes) only; the per-connection state starts fresh.
     * \param other the prototype
     */
    MrcNscc(const MrcNscc& other);
    ~MrcNscc() override;

    std::string GetName() const override;
    void Init(MrcCcState& s) override;
    void OnAck(MrcCcState& s, const MrcCcAck& ack) override;
    void OnNack(MrcCcState& s, uint32_t bytes, MrcCcNackKind kind) override;
    void OnNackWithRtt(MrcCcState& s, uint32_t bytes, MrcCcNackKind kind, Time rttSample) override;
    void OnLoss(MrcCcState& s, uint32_t bytes) override;
    /// Lowers base_rtt to the sample (update_base_rtt); nothing else changes.
    void OnBaseRttSample(MrcCcState& s, Time rtt) override;
    bool AckRequest(const MrcCcState& s) const override;
    Ptr<MrcCongestionOps> Fork() const override;

    /**
     * \param s the state
     * \param bytes size of the next packet
     * \return true when inflight + bytes <= cwnd
     */
    static bool CanSend(const MrcCcState& s, uint32_t bytes);

    /**
     * The RTT-sample validity rule of NSCC's OnACK ([U] §3.6.13): a sample is valid when
     * the acknowledged PSN was never retransmitted, or was retransmitted exactly once and
     * the ACK answers that copy (the Retx echo). Without a Retx echo on the wire, a
     * sample of at least the base RTT stands in for it: an ACK of the earlier copy would
     * come back sooner after the retransmission left. Transports call this before they
     * set MrcCcAck::rttValid.
     * \param retxCount times the PSN was retransmitted
     * \param rttSample time from the last transmission to the ACK
     * \param baseRtt the configured base RTT
     * \return true when the sample may feed the delay
     */
    static bool IsRttSampleValid(uint32_t retxCount, Time rttSample, Time baseRtt);

    /// \name Internal variables (for tests and traces)
    /// @{
    Time GetBaseRtt() const;           //!< \return current base_rtt (minimum of samples)
    Time GetConfigBaseRtt() const;     //!< \return config_base_rtt
    double GetAvgDelay() const;        //!< \return smoothed queuing delay avg_delay (s)
    double GetIncBytes() const;        //!< \return accumulated increase (B^2)
    uint64_t GetAchievedBytes() const; //!< \return bytes acked since the QA window began
    uint64_t GetReceivedBytes() const; //!< \return bytes acked since the last adjustment
    uint64_t GetFiCount() const;       //!< \return bytes acked with near-zero delay in a row
    bool IsIncreaseMode() const;       //!< \return fast-increase mode
    Time GetQaEndTime() const;         //!< \return end of the current QA window
    bool IsTriggerQa() const;          //!< \return a trim NACK asked for quick adapt
    int64_t GetBytesToIgnore() const;  //!< \return bytes to ignore after quick adapt
    int64_t GetBytesIgnored() const;   //!< \return bytes ignored so far
    uint64_t GetSavedCwnd() const;     //!< \return window saved by the receiver penalty
    Time GetLastAdjustTime() const;    //!< \return last time eta was added
    Time GetLastDecTime() const;       //!< \return last multiplicative decrease
    /// @}

    /// \name Derived parameters
    /// @{
    uint64_t GetBdp() const;                  //!< \return BDP (B)
    double GetScalingA() const;               //!< \return scaling_a = BDP / ref_BDP
    double GetScalingB() const;               //!< \return scaling_b = target / ref RTT
    double GetAlpha() const;                  //!< \return alpha (B/s)
    double GetFi() const;                     //!< \return fair increase fi (B)
    double GetFiScale() const;                //!< \return fast-increase factor
    double GetEta() const;                    //!< \return additive probe eta (B)
    double GetIncreaseScale() const;          //!< \return factor on fi, alpha, eta (1: none)
    uint64_t GetMaxWnd() const;               //!< \return max_wnd (B)
    Time GetTargetDelay() const;              //!< \return target_qdelay
    Time GetQaThreshold() const;              //!< \return qa_threshold
    uint64_t GetAdjustBytesThreshold() const; //!< \return adjust_bytes_threshold (B)
    Time GetAdjustPeriod() const;             //!< \return adjust_period_threshold
    /// @}

    /**
     * TracedCallback signature for window changes.
     * \param oldCwnd window before (B)
     * \param newCwnd window after (B)
     */
    typedef void (*CwndTracedCallback)(uint64_t oldCwnd, uint64_t newCwnd);
    /**
     * TracedCallback signature for the per-ACK decision.
     * \param record the ACK and the decision taken
     */
    typedef void (*AckDecisionTracedCallback)(const MrcNsccAckRecord& record);
    /**
     * TracedCallback signature for a window cut.
     * \param cause why the window was cut
     * \param oldCwnd window before (B)
     * \param newCwnd window after (B; equal to oldCwnd when already at its floor)
     */
    typedef void (*WindowCutTracedCallback)(MrcNsccCut cause, uint64_t oldCwnd, uint64_t newCwnd);

  private:
    /// \param tid the TypeId under construction \return it, with the window attributes (base RTT,
    /// BDP, target delay, maximum window, decrease)
    static TypeId AddWindowAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the quick-adapt and
    /// adjustment-period attributes
    static TypeId AddQuickAdaptAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the delay average and increase
    /// attributes (fast, fair, scaled)
    static TypeId AddIncreaseAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the attributes choosing between
    /// the UEC simulator and spec variants
    static TypeId AddVariantAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the trace sources
    static TypeId AddTraceSources(TypeId tid);

    /**
     * Compute BDP, scaling, alpha, fi, fi_scale, eta, max_wnd, target, qa_threshold and
     * adjust period from an RTT (config_base_rtt, or the new base_rtt when rescaling).
     * \param s the state (line rate, MTU)
     * \param rtt the RTT
     */
    void ComputeDerived(const MrcCcState& s, Time rtt);
    /// \param s state \return min(own line rate, PeerLinkRate if set)
    DataRate BdpRate(const MrcCcState& s) const;
    /// Recompute the increase factor of IncreaseRttScaling from base_rtt and the target.
    void UpdateRttScale();
    /// Set cwnd, firing the trace when it changes. \param s state \param cwnd new value
    void SetCwnd(MrcCcState& s, uint64_t cwnd);
    /// Clamp cwnd to [MTU, max_wnd]. \param s state
    void ClampCwnd(MrcCcState& s);
    /// Lower base_rtt to a sample. \param s state \param sample RTT sample
    void UpdateBaseRtt(MrcCcState& s, Time sample);
    /// Feed the delay average. \param delay queuing delay \param ecn ECN echo
    void UpdateDelay(Time delay, bool ecn);
    /**
     * Receiver flow control.
     * \param s state \param ack the ACK
     * \return rcv_limit_mode
     */
    bool ApplyCwndPenalty(MrcCcState& s, const MrcCcAck& ack);
    /**
     * Quick adapt.
     * \param s state \param isLoss called for a trim NACK \param ecn ECN echo
     * \param qdelay queuing delay
     * \return true when it fired or the ACK is ignored
     */
    bool QuickAdapt(MrcCcState& s, bool isLoss, bool ecn, Time qdelay);
    bool m_qaFired{false}; //!< the last QuickAdapt call set the window (not only ignored)
    /**
     * Fast increase.
     * \param s state \param newly bytes \param delay queuing delay
     * \return true when in increase mode (the increase is applied)
     */
    bool FastIncrease(MrcCcState& s, uint64_t newly, Time delay);
    /**
     * Multiplicative decrease.
     * \param s state
     * \return true when the window was cut (false: the once-per-RTT guard held it)
     */
    bool MultiplicativeDecrease(MrcCcState& s);
    /**
     * Steps 2-6 of OnAck (sample, penalty, base RTT, quick adapt, quadrants).
     * \param s state \param ack the ACK \param rec filled with what was seen and done
     * \return true when the adjustment step (7) follows
     */
    bool ProcessAck(MrcCcState& s, const MrcCcAck& ack, MrcNsccAckRecord& rec);
    /// Apply inc_bytes and eta when due. \param s state
    void FulfillAdjustment(MrcCcState& s);

    // Configuration (attributes)
    Time m_cfgBaseRtt;          //!< attribute BaseRtt (0: MrcCcState::baseRtt)
    DataRate m_peerRate;        //!< attribute PeerLinkRate (0: own line rate)
    bool m_trimming;            //!< attribute Trimming
    Time m_cfgTarget;           //!< attribute TargetDelay (0: factor x base RTT)
    double m_maxWndFactor;      //!< attribute MaxWndFactor
    uint64_t m_cfgMaxWnd;       //!< attribute MaxCwnd (0: derived)
    bool m_wndFollowsRtt;       //!< attribute MaxWndFollowsBaseRtt
    double m_gamma;             //!< attribute Gamma
    double m_maxMdJump;         //!< attribute MaxMdJump
    uint32_t m_qaGate;          //!< attribute QaGate
    double m_qaThresholdFactor; //!< attribute QaThresholdFactor
    Time m_cfgQaThreshold;      //!< attribute QaThreshold (0: factor x target)
    uint64_t m_cfgAdjustBytes;  //!< attribute AdjustBytesThreshold (0: 8 MTU)
    Time m_cfgAdjustPeriod;     //!< attribute AdjustPeriod (0: base RTT)
    bool m_disableQa;           //!< attribute DisableQuickAdapt
    double m_ewmaGain;          //!< attribute DelayEwmaGain
    bool m_avgOverBaseRtt;      //!< attribute DelayAverageOverBaseRtt
    Time m_fiDelayThreshold;    //!< attribute FastIncreaseThreshold
    DataRate m_refRate;         //!< attribute ReferenceRate
    Time m_refRtt;              //!< attribute ReferenceRtt
    double m_cfgFi;             //!< attribute Fi (0: derived)
    double m_cfgFiScale;        //!< attribute FiScale (0: derived)
    double m_cfgEta;            //!< attribute Eta (0: derived)
    bool m_updateBaseRttOnNack; //!< attribute UpdateBaseRttOnNack
    bool m_invalidUsesAvg;      //!< attribute InvalidRttUsesAvgDelay
    bool m_rescaleOnDrop;       //!< attribute RescaleOnBaseRttDrop
    double m_rttScalingExp;     //!< attribute IncreaseRttScaling
    bool m_rccc;                //!< attribute Rccc
    bool m_accountInflight;     //!< attribute AccountInflight
    uint32_t m_ackGenTrigger;   //!< attribute AckGenTrigger

    // Derived parameters
    Time m_configBaseRtt{0};   //!< config_base_rtt in use
    uint64_t m_bdp{0};         //!< BDP (B)
    double m_scalingA{0};      //!< scaling_a
    double m_scalingB{0};      //!< scaling_b
    double m_alpha{0};         //!< alpha (B/s)
    double m_fi{0};            //!< fi (B)
    double m_fiScale{0};       //!< fi_scale
    double m_eta{0};           //!< eta (B)
    uint64_t m_maxWnd{0};      //!< max_wnd (B)
    Time m_target{0};          //!< target_qdelay
    Time m_qaThreshold{0};     //!< qa_threshold
    uint64_t m_adjustBytes{0}; //!< adjust_bytes_threshold (B)
    Time m_adjustPeriod{0};    //!< adjust_period_threshold
    double m_rttScale{1.0};    //!< factor on the additive increases (IncreaseRttScaling)

    // Per-connection state ([U] Table 3-77)
    Time m_baseRtt{0};           //!< base_rtt
    uint64_t m_savedCwnd{0};     //!< saved_cwnd
    uint64_t m_achievedBytes{0}; //!< achieved_bytes
    uint64_t m_receivedBytes{0}; //!< received_bytes
    uint64_t m_fiCount{0};       //!< fi_count
    int64_t m_bytesToIgnore{0};  //!< bytes_to_ignore
    int64_t m_bytesIgnored{0};   //!< bytes_ignored
    double m_incBytes{0};        //!< inc_bytes
    bool m_triggerQa{false};     //!< trigger_qa
    bool m_increaseMode{false};  //!< increase_mode
    Time m_qaEndTime{0};         //!< qa_endtime
    Time m_lastAdjustTime{0};    //!< last_adjust_time
    Time m_lastDecTime{0};       //!< last_dec_time
    double m_avgDelay{0};        //!< avg_delay (s)
    Time m_lastDelayUpdate{0};   //!< when avg_delay last took a sample

    TracedCallback<uint64_t, uint64_t> m_cwndTrace;             //!< cwnd changes
    TracedCallback<Time, Time> m_baseRttTrace;                  //!< base_rtt drops
    TracedCallback<uint64_t> m_quickAdaptTrace;                 //!< quick adapt fired (new cwnd)
    TracedCallback<const MrcNsccAckRecord&> m_ackDecisionTrace; //!< per-ACK decision
    TracedCallback<MrcNsccCut, uint64_t, uint64_t> m_windowCutTrace; //!< window cuts, by cause
};

} // namespace ns3

#endif // MRC_NSCC_H
