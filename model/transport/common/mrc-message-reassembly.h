/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MESSAGE_REASSEMBLY_H
#define MRC_MESSAGE_REASSEMBLY_H

#include "ns3/mrc-work-request.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>

/**
 * \file
 * \ingroup mrc
 * Message reassembly of a sprayed responder: the bytes of each message as its packets are
 * placed in any order, and the messages reported in MSN order.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The messages a sprayed responder (UEC RUD, MRC) is receiving, by message sequence
 * number. Packets of a message arrive in any order and are placed on arrival (each
 * carries its own RETH); this keeps per message the bytes placed so far, the lowest
 * address, the immediate and the arrival times, and hands the messages out in MSN order
 * once every byte of the next one is in. MSNs travel as 16 bits (METH); they are
 * unwrapped against the next MSN to report.
 */
class MrcMessageReassembly
{
  public:
    /**
     * Account for newly placed payload of a message.
     * \param msn the 16-bit MSN of the packet (METH)
     * \param length the message's length (RETH DMA length)
     * \param rkey the memory region key
     * \param va the address the payload was placed at
     * \param bytes the payload bytes placed
     * \param now the arrival time
     * \param hasImm the packet carries the message's immediate
     * \param imm that immediate
     * \return true if the next message to report is now complete (call PopComplete)
     */
    bool OnPlaced(uint16_t msn,
                  uint32_t length,
                  uint32_t rkey,
                  uint64_t va,
                  uint32_t bytes,
                  Time now,
                  bool hasImm,
                  uint32_t imm);

    /**
     * Take the next message in MSN order if every byte of it arrived.
     * \param rc [out] its completion (all fields but qpn)
     * \return false if the next message is not complete
     */
    bool PopComplete(MrcRecvCompletion& rc);

    /// \return true if a message after the reported ones has started arriving
    bool HasPending() const
    {
        return !m_msgs.empty();
    }

    /// \return messages reported so far (the unwrapped MSN of the next one)
    uint64_t GetNextMsn() const
    {
        return m_nextMsn;
    }

    /// \return messages with an immediate reported so far
    uint64_t GetImmediateCount() const
    {
        return m_immReported;
    }

  private:
    /// One message being received.
    struct Message
    {
        uint32_t length{0};    //!< RETH DMA length
        uint32_t received{0};  //!< payload bytes placed so far
        uint32_t rkey{0};      //!< region
        uint64_t minVa{~0ULL}; //!< lowest address seen (the first byte once complete)
        bool seen{false};      //!< at least one packet was placed
        bool hasImm{false};    //!< Write-with-Immediate
        uint32_t imm{0};       //!< its immediate
        Time first;            //!< first arrival
        Time last;             //!< last arrival
    };

    std::deque<Message> m_msgs; //!< from the next MSN to report on (index = MSN offset)
    uint64_t m_nextMsn{0};      //!< unwrapped MSN of m_msgs.front()
    uint64_t m_immReported{0};  //!< reported messages that carried an immediate
};

} // namespace ns3

#endif /* MRC_MESSAGE_REASSEMBLY_H */
