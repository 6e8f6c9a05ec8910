/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-uec-wire.h"

#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-receive-bitmap.h"
#include "ns3/mrc-seth-header.h"

namespace ns3
{

Ptr<Packet>
MrcUecMakeAck(const MrcReceiveBitmap& win,
              uint32_t triggerPsn,
              uint32_t destQp,
              uint16_t ev,
              bool ecn,
              uint64_t rcvdBytes,
              uint8_t rcvCwndPend,
              bool restoreCwnd,
              bool icrcRoom)
{
    // the headers are reused (MrcFreshHeader): MrcAddHeaders adds their bytes at once
    static MrcSethHeader sethScratch;
    static MrcCcStateHeader ccScratch;
    static MrcBthHeader bthScratch;
    MrcSethHeader& seth = MrcFreshHeader(sethScratch);
    win.FillSeth(seth, triggerPsn);
    seth.SetEntropy(ev);
    seth.SetPathFeedback(ecn ? MrcPathFeedback::SKIP_ONCE : MrcPathFeedback::NONE);
    seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
    MrcCcStateHeader& cc = MrcFreshHeader(ccScratch);
    win.FillCcState(cc);
    cc.SetRcvdBytesUnits(MrcCcStateHeader::BytesToRcvdUnits(rcvdBytes));
    cc.SetRcvCwndPen(rcvCwndPend);
    cc.SetRestoreCwnd(restoreCwnd);
    Ptr<Packet> p = Create<Packet>(icrcRoom ? MrcIcrcTrailer::SERIALIZED_SIZE : 0);
    MrcBthHeader& bth = MrcFreshHeader(bthScratch);
    bth.SetOpcode(MrcOpcode::MRC_SACK);
    bth.SetDestQp(destQp);
    bth.SetPsn(win.GetCumulativePsn());
    MrcAddHeaders(p, {&bth, &seth, &cc}); // one AddHeader, the bytes of three
    return p;
}

Ptr<Packet>
MrcUecMakePull(const MrcReceiveBitmap& win,
               uint32_t destQp,
               uint16_t ev,
               uint32_t creditUnits,
               bool icrcRoom)
{
    MrcSethHeader seth;
    win.FillSeth(seth, win.GetCumulativePsn());
    seth.SetEntropy(ev);
    seth.SetCcType(MRC_UEC_CC_TYPE_RCCC);
    MrcCcStateHeader cc;
    win.FillCcState(cc);
    cc.SetRcvdBytesUnits(creditUnits & MrcCcStateHeader::RCVD_BYTES_MASK);
    Ptr<Packet> p = Create<Packet>(icrcRoom ? MrcIcrcTrailer::SERIALIZED_SIZE : 0);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_SACK);
    bth.SetDestQp(destQp);
    bth.SetPsn(win.GetCumulativePsn());
    MrcAddHeaders(p, {&bth, &seth, &cc});
    return p;
}

void
MrcUecReadAck(const uint8_t* ext, MrcUecAckFields& out)
{
    // Both headers are read from the received bytes (every ACK: no Buffer, no iterator),
    // into reused objects (MrcFreshHeader)
    static MrcSethHeader sethScratch;
    static MrcCcStateHeader ccScratch;
    MrcSethHeader& seth = MrcFreshHeader(sethScratch);
    seth.ReadBytes(ext);
    MrcCcStateHeader& cc = MrcFreshHeader(ccScratch);
    cc.ReadBytes(ext + MrcSethHeader::SIZE);
    out.cackPsn = seth.GetCackPsn();
    out.ackPsn = seth.GetAckPsn();
    out.sackBase = seth.GetSackBasePsn();
    out.sackBitmap = seth.GetSackBitmap();
    out.ev = static_cast<uint16_t>(seth.GetEntropy());
    out.probe = seth.IsProbeResponse();
    out.probeId = seth.GetProbeId();
    out.ecn = seth.GetPathFeedback() != MrcPathFeedback::NONE;
    out.rcvdUnits = cc.GetRcvdBytesUnits();
    out.oooCount = cc.GetOooCount();
    out.rcvCwndPend = cc.GetRcvCwndPen();
    out.restoreCwnd = cc.GetRestoreCwnd();
    out.ccType = seth.GetCcType();
}

} // namespace ns3
