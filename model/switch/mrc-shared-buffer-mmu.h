/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SHARED_BUFFER_MMU_H
#define MRC_SHARED_BUFFER_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Shared-buffer switch MMU: ingress reserve, shared pool with a dynamic PFC
 * threshold, PFC headroom, and an egress dynamic threshold for lossy queues.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Memory management unit of a shared-buffer switch with N ports x 8 priorities.
 *
 * Pure accounting and decisions, no packets and no device: the switch calls Admit()
 * when a packet arrives (before it enqueues it on the egress port) and Release() when
 * the egress port dequeues it, then asks ShouldPause()/ShouldResume() for the ingress
 * queue and sends PFC frames accordingly.
 *
 * The buffer (BufferSize bytes) is split into
 * - a reserve of ReservePerQueue bytes for every (ingress port, priority);
 * - a headroom for every lossless (PFC-enabled) (ingress port, priority);
 * - the shared pool: whatever is left.
 *
 * An arriving packet is charged to its ingress queue: first to the queue's free
 * reserve, then to the shared pool, then (lossless only) to the queue's headroom.
 * The ingress queue's shared use may grow while it stays within the dynamic threshold
 * T = alpha x (free shared bytes) (PfcAlpha; per-port override with SetPfcAlpha). A
 * lossless packet that would take the queue above T, or that does not fit in the
 * pool, goes to headroom; when headroom is full too it is dropped
 * (DROP_HEADROOM_FULL). A lossy packet never uses headroom: it is dropped when its
 * egress queue would exceed LossyEgressAlpha x (free shared bytes)
 * (DROP_EGRESS_LIMIT) or when the pool has no room (DROP_SHARED_FULL). Bytes that
 * fit in the ingress reserve are always admitted. A packet is lossless when PFC is
 * enabled on its ingress (port, priority).
 *
 * PFC: a lossless ingress queue asks for XOFF when it holds headroom bytes or its
 * shared use reaches T, and for XON when its headroom is empty and its shared use is
 * zero or at most T - ResumeOffset.
 */
class MrcSharedBufferMmu : public Object
{
  public:
    /// Number of priorities (traffic classes) per port.
    static constexpr uint32_t N_PRIO = 8;

    /// Result of Admit().
    enum Decision : uint8_t
    {
        ADMIT = 0,              //!< accepted and accounted
        DROP_SHARED_FULL = 1,   //!< lossy packet, no room in the shared pool
        DROP_HEADROOM_FULL = 2, //!< lossless packet above threshold, headroom full
        DROP_EGRESS_LIMIT = 3,  //!< lossy packet, egress queue above its dynamic threshold
    };

    /// Number of Decision values.
    static constexpr uint32_t N_DECISIONS = 4;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSharedBufferMmu();
    ~MrcSharedBufferMmu() override;

    /// \return a readable name of a decision ("ADMIT", "DROP_SHARED_FULL", ...)
    static std::string DecisionName(Decision d);

    /**
     * Headroom that absorbs what is in flight while a PAUSE takes effect, as the
     * HPCC simulator sizes it: 3 x rate x one-way link delay, in bytes (rounded up).
     * \param rate link rate
     * \param linkDelay one-way propagation delay of the link
     * \return bytes (37,500 at 100 Gb/s and 1 us)
     */
    static uint64_t ComputeHeadroom(DataRate rate, Time linkDelay);

    /**
     * Size the MMU for a number of ports and reset all state. Every (port, prio) gets
     * the Headroom attribute as headroom, PFC enabled on the priorities of
     * PfcPriorityMask, and PfcAlpha. Aborts if reserve and headroom exceed the buffer.
     * \param nPorts number of ports (indices 0..nPorts-1)
     */
    void ConfigurePorts(uint32_t nPorts);

    /// \return the number of ports set by ConfigurePorts
    uint32_t GetNPorts() const;

    /**
     * Set the headroom of every priority of a port. Aborts if the buffer no longer
     * holds reserve and headroom.
     * \param port port index
     * \param bytes headroom in bytes
     */
    void SetHeadroom(uint32_t port, uint64_t bytes);

    /**
     * Set the headroom of one (port, priority).
     * \param port port index
     * \param prio priority 0..7
     * \param bytes headroom in bytes
     */
    void SetHeadroom(uint32_t port, uint8_t prio, uint64_t bytes);

    /// \return the configured headroom of (port, prio) in bytes
    uint64_t GetHeadroom(uint32_t port, uint8_t prio) const;

    /**
     * Make (port, prio) lossless (PFC on: headroom reserved, never dropped below it) or
     * lossy. Only while the queue is empty.
     * \param port port index
     * \param prio priority 0..7
     * \param enabled true for lossless
     */
    void SetPfcEnabled(uint32_t port, uint8_t prio, bool enabled);

    /// \return true if (port, prio) is lossless
    bool IsPfcEnabled(uint32_t port, uint8_t prio) const;

    /**
     * Override the dynamic-threshold factor of one ingress port (the HPCC simulator
     * doubles it for each doubling of the port rate over the NIC rate).
     * \param port port index
     * \param alpha factor, > 0
     */
    void SetPfcAlpha(uint32_t port, double alpha);

    /// \return the dynamic-threshold factor of a port
    double GetPfcAlpha(uint32_t port) const;

    /**
     * Decide whether a packet may enter the buffer and, if so, account for it.
     * \param inPort ingress port
     * \param inPrio ingress priority (the PFC class)
     * \param outPort egress port
     * \param outPrio egress priority (the egress queue)
     * \param bytes packet size as buffered
     * \return ADMIT, or the reason for a drop (counted)
     */
    Decision Admit(uint32_t inPort,
                   uint8_t inPrio,
                   uint32_t outPort,
                   uint8_t outPrio,
                   uint32_t bytes);

    /**
     * Return the bytes of an admitted packet when the egress port dequeues it (or
     * discards it). Takes from the ingress queue's headroom first, then its shared
     * use, then its reserve.
     * \param inPort ingress port given to Admit
     * \param inPrio ingress priority given to Admit
     * \param outPort egress port given to Admit
     * \param outPrio egress priority given to Admit
     * \param bytes size given to Admit
     */
    void Release(uint32_t inPort,
                 uint8_t inPrio,
                 uint32_t outPort,
                 uint8_t outPrio,
                 uint32_t bytes);

    /**
     * XOFF check, after Admit: true when the lossless ingress queue is not paused and
     * holds headroom bytes or its shared use is at least the threshold. A true answer
     * records the queue as paused (the caller sends PAUSE upstream).
     * \param inPort ingress port
     * \param prio priority
     * \return true if a PAUSE must be sent now
     */
    bool ShouldPause(uint32_t inPort, uint8_t prio);

    /**
     * XON check, after Release: true when the queue is paused, its headroom is empty,
     * and its shared use is 0 or at most threshold - ResumeOffset. A true answer
     * records the queue as running (the caller sends RESUME upstream).
     * \param inPort ingress port
     * \param prio priority
     * \return true if a RESUME must be sent now
     */
    bool ShouldResume(uint32_t inPort, uint8_t prio);

    /// \return true if (port, prio) is recorded as paused
    bool IsPaused(uint32_t port, uint8_t prio) const;

    /// \return the PFC dynamic threshold of an ingress port now: alpha x free shared bytes
    uint64_t GetPfcThreshold(uint32_t port) const;

    /// \return the egress dynamic threshold of lossy queues now
    uint64_t GetEgressThreshold() const;

    /// \return bytes of (port, prio) held in reserve and shared pool (not headroom)
    uint64_t GetIngressBytes(uint32_t port, uint8_t prio) const;
    /// \return bytes of (port, prio) held in the shared pool
    uint64_t GetSharedBytes(uint32_t port, uint8_t prio) const;
    /// \return bytes of (port, prio) held in headroom
    uint64_t GetHeadroomBytes(uint32_t port, uint8_t prio) const;
    /// \return bytes queued for egress (port, prio)
    uint64_t GetEgressBytes(uint32_t port, uint8_t prio) const;
    /// \return size of the shared pool: buffer - reserves - lossless headrooms
    uint64_t GetSharedPoolSize() const;
    /// \return bytes of the shared pool in use
    uint64_t GetSharedPoolUsed() const;
    /// \return all bytes held by the buffer
    uint64_t GetTotalBytes() const;
    /// \return packets dropped for a reason
    uint64_t GetDropPackets(Decision reason) const;
    /// \return bytes dropped for a reason
    uint64_t GetDropBytes(Decision reason) const;

    /**
     * TracedCallback signature for drops.
     * \param inPort ingress port
     * \param inPrio ingress priority
     * \param outPort egress port
     * \param outPrio egress priority
     * \param bytes packet size
     * \param reason the Decision
     */
    typedef void (*DropTracedCallback)(uint32_t inPort,
                                       uint8_t inPrio,
                                       uint32_t outPort,
                                       uint8_t outPrio,
                                       uint32_t bytes,
                                       uint8_t reason);

    /**
     * TracedCallback signature for PFC state changes.
     * \param port ingress port
     * \param prio priority
     * \param paused true on XOFF, false on XON
     */
    typedef void (*PfcTracedCallback)(uint32_t port, uint8_t prio, bool paused);

  private:
    /// Per (port, priority) ingress state (aligned: no entry straddles two cache lines).
    struct alignas(32) Ingress
    {
        uint64_t bytes{0};         //!< reserve + shared bytes
        uint64_t headroom{0};      //!< bytes held in headroom
        uint64_t headroomLimit{0}; //!< configured headroom
        bool lossless{false};      //!< PFC enabled
        bool paused{false};        //!< XOFF sent and not yet resumed
    };

    static_assert(sizeof(Ingress) == 32, "two ingress entries to a cache line, none across two");

    std::size_t Index(uint32_t port, uint8_t prio) const;

    void CheckIndex(uint32_t port, uint8_t prio, const char* what) const
    {
        if (port >= m_nPorts || prio >= N_PRIO)
        {
            AbortIndex(port, prio, what);
        }
    }

    /// Abort naming an out-of-range (port, priority) (CheckIndex's cold path).
    [[noreturn]] void AbortIndex(uint32_t port, uint8_t prio, const char* what) const;
    uint64_t SharedOf(const Ingress& q) const;
    uint64_t FreeShared() const;
    void Recompute();
    /// Set q's headroom limit and keep m_headroomSum up to date. \param q the queue \param bytes
    /// the limit
    void SetHeadroomLimit(Ingress& q, uint64_t bytes);
    void SetBufferSize(uint64_t bytes);
    uint64_t GetBufferSize() const;
    void SetReserve(uint64_t bytes);
    uint64_t GetReserve() const;
    Decision Drop(uint32_t inPort,
                  uint8_t inPrio,
                  uint32_t outPort,
                  uint8_t outPrio,
                  uint32_t bytes,
                  Decision reason);

    uint64_t m_bufferSize;      //!< BufferSize attribute
    uint64_t m_reserve;         //!< ReservePerQueue attribute
    uint64_t m_defaultHeadroom; //!< Headroom attribute (used by ConfigurePorts)
    double m_alpha;             //!< PfcAlpha attribute
    uint64_t m_resumeOffset;    //!< ResumeOffset attribute
    double m_egressAlpha;       //!< LossyEgressAlpha attribute
    uint8_t m_pfcMask;          //!< PfcPriorityMask attribute

    uint32_t m_nPorts{0};            //!< ports configured
    std::vector<Ingress> m_ingress;  //!< [port * N_PRIO + prio]
    std::vector<uint64_t> m_egress;  //!< [port * N_PRIO + prio]
    std::vector<double> m_portAlpha; //!< per-port PFC alpha
    uint64_t m_sharedPool{0};        //!< size of the shared pool
    uint64_t m_headroomSum{0};       //!< headroom limits of the lossless queues, summed
    uint64_t m_sharedUsed{0};        //!< shared pool in use
    uint64_t m_total{0};             //!< all bytes held
    std::array<uint64_t, N_DECISIONS> m_dropPackets{}; //!< drops per reason
    std::array<uint64_t, N_DECISIONS> m_dropBytes{};   //!< dropped bytes per reason

    TracedCallback<uint32_t, uint8_t, uint32_t, uint8_t, uint32_t, uint8_t> m_dropTrace; //!< Drop
    TracedCallback<uint32_t, uint8_t, bool> m_pfcTrace; //!< PfcStateChanged
};

} // namespace ns3

#endif /* MRC_SHARED_BUFFER_MMU_H */
