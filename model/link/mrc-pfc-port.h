/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_PORT_H
#define MRC_PFC_PORT_H

#include "mrc-ring.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <memory>

/**
 * \file
 * \ingroup mrc
 * The IEEE 802.1Qbb priority flow control state of one Ethernet port.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 802.1Qbb (PFC) side of one Ethernet port, apart from the wire and the class
 * queues:
 *
 * - receive: a PFC frame from the peer pauses each class it enables for its quanta
 *   (one quantum = 512 bit times at this port's rate) or, with quanta 0, resumes
 *   it; a new pause of a paused class restarts its timer. The port keeps which
 *   classes are paused, since when and for how long in total, and tells its owner
 *   through the pause-change callback, which gates its class scheduler.
 * - send: the owner's PAUSE and RESUME frames wait here, in order, until the
 *   owner's transmitter takes them (ahead of all data, whatever the pauses).
 *
 * The port counts the PFC frames sent and received and fires PfcTx and PfcRx
 * (once per enabled class) and PauseState. An MrcNetDevice owns one and offers
 * these traces under its own TypeId as well.
 *
 * Memory: most ports of a large fabric never see a PAUSE, so the per-class pause
 * record (start times, paused totals, expiry events: about 330 bytes and sixteen
 * Time objects) is allocated at the first pause only; until then a port holds the
 * paused mask, its counters and an empty frame queue.
 */
class MrcPfcPort : public Object
{
  public:
    static constexpr uint8_t N_CLASSES = 8; //!< priority classes

    /// The owner's hook on a pause change: the class and whether it is now paused.
    typedef Callback<void, uint8_t, bool> PauseChangeCallback;

    /// Signature of the PfcTx and PfcRx traces: one enabled class and its quanta.
    typedef void (*PfcTracedCallback)(uint8_t cls, uint16_t quanta);
    /// Signature of the PauseState trace: a class and whether it is now paused.
    typedef void (*PauseStateTracedCallback)(uint8_t cls, bool paused);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPfcPort();
    ~MrcPfcPort() override;

    /// \param rate the port's line rate, above 0 (aborts otherwise): it times the quanta
    void SetDataRate(DataRate rate);
    /// \return the port's line rate
    DataRate GetDataRate() const;

    /**
     * \param quanta PFC pause quanta
     * \return quanta * 512 bit times at this port's rate, rounded up to the
     *         simulator's resolution
     */
    Time GetPauseDuration(uint16_t quanta) const;

    /// \param cb called after each pause change (after the PauseState trace)
    void SetPauseChangeCallback(PauseChangeCallback cb);

    // ---- receive side ----

    /**
     * A MAC Control frame arrived intact: count it and, if it is a PFC frame, apply
     * the quanta of each class it enables (firing PfcRx first). Other opcodes are
     * ignored.
     * \param frame the frame without its Ethernet header (its MAC Control header
     *        is removed)
     */
    void Receive(const Ptr<Packet>& frame);

    /**
     * Apply one class's quanta: pause it for their duration from now (restarting a
     * pause in progress), or end its pause if quanta is 0.
     * \param cls the class, 0..7 (aborts otherwise)
     * \param quanta the quanta
     */
    void ApplyPause(uint8_t cls, uint16_t quanta);

    /// End every pause at once (the link went down), firing PauseState for each.
    void ResumeAll();

    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return true if the peer's PFC currently pauses the class
     */
    bool IsPaused(uint8_t cls) const;
    /// \return bit c set: class c is paused
    uint8_t GetPausedMask() const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return total time the class has been paused, including a pause in progress
     */
    Time GetPausedTime(uint8_t cls) const;

    // ---- send side ----

    /**
     * Build a PFC frame with its Ethernet header (to the MAC Control multicast
     * address): 60 bytes without FCS.
     * \param source the sender's MAC address
     * \param classVector the class-enable vector
     * \param quanta the eight quanta fields, class 0 first
     * \return the frame
     */
    static Ptr<Packet> MakeFrame(const Mac48Address& source,
                                 uint8_t classVector,
                                 const std::array<uint16_t, 8>& quanta);

    /**
     * Queue a PFC frame for the wire, behind the ones already waiting.
     * \param frame the frame (MakeFrame)
     * \param classVector its class-enable vector
     * \param quanta its quanta fields
     */
    void EnqueueFrame(const Ptr<Packet>& frame,
                      uint8_t classVector,
                      const std::array<uint16_t, 8>& quanta);

    /// \return true if a PFC frame waits for the wire
    bool HasPending() const;

    /**
     * Take the next waiting frame for the wire: it counts as sent and fires PfcTx
     * for each class it enables.
     * \return the frame, or null if none waits
     */
    Ptr<Packet> DequeueFrame();

    /**
     * Take the next waiting frame without sending it (the link went down).
     * \return the frame, or null if none waits
     */
    Ptr<Packet> DiscardFrame();

    /// \return PFC frames taken for the wire
    uint64_t GetTxFrames() const;
    /// \return MAC Control frames received (PFC or not)
    uint64_t GetRxFrames() const;

  protected:
    void DoDispose() override;

  private:
    /// A PFC frame waiting for the wire.
    struct Pending
    {
        Ptr<Packet> frame;              //!< the frame with Ethernet header
        uint8_t vector;                 //!< class-enable vector
        std::array<uint16_t, 8> quanta; //!< quanta, class 0 first
    };

    /// The pause of a class expired or was ended.
    void Resume(uint8_t cls);
    /// Close the pause of a paused class and report it (no timer handling).
    void EndPause(uint8_t cls);

    /// The per-class pause record, allocated at the first pause.
    struct PauseRecord
    {
        std::array<Time, 8> pauseStart;     //!< when the current pause began
        std::array<Time, 8> pausedTotal;    //!< finished pauses' total
        std::array<EventId, 8> resumeEvent; //!< pause expiry
    };

    /// \return the pause record, allocated on first use
    PauseRecord& Pauses();

    uint64_t m_bps;                       //!< line rate in bit/s
    DataRate m_rate;                      //!< line rate
    uint8_t m_paused;                     //!< bit c set: class c paused by the peer
    std::unique_ptr<PauseRecord> m_pause; //!< pause record, null until the first pause
    MrcRing<Pending> m_pending;           //!< frames waiting for the wire, head first
    uint64_t m_txFrames;                  //!< PFC frames sent
    uint64_t m_rxFrames;                  //!< MAC Control frames received
    PauseChangeCallback m_pauseChange;    //!< owner hook

    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;  //!< PfcTx
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;  //!< PfcRx
    TracedCallback<uint8_t, bool> m_pauseStateTrace; //!< PauseState
};

} // namespace ns3

#endif /* MRC_PFC_PORT_H */
