/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORK_REQUEST_H
#define MRC_WORK_REQUEST_H

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <string>

/**
 * \file
 * \ingroup mrc
 * Work requests, work completions and queue-pair error codes shared by every transport
 * (RoCE RC, UEC RUD, MRC), in the spirit of the verbs API.
 */

namespace ns3
{

/// The operation of a send work request.
enum class MrcWrOpcode : uint8_t
{
    WRITE = 0,          ///< RDMA Write
    WRITE_WITH_IMM = 1, ///< RDMA Write with Immediate Data (the responder gets a completion)
};

/**
 * \ingroup mrc
 * A send work request, as posted with MrcQueuePair::PostSend.
 *
 * The payload is virtual (the simulator carries sizes, not bytes): the responder
 * records where each byte lands in the registered region named by rkey.
 */
struct MrcWorkRequest
{
    uint64_t id{0};                         //!< caller's identifier, echoed in the completion
    MrcWrOpcode opcode{MrcWrOpcode::WRITE}; //!< Write or Write with Immediate
    uint64_t remoteAddress{0};              //!< remote virtual address of the first byte
    uint32_t rkey{0};                       //!< remote key of the target memory region
    uint32_t length{0};                     //!< bytes to write (RETH DMA length is 32 bits)
    uint32_t immediate{0};                  //!< immediate data (WRITE_WITH_IMM only)
};

/// Status of a work completion.
enum class MrcWcStatus : uint8_t
{
    SUCCESS = 0,             ///< the whole message was acknowledged
    RETRY_EXCEEDED = 1,      ///< the transport gave up after its retry count (QP is in error)
    REMOTE_ACCESS_ERROR = 2, ///< the responder rejected the rkey or the address range
    FLUSHED = 3,             ///< not executed: the QP entered the error state first
    REMOTE_OP_ERROR = 4,     ///< the responder reported another error
    LOCAL_OP_ERROR = 5,      ///< the request itself was invalid for the transport
};

/// \param s a status \return its name ("success", "retry-exceeded", ...)
inline std::string
MrcWcStatusName(MrcWcStatus s)
{
    switch (s)
    {
    case MrcWcStatus::SUCCESS:
        return "success";
    case MrcWcStatus::RETRY_EXCEEDED:
        return "retry-exceeded";
    case MrcWcStatus::REMOTE_ACCESS_ERROR:
        return "remote-access-error";
    case MrcWcStatus::FLUSHED:
        return "flushed";
    case MrcWcStatus::REMOTE_OP_ERROR:
        return "remote-op-error";
    case MrcWcStatus::LOCAL_OP_ERROR:
        return "local-op-error";
    }
    return "unknown";
}

/// \param os stream \param s status \return os after writing MrcWcStatusName(s)
inline std::ostream&
operator<<(std::ostream& os, MrcWcStatus s)
{
    return os << MrcWcStatusName(s);
}

/**
 * \ingroup mrc
 * Completion of a send work request at the requester.
 */
struct MrcWorkCompletion
{
    uint64_t wrId{0};                         //!< the work request's id
    uint32_t qpn{0};                          //!< the local queue pair
    MrcWcStatus status{MrcWcStatus::SUCCESS}; //!< outcome
    MrcWrOpcode opcode{MrcWrOpcode::WRITE};   //!< the work request's operation
    uint32_t bytes{0};                        //!< the work request's length
    Time start;                               //!< when it was posted
    Time end;                                 //!< when it completed (last ACK, or error)
};

/**
 * \ingroup mrc
 * A message that arrived completely at a responder (every byte placed). For
 * WRITE_WITH_IMM this is the verbs receive completion; for plain Writes it is only
 * reported through the QP's MessageReceived trace.
 */
struct MrcRecvCompletion
{
    uint32_t qpn{0};          //!< the local (responder) queue pair
    uint32_t rkey{0};         //!< region written
    uint64_t address{0};      //!< first byte's address
    uint32_t bytes{0};        //!< message length
    bool hasImmediate{false}; //!< the message carried immediate data
    uint32_t immediate{0};    //!< the immediate data
    Time firstPacket;         //!< arrival of its first packet
    Time end;                 //!< arrival of its last packet
};

/**
 * Life-cycle state of a queue pair (a subset of the verbs states). Connect() walks
 * RESET -> INIT -> RTR -> RTS in one call; MrcQueuePair::ModifyToInit, ModifyToRtr and
 * ModifyToRts take the steps one at a time. The numeric values of RESET, RTS and ERROR
 * predate INIT and RTR and are kept.
 */
enum class MrcQpState : uint8_t
{
    RESET = 0, ///< created, not connected
    RTS = 1,   ///< connected: ready to send and receive
    ERROR = 2, ///< failed; outstanding work requests were completed with an error status
    INIT = 3,  ///< initialised (profiles chosen), peer not known yet: no traffic
    RTR = 4,   ///< ready to receive: the peer is known, arrivals are processed, no sends
};

/// \param s a state \return its name ("RESET", "INIT", "RTR", "RTS", "ERROR")
inline std::string
MrcQpStateName(MrcQpState s)
{
    switch (s)
    {
    case MrcQpState::RESET:
        return "RESET";
    case MrcQpState::INIT:
        return "INIT";
    case MrcQpState::RTR:
        return "RTR";
    case MrcQpState::RTS:
        return "RTS";
    case MrcQpState::ERROR:
        return "ERROR";
    }
    return "unknown";
}

/// \param os stream \param s state \return os after writing MrcQpStateName(s)
inline std::ostream&
operator<<(std::ostream& os, MrcQpState s)
{
    return os << MrcQpStateName(s);
}

/// Why a queue pair entered the error state.
enum class MrcQpError : uint8_t
{
    NONE = 0,                  ///< not in error
    RETRY_EXCEEDED = 1,        ///< retransmission timer expired more often than the retry count
    REMOTE_ACCESS_ERROR = 2,   ///< peer NAKed a Write (rkey or bounds)
    LOCAL_ACCESS_ERROR = 3,    ///< (responder) an arriving Write named an unknown rkey or range
    REMOTE_OP_ERROR = 4,       ///< peer NAKed with another error
    UNSUPPORTED_OPERATION = 5, ///< a request named an operation the transport lacks (MRC)
};

/// \param e an error \return its name ("none", "retry-exceeded", ...)
inline std::string
MrcQpErrorName(MrcQpError e)
{
    switch (e)
    {
    case MrcQpError::NONE:
        return "none";
    case MrcQpError::RETRY_EXCEEDED:
        return "retry-exceeded";
    case MrcQpError::REMOTE_ACCESS_ERROR:
        return "remote-access-error";
    case MrcQpError::LOCAL_ACCESS_ERROR:
        return "local-access-error";
    case MrcQpError::REMOTE_OP_ERROR:
        return "remote-op-error";
    case MrcQpError::UNSUPPORTED_OPERATION:
        return "unsupported-operation";
    }
    return "unknown";
}

/// \param os stream \param e error \return os after writing MrcQpErrorName(e)
inline std::ostream&
operator<<(std::ostream& os, MrcQpError e)
{
    return os << MrcQpErrorName(e);
}

/**
 * \ingroup mrc
 * A posted send work request as a transport tracks it: the request, its post time and
 * its place in the transport's packet sequence. Transports that number packets (all
 * three do) assign firstSeq and nPackets at post time; sequence numbers here are the
 * transport's unwrapped 64-bit counters (the wire carries them modulo 2^24).
 */
struct MrcSendWqe
{
    MrcWorkRequest wr;     //!< the request
    Time posted;           //!< when PostSend accepted it
    uint64_t firstSeq{0};  //!< sequence number of its first packet
    uint32_t nPackets{0};  //!< packets it takes (at least 1, also for length 0)
    uint64_t firstByte{0}; //!< offset of its first byte in the QP's send byte stream

    /// \return sequence number one past its last packet
    uint64_t EndSeq() const
    {
        return firstSeq + nPackets;
    }
};

} // namespace ns3

#endif /* MRC_WORK_REQUEST_H */
