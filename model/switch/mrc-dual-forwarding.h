/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DUAL_FORWARDING_H
#define MRC_DUAL_FORWARDING_H

#include "mrc-ecmp-forwarding.h"
#include "mrc-forwarding.h"
#include "mrc-srv6-forwarding.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * A switch forwarding strategy that follows SRv6 uSIDs and hashes everything else (ECMP).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * SRv6 uN forwarding for packets whose outer destination lies in the fabric's uSID
 * locator block, ECMP for all other packets.
 *
 * MRC sends SRv6 source-routed packets, while the RoCE and UEC baselines (and MRC's
 * ECMP mode) address the destination NIC directly; one switch of a shared fabric must
 * serve both. The strategy owns one MrcSrv6Forwarding and one MrcEcmpForwarding
 * (GetSrv6, GetEcmp) and hands each packet to one of them: the SRv6 engine when the
 * first 32 bits of the outer destination equal its LocatorBlock, the ECMP engine
 * otherwise. Port state changes reach the ECMP engine only (SRv6 tables are static).
 * An SRv6 packet the static table cannot forward is dropped, never hashed.
 *
 * EcmpForwarding chooses the class of the ECMP engine (ns3::MrcEcmpForwarding or a
 * subclass: ns3::MrcAdaptiveForwarding, ns3::MrcFlowletForwarding); the port-load
 * callback of the switch reaches it.
 */
class MrcDualForwarding : public MrcForwarding
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcDualForwarding();
    ~MrcDualForwarding() override;

    /// \return the SRv6 engine (set its LocatorBlock and Usid, fill its table)
    Ptr<MrcSrv6Forwarding> GetSrv6() const;
    /// \return the ECMP engine (routes, Seed)
    Ptr<MrcEcmpForwarding> GetEcmp() const;

    /**
     * Set the locator block that selects SRv6 (also the SRv6 engine's LocatorBlock).
     * \param block the 32-bit block
     */
    void SetLocatorBlock(uint32_t block);
    /// \return the locator block
    uint32_t GetLocatorBlock() const;

    void SetPortState(uint32_t port, bool up) override;
    void SetPortLoadCallback(PortLoadCallback cb) override;

    /**
     * Replace the ECMP engine by a new one of this type (before routes are added).
     * \param tid a subclass of ns3::MrcEcmpForwarding
     */
    void SetEcmpType(TypeId tid);
    /// \return the type of the ECMP engine
    TypeId GetEcmpType() const;

  protected:
    int32_t DoRoute(MrcPacketInfo& info, uint32_t inPort) override;
    void DoDispose() override;

  private:
    Ptr<MrcSrv6Forwarding> m_srv6; //!< SRv6 engine
    Ptr<MrcEcmpForwarding> m_ecmp; //!< ECMP engine
    uint32_t m_locator;            //!< LocatorBlock attribute
    PortLoadCallback m_portLoad;   //!< handed to a replaced ECMP engine
};

} // namespace ns3

#endif /* MRC_DUAL_FORWARDING_H */
