/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UEC_PULL_PACER_H
#define MRC_UEC_PULL_PACER_H

#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class MrcRdmaNic;
class MrcUecQueuePair;

/**
 * \ingroup mrc
 * The receiver-credit (RCCC) pull pacer of one NIC, after the UEC reference simulator
 * (htsim uec.cpp UecPullPacer; main_uec.cpp makes one per NIC at 0.99 x link rate):
 * responders (sinks) whose sender asked for credit wait in an active queue and are
 * served round robin, one pull of CreditPerPull bytes (never beyond the pull target)
 * each; a sink whose target is met moves to an idle queue, where it gets speculative
 * ("slow") pulls while no sink is active, until it holds MaxCredit beyond its target.
 * After a pull of q bytes the next one waits q x 8 / (RateFactor x the NIC's port
 * rates), or the time of 1,024 B when nothing was granted. The NIC's RCCC requesters
 * register here too: their number with data to send divides each one's pull target.
 * Aggregated to the NIC on first use (MrcUecPullPacer::Of).
 */
class MrcUecPullPacer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param nic the NIC \return its pacer (created and aggregated when missing)
    static Ptr<MrcUecPullPacer> Of(Ptr<MrcRdmaNic> nic);

    /// \return credit quanta of one pull
    int64_t QuantaPerPull() const;

    /// A sink asks for pulls (it was in no queue). \param sink the responder
    void RequestPull(Ptr<MrcUecQueuePair> sink);

    /// \param qp a requester with receiver credit on this NIC
    void AddSource(Ptr<MrcUecQueuePair> qp);

    /// \return the registered requesters with data to send (new or retransmissions)
    uint32_t ActiveSources() const;

  protected:
    void DoDispose() override;

  private:
    /// Serve the next sink.
    void Next();

    double m_rateFactor{0.99};                   //!< RateFactor
    uint32_t m_creditPerPull{16384};             //!< CreditPerPull
    double m_bitRate{0};                         //!< pull rate (credit bits per second)
    bool m_running{false};                       //!< a pull is scheduled
    EventId m_event;                             //!< the next pull
    std::deque<Ptr<MrcUecQueuePair>> m_active;   //!< sinks below their pull target
    std::deque<Ptr<MrcUecQueuePair>> m_idle;     //!< sinks getting speculative pulls
    std::vector<Ptr<MrcUecQueuePair>> m_sources; //!< RCCC requesters of this NIC
};

} // namespace ns3

#endif /* MRC_UEC_PULL_PACER_H */
