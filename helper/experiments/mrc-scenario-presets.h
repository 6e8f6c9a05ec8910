/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_PRESETS_H
#define MRC_SCENARIO_PRESETS_H

#include <functional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The named scenarios of mrc-sim (`./ns3-mrc list`): a table of names, descriptions and
 * option presets written as command-line text.
 */

namespace ns3
{

class MrcScenarioOptions;

/**
 * \ingroup mrc
 * A named scenario: a one-line description and a preset of option defaults.
 *
 * The preset is text in the command line's own syntax ("--pattern=incast
 * --senders=7 ..."), read by the same MrcCommandLine that reads mrc-sim's arguments
 * (plus --pattern, which only presets set). `preset` applies it.
 */
struct MrcScenarioInfo
{
    std::string name;                                //!< the name
    std::string description;                         //!< one line
    std::string options;                             //!< the preset, as option text
    std::function<void(MrcScenarioOptions&)> preset; //!< sets the option defaults
};

/**
 * \ingroup mrc
 * The registry of scenarios (`./ns3-mrc list`).
 */
class MrcScenarios
{
  public:
    /// \return every scenario, in listing order
    static const std::vector<MrcScenarioInfo>& GetAll();
    /// \param name a name \return the scenario, or null
    static const MrcScenarioInfo* Find(const std::string& name);
    /// \return the names, in listing order
    static std::vector<std::string> GetNames();
    /// \return the transports mrc-sim accepts (MrcTransportTable's names)
    static std::vector<std::string> GetTransports();
    /**
     * \param transport a transport of GetTransports()
     * \return its default profile: roce-deployed (roce), uec-htsim (uec), mrc (mrc)
     */
    static std::string DefaultProfile(const std::string& transport);
    /// \param os where to print "name  description" lines
    static void PrintList(std::ostream& os);

    /**
     * Set option defaults from preset text.
     * \param text options as on the command line, separated by spaces
     *        (--name=value; values contain no spaces)
     * \param o the options to change
     * \return "" or the problem (an unknown option or a value that does not parse)
     */
    static std::string ApplyPreset(const std::string& text, MrcScenarioOptions& o);
};

} // namespace ns3

#endif /* MRC_SCENARIO_PRESETS_H */
