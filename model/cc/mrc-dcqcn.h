/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_H
#define MRC_DCQCN_H

#include "mrc-congestion-ops.h"

#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * DCQCN reaction point (sender side), rate based, in the "Mellanox" form of the HPCC ns-3
 * simulator with the DCQCN paper's byte counter and hyper-increase form as options.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Why DCQCN cut its rate, as reported by the trace source MrcDcqcn::RateCut.
 */
enum class MrcDcqcnCut : uint8_t
{
    FIRST_CNP, //!< the first CNP: RC x RateOnFirstCnp (reported only when that is below 1)
    DECREASE,  //!< a decrease tick after a CNP: RC x (1 - alpha/2), at least MinRate
};

/**
 * \ingroup mrc
 * \param cut a cause \return its name, as events.csv writes it (e.g. "DECREASE")
 */
const char* MrcDcqcnCutName(MrcDcqcnCut cut);

/**
 * \ingroup mrc
 * DCQCN reaction point: one object per queue pair (Fork() the configured prototype).
 *
 * State: current rate RC (MrcCcState::rate), target rate RT, alpha, the flags "CNP in this
 * alpha slot" and "CNP since the last decrease tick", the timer stage T and the byte stage BC.
 * Nothing happens before the first CNP: the QP sends at line rate. The first CNP sets
 * alpha = 1, RT = RC = RateOnFirstCnp * RC and starts the alpha timer (period
 * AlphaUpdateInterval) and the decrease timer (period RateDecreaseInterval, first tick 1 ns
 * after the CNP). A decrease tick with a CNP since the previous tick cuts RC to
 * max(MinRate, RC (1 - alpha/2)), resets T and BC and restarts the increase timer (period
 * RateIncreaseInterval), whose fires raise the rate in three stages (fast recovery,
 * additive, hyper).
 *
 * The algorithm steps are public (UpdateAlpha, DecreaseTick, IncreaseTick, ByteCounterTick)
 * so that tests can drive them by hand; the step methods do not reschedule timers and do not
 * call notifyChanged, the timer events do both.
 *
 * Idle timers are parked instead of firing for nothing: an alpha tick without a CNP stops
 * the alpha timer (the pure decay alpha (1-g)^n of the missed ticks is applied on the next
 * CNP or read), a decrease tick without a CNP stops the decrease timer (the next CNP
 * restarts it on the same time grid), and the increase timer stops once RC = RT = line rate.
 * The rates are the same as with timers that never stop (attribute ParkIdleTimers = false,
 * as the HPCC simulator).
 */
class MrcDcqcn : public MrcCongestionOps
{
  public:
    /// How hyper increase raises the target rate.
    enum HyperIncreaseForm
    {
        HAI_ONCE,   //!< RT += R_HAI per hyper step (HPCC simulator)
        HAI_SCALED, //!< RT += i * R_HAI, i = min(T, BC) - F (DCQCN paper, htsim)
    };

    /// Increase stage that the next increase event applies.
    enum Phase
    {
        FAST_RECOVERY,     //!< RC = (RC + RT) / 2
        ADDITIVE_INCREASE, //!< RT += R_AI, then RC = (RC + RT) / 2
        HYPER_INCREASE,    //!< RT += R_HAI (or i * R_HAI), then RC = (RC + RT) / 2
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcDcqcn();
    ~MrcDcqcn() override;

    std::string GetName() const override;
    void Init(MrcCcState& s) override;
    /// Counts bytes for the byte counter (when ByteCounter > 0 and after the first CNP).
    void OnSent(MrcCcState& s, uint32_t bytes) override;
    /// An ACK with cnpFlag set counts as a CNP (HPCC style); nothing else is used.
    void OnAck(MrcCcState& s, const MrcCcAck& ack) override;
    void OnCnp(MrcCcState& s) override;
    Ptr<MrcCongestionOps> Fork() const override;

    /**
     * One alpha-timer tick: alpha = (1-g) alpha + g if a CNP arrived in the slot, else
     * (1-g) alpha; clears the slot flag.
     */
    void UpdateAlpha();
    /**
     * One decrease-timer tick: if a CNP arrived since the last tick, (RT = RC if T != 0 or
     * ClampTargetRate), RC = max(MinRate, RC (1 - alpha/2)), T = BC = 0, byte count = 0,
     * and (if the timers run) the increase timer restarts.
     * \param s the state
     */
    void DecreaseTick(MrcCcState& s);
    /**
     * One increase-timer fire. Without byte counter: the stage follows T before it is
     * incremented (T < F fast recovery, T == F additive, T > F hyper with i = T - F). With
     * byte counter: T is incremented first and the stage follows (T, BC) as in
     * ByteCounterTick.
     * \param s the state
     */
    void IncreaseTick(MrcCcState& s);
    /**
     * One byte-counter expiry (ByteCounter bytes sent): BC++, then fast recovery if
     * max(T, BC) <= F, hyper if min(T, BC) > F (i = min(T, BC) - F), additive otherwise.
     * \param s the state
     */
    void ByteCounterTick(MrcCcState& s);

    /// \return alpha now (including the decay of parked alpha-timer ticks up to now)
    double Alpha() const;
    /// \return the target rate RT
    DataRate TargetRate() const;
    /// \return the timer stage T (increase-timer fires since the last cut)
    uint32_t Stage() const;
    /// \return the byte stage BC (byte-counter expiries since the last cut)
    uint32_t ByteStage() const;
    /// \return the stage the next increase-timer fire would apply
    Phase NextPhase() const;
    /// \return true once the first CNP arrived (timers started)
    bool Started() const;
    /// \return true if a CNP arrived since the last decrease tick
    bool DecreasePending() const;

    /// Trace signature for rate changes: old and new RC.
    typedef void (*RateTracedCallback)(DataRate oldRate, DataRate newRate);
    /// Trace signature for alpha changes: old and new alpha.
    typedef void (*AlphaTracedCallback)(double oldAlpha, double newAlpha);
    /**
     * TracedCallback signature for a rate cut.
     * \param cause why the rate was cut
     * \param oldRate RC before
     * \param newRate RC after (equal to oldRate when already at MinRate)
     */
    typedef void (*RateCutTracedCallback)(MrcDcqcnCut cause, DataRate oldRate, DataRate newRate);

  protected:
    void DoDispose() override;

  private:
    /// Set RC, fire the rate trace.
    void SetRate(MrcCcState& s, DataRate r);
    /// Set alpha, fire the alpha trace.
    void SetAlpha(double a);
    /// Set RT, fire the target-rate trace.
    void SetTarget(DataRate r);
    /// Apply one increase of the given phase (i: hyper multiplier).
    void ApplyIncrease(MrcCcState& s, Phase p, uint32_t i);
    /// Phase for the paper form with counters (t, bc) already incremented.
    Phase PhaseFor(uint32_t t, uint32_t bc) const;
    /// Alpha-timer event.
    void AlphaTimer();
    /// Decrease-timer event.
    void DecreaseTimer();
    /// Increase-timer event.
    void IncreaseTimer();
    /// Restart the increase timer (after a cut).
    void RestartIncreaseTimer();
    /// Bring a parked alpha timer up to date before a CNP; reschedule it on its grid.
    void WakeAlphaTimer();
    /// Restart a parked decrease timer on its grid.
    void WakeDecreaseTimer();
    /// Alpha ticks of a parked alpha timer at times <= now not applied yet.
    uint64_t PendingAlphaTicks() const;
    /// Increase-timer fires missed while parked at line rate.
    uint32_t ParkedIncreaseFires() const;
    /// Check the attributes; abort on a bad value.
    void CheckConfig() const;

    // attributes
    double m_g;                   //!< alpha gain g
    Time m_alphaInterval;         //!< alpha timer period K
    Time m_decreaseInterval;      //!< decrease timer period
    Time m_increaseInterval;      //!< increase timer period
    uint64_t m_byteCounter;       //!< byte counter B in bytes; 0 = off
    uint32_t m_fastRecoveryTimes; //!< F
    DataRate m_rateAi;            //!< R_AI
    DataRate m_rateHai;           //!< R_HAI
    DataRate m_minRate;           //!< rate floor of a cut
    bool m_clampTargetRate;       //!< RT = RC at every cut
    double m_rateOnFirstCnp;      //!< RC factor on the first CNP
    HyperIncreaseForm m_haiForm;  //!< hyper-increase form
    bool m_parkIdleTimers;        //!< stop idle timers (same rates, fewer events)

    // algorithm state
    MrcCcState* m_state{nullptr}; //!< the QP's state (outlives this object)
    DataRate m_targetRate{0};     //!< RT
    double m_alpha{1.0};          //!< alpha
    bool m_alphaCnp{false};       //!< CNP in this alpha slot
    bool m_decreaseCnp{false};    //!< CNP since the last decrease tick
    bool m_started{false};        //!< first CNP seen
    uint32_t m_t{0};              //!< timer stage T
    uint32_t m_bc{0};             //!< byte stage BC
    uint64_t m_bytes{0};          //!< bytes counted towards the next byte-counter expiry

    // timers
    Time m_origin;                //!< time of the first CNP (grid origin of alpha/decrease)
    uint64_t m_alphaTicks{0};     //!< alpha ticks applied so far (tick k at origin + k K)
    bool m_alphaParked{false};    //!< alpha timer stopped after a CNP-free slot
    bool m_decreaseParked{false}; //!< decrease timer stopped after a CNP-free tick
    bool m_increaseParked{false}; //!< increase timer stopped at line rate
    Time m_increaseParkedAt;      //!< when the increase timer was parked
    Time m_lastDecreaseTick;      //!< when the decrease timer last fired
    EventId m_alphaEvent;         //!< alpha timer
    EventId m_decreaseEvent;      //!< decrease timer
    EventId m_increaseEvent;      //!< increase timer

    TracedCallback<DataRate, DataRate> m_rateTrace;                 //!< RC changes
    TracedCallback<double, double> m_alphaTrace;                    //!< alpha changes
    TracedCallback<DataRate, DataRate> m_targetTrace;               //!< RT changes
    TracedCallback<MrcDcqcnCut, DataRate, DataRate> m_rateCutTrace; //!< rate cuts, by cause
};

} // namespace ns3

#endif // MRC_DCQCN_H
