/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EV_PROFILE_H
#define MRC_EV_PROFILE_H

#include "ns3/mrc-usid.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * MRC EV profiles: how a queue pair gets its entropy values (EVs).
 *
 * The MRC controller API [OCP MRC `mrc_ctl.h`] defines an EV profile as either a generated
 * set (mode GEN) or an explicit array (mode EXP), with a format (SRv6 or structured EV /
 * ECMP), an EV count and ev_min_active. The model's generator follows the paper: 128-256
 * EVs per QP, equal numbers per plane, paths random within a plane, no coordination between
 * senders [Araujo et al., arXiv:2605.04333, sec. 2.1, 2.4], plus a backup set from which
 * retired EVs are replaced within the same plane [ibid. sec. 4].
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One candidate path (and, after generation, one EV) of a QP: the plane (0-based NIC port
 * number) and either an SRv6 uSID carrier (SRv6 format) or no carrier (structured / ECMP
 * format, where the switches hash the EV bits).
 *
 * `value` is the 32-bit EV that rides in the UDP source port and flow label and that the
 * responder echoes. In SRv6 format it is the model's SRv6 EV (MrcSrv6EvMake: plane in
 * bits 15..12, T0 uplink in bits 7..0); in structured format a 16-bit value.
 * Values must be unique within a QP, since the echoed EV is how feedback finds its entry.
 */
struct MrcEvCandidate
{
    uint32_t plane{0};      //!< 0-based plane (NIC port number - 1)
    uint32_t value{0};      //!< the 32-bit EV carried on the wire
    bool hasCarrier{false}; //!< true in SRv6 format
    MrcUsidCarrier carrier; //!< outer destination address (SRv6 format only)

    /**
     * An SRv6 candidate from a topology path. The EV value is MrcSrv6EvMake(plane, k) where
     * k is the index of the carrier's first T1 uSID (the T0 uplink number in a 2-tier Clos),
     * or 0 when the carrier names no T1 (a T0-local path; the EV then selects the plane only).
     * \param plane 0-based plane (0..14)
     * \param carrier the path's uSID carrier
     * \return the candidate
     */
    static MrcEvCandidate FromCarrier(uint32_t plane, const MrcUsidCarrier& carrier);

    /**
     * A structured / ECMP candidate.
     * \param plane 0-based plane
     * \param value16 the 16-bit EV value
     * \return the candidate (no carrier)
     */
    static MrcEvCandidate Structured(uint32_t plane, uint16_t value16);
};

/**
 * \ingroup mrc
 * The EVs a profile gives one QP: an active set and a backup set.
 */
struct MrcEvSet
{
    std::vector<MrcEvCandidate> active; //!< EVs in use at QP start
    std::vector<MrcEvCandidate> backup; //!< spares, taken per plane when an active EV retires
    uint32_t evMinActive{0};            //!< floor on the active set (see MrcEvTable)
};

/**
 * \ingroup mrc
 * An MRC EV profile: format, EV count and backup size (generated mode), or explicit arrays.
 * One profile object may serve many QPs (as a controller profile id does); each call of
 * Generate() draws fresh random choices from the profile's stream.
 *
 * Generation (mode GEN): the EV count is split equally over the planes; if the planes do not
 * divide it, the lowest-numbered planes get one EV more (our choice). The backup count is
 * split the same way. Within a plane the candidates are shuffled and the first ones become
 * active, the next ones backup; a plane with too few candidates gets all of them as active
 * first, then as backup (no path is used twice). In structured format with no candidates,
 * random distinct 16-bit values 1..65535 are drawn (ECMP: switches hash them).
 */
class MrcEvProfile : public Object
{
  public:
    /// EV format of the profile.
    enum Format : uint8_t
    {
        SRV6,       //!< one uSID carrier per EV, IPv6-in-IPv6; switches ignore the EV bits
        STRUCTURED, //!< EV bits in UDP source port and flow label; switches hash them (ECMP/STEV)
    };

    /// Profile mode of the controller API.
    enum Mode : uint8_t
    {
        GENERATED, //!< GEN: the generator picks EVs from candidate paths
        EXPLICIT,  //!< EXP: the user gives the arrays
    };

    /// \return the TypeId
    static TypeId GetTypeId();

    MrcEvProfile();
    ~MrcEvProfile() override;

    /// \return the format
    Format GetFormat() const;
    /// \param format the format
    void SetFormat(Format format);
    /// \return the mode (GENERATED unless SetExplicit was called)
    Mode GetMode() const;
    /// \return the number of active EVs a generated QP gets (EvCount attribute)
    uint32_t GetEvCount() const;
    /// \return the number of backup EVs a generated QP gets (BackupCount attribute)
    uint32_t GetBackupCount() const;

    /**
     * \param activeCount size of the active set
     * \return the ev_min_active floor: the EvMinActive attribute, or activeCount / 4 when it
     *         is 0 (the controller API's examples use ev_count / 4)
     */
    uint32_t GetEvMinActive(uint32_t activeCount) const;

    /**
     * Switch to mode EXPLICIT with the given arrays. Values must be unique; in SRv6 format
     * every entry needs a carrier (checked by Generate).
     * \param active the active EVs
     * \param backup the backup EVs
     */
    void SetExplicit(const std::vector<MrcEvCandidate>& active,
                     const std::vector<MrcEvCandidate>& backup);

    /**
     * Build the EV set of one QP.
     *
     * GENERATED: split EvCount and BackupCount over `numPlanes` planes and choose randomly
     * among each plane's candidates. EXPLICIT: return the arrays (candidates ignored).
     * Aborts on: numPlanes 0 or > 15 (SRv6) / > 32 (structured); a candidate plane >=
     * numPlanes; duplicate values; SRv6 format with a candidate without a carrier; SRv6 format
     * with no candidates.
     * \param numPlanes number of planes (NIC ports) of the QP
     * \param candidates per-plane candidate paths (any order); may be empty in structured format
     * \return the active and backup sets and ev_min_active
     */
    MrcEvSet Generate(uint32_t numPlanes, const std::vector<MrcEvCandidate>& candidates);

    /**
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /**
     * SpreadOverPaths: order the first `take` candidates of a plane by dealing them over
     * their paths (candidates sharing a carrier) in turn.
     * \param cands the plane's candidates, reordered in place (only [0, take) is defined)
     * \param take how many are needed
     * \return false (nothing drawn or changed) when every candidate is a path of its own
     */
    bool DealOverPaths(std::vector<MrcEvCandidate>& cands, uint32_t take);

    /**
     * Order the first `take` candidates of a plane as without PinFirstPath: dealt over their
     * paths (SpreadOverPaths) or a partial Fisher-Yates draw.
     * \param cands the plane's candidates, reordered in place (only [0, take) is defined)
     * \param take how many are needed
     */
    void Draw(std::vector<MrcEvCandidate>& cands, uint32_t take);

    /**
     * PinFirstPath: the plane's active EVs from the candidates of its first path (the first
     * candidate's carrier), the rest of the active set and the backups drawn from the other
     * paths; spare candidates of the first path are the last backups.
     * \param cands the plane's candidates (the first has a carrier)
     * \param wantActive active EVs wanted on this plane
     * \param wantBackup backup EVs wanted on this plane
     * \param set the QP's set, appended to
     */
    void PinFirstPath(const std::vector<MrcEvCandidate>& cands,
                      uint32_t wantActive,
                      uint32_t wantBackup,
                      MrcEvSet& set);

    /// Abort unless values are unique and the format's carrier rule holds.
    void Check(const std::vector<MrcEvCandidate>& evs, uint32_t numPlanes) const;

    Format m_format;                              //!< Format attribute
    Mode m_mode;                                  //!< GENERATED or EXPLICIT
    uint32_t m_evCount;                           //!< EvCount attribute
    uint32_t m_backupCount;                       //!< BackupCount attribute
    uint32_t m_evMinActive;                       //!< EvMinActive attribute (0 = count / 4)
    bool m_spreadOverPaths;                       //!< SpreadOverPaths attribute
    bool m_pinFirstPath;                          //!< PinFirstPath attribute
    std::vector<MrcEvCandidate> m_explicitActive; //!< EXPLICIT active array
    std::vector<MrcEvCandidate> m_explicitBackup; //!< EXPLICIT backup array
    Ptr<UniformRandomVariable> m_rng;             //!< path choice
};

} // namespace ns3

#endif /* MRC_EV_PROFILE_H */
