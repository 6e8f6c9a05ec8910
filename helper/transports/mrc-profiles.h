/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PROFILES_H
#define MRC_PROFILES_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Named parameter profiles (--profile=NAME): ordered lists of attribute defaults.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One setting of a profile: an attribute default and where its value comes from.
 */
struct MrcProfileSetting
{
    std::string path;   //!< "ns3::Class::Attribute", as Config::SetDefault takes it
    std::string value;  //!< the value in the attribute's string syntax
    std::string source; //!< where the value comes from
};

/**
 * \ingroup mrc
 * What a profile's rate- and delay-dependent values are computed for.
 */
struct MrcProfileContext
{
    DataRate hostRate{"100Gbps"};    //!< host link rate (ECN thresholds, DCQCN AI/HAI, buffer)
    Time linkDelay{MicroSeconds(1)}; //!< one-way link delay (PFC headroom)
};

/**
 * \ingroup mrc
 * The registry of named profiles. A profile is an ordered list of
 * (attribute path, value) pairs applied with Config::SetDefault, so it must be applied
 * before the objects it configures are created; options given later on the command
 * line (--ns3::Class::Attribute=value) override it when parsed after Apply.
 *
 * Profiles (GetNames; doc/mrc.rst gives each one's values and sources): `mrc`; `roce-deployed`
 * (RoCE as operators deploy it), `roce-ar` (the same on switches with adaptive routing and
 * NICs that place out of order), `roce-hpcc` (the HPCC simulator's run.py DCQCN values),
 * `roce-paper` (the DCQCN paper's values); `uec-htsim` and its receiver-credit variants. Attribute
 * names of classes written in other parts of the module (ns3::MrcDcqcn) are listed in one table in
 * mrc-profiles.cc, marked for adjustment.
 */
class MrcProfiles
{
  public:
    /// \return the profile names, sorted
    static std::vector<std::string> GetNames();

    /// \param name a profile name \return true if it exists
    static bool Exists(const std::string& name);

    /**
     * The settings of a profile, in application order. Aborts on an unknown name,
     * listing the valid ones.
     * \param name the profile
     * \param ctx the rate and delay the values are computed for
     * \return the settings
     */
    static std::vector<MrcProfileSetting> GetSettings(const std::string& name,
                                                      const MrcProfileContext& ctx = {});

    /**
     * Check every setting of a profile (class registered, attribute exists, value
     * valid) and then apply them all with Config::SetDefault. Aborts naming the first
     * bad setting (nothing is applied then), or on an unknown profile name listing the
     * valid ones.
     * \param name the profile
     * \param ctx the rate and delay the values are computed for
     */
    static void Apply(const std::string& name, const MrcProfileContext& ctx = {});

    /**
     * Find `--profile=NAME` (or `--profile NAME`) among program arguments, so a program
     * can apply the profile *before* CommandLine::Parse and let explicit
     * `--ns3::Class::Attribute=value` options override it:
     * \code
     *   std::string p = MrcProfiles::FindProfileArgument(argc, argv);
     *   if (!p.empty()) { MrcProfiles::Apply(p, ctx); }
     *   cmd.AddValue("profile", "named parameter profile", profile); // for --PrintHelp
     *   cmd.Parse(argc, argv);
     * \endcode
     * \param argc argument count
     * \param argv arguments
     * \return the last profile name given, or empty
     */
    static std::string FindProfileArgument(int argc, char** argv);

    /**
     * \param setting a setting
     * \return empty if the setting can be applied, else why not (naming it)
     */
    static std::string Check(const MrcProfileSetting& setting);

    /**
     * The settings as a JSON object for summary.json:
     * {"name": "...", "settings": [{"path": "...", "value": "...", "source": "..."}, ...]}.
     * \param name the profile
     * \param ctx the rate and delay the values are computed for
     * \return the JSON text
     */
    static std::string ToJson(const std::string& name, const MrcProfileContext& ctx = {});
};

} // namespace ns3

#endif /* MRC_PROFILES_H */
