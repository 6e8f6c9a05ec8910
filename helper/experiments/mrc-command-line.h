/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COMMAND_LINE_H
#define MRC_COMMAND_LINE_H

#include "ns3/command-line.h"

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * A strict front end to ns-3's CommandLine for the module's programs.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A thin wrapper over ns-3's CommandLine that refuses what CommandLine would
 * silently accept or bury under its help text.
 *
 * Every example and scenario program of the module parses its arguments with
 * it. Parse() first checks every argument and stops the program with exit code
 * EXIT_USAGE (2) and a one-line message on stderr when it finds
 *
 *  - an option that is not registered with AddValue(), not one of ns-3's own
 *    (--PrintHelp, --help, --PrintVersion, --version, --PrintGlobals,
 *    --PrintGroups, --PrintGroup=, --PrintTypeIds, --PrintAttributes=), not an
 *    ns-3 global value (--RngRun=, --RngSeed=, ...) and not an attribute
 *    default --ns3::Class::Attribute=value that exists;
 *  - a value that CommandLine could not parse for the option's type (values
 *    of attributes and global values are left to ns-3, which reports or
 *    aborts on them itself);
 *  - a stray argument without a leading dash. ns-3 3.37 takes options only as
 *    --name=value (or -name=value); a bool option may be given bare (--flag).
 *    "--name value" leaves "value" behind as such an argument, which ns-3
 *    would ignore.
 *
 * Then it hands the arguments to CommandLine::Parse, which sets the values.
 * Check() returns the message instead of exiting, so the rules can be tested.
 */
class MrcCommandLine
{
  public:
    /// Exit code for a bad command line (as getopt-style tools use).
    static constexpr int EXIT_USAGE = 2;

    /**
     * \param filename the program's source file (__FILE__), as for CommandLine;
     *        empty by default
     */
    explicit MrcCommandLine(const std::string& filename = "");

    /// \param usage the program description printed by --PrintHelp
    void Usage(const std::string& usage);

    /**
     * Register an option --name=value that sets value (forwarded to
     * CommandLine::AddValue) and remember its name and how to check a value.
     * \tparam T the value's type (anything CommandLine::AddValue takes)
     * \param name the option name, without dashes
     * \param help the help text
     * \param value the variable to set; its current value is the default
     */
    template <typename T>
    void AddValue(const std::string& name, const std::string& help, T& value);

    /**
     * Check the arguments (exit EXIT_USAGE on the first problem, message on
     * stderr), then parse them with CommandLine.
     * \param argc the argument count, program name included
     * \param argv the arguments, program name first
     */
    void Parse(int argc, char* argv[]);

    /**
     * Check arguments without parsing them.
     * \param args the arguments after the program name
     * \return "" when every argument is acceptable, otherwise the one-line
     *         message Parse() would print ("error: ...")
     */
    std::string Check(const std::vector<std::string>& args) const;

    /// \return the registered option names, in registration order
    const std::vector<std::string>& GetNames() const;

    /// \return the wrapped CommandLine (e.g. for GetName() after Parse)
    CommandLine& GetCommandLine();

    /**
     * \param name the option name, without dashes (for the message)
     * \param value the value given
     * \param allowed the allowed values
     * \return "" if value is one of allowed, otherwise a message naming the
     *         value and the allowed ones
     */
    static std::string CheckChoice(const std::string& name,
                                   const std::string& value,
                                   const std::vector<std::string>& allowed);

    /**
     * \param names values to list
     * \return them separated by ", " (as the "allowed: ..." lists of the messages)
     */
    static std::string Join(const std::vector<std::string>& names);

    /**
     * Exit with EXIT_USAGE and CheckChoice's message unless value is allowed.
     * \param name the option name, without dashes
     * \param value the value given
     * \param allowed the allowed values
     */
    static void RequireChoice(const std::string& name,
                              const std::string& value,
                              const std::vector<std::string>& allowed);

    /**
     * Print "error: <message>" on stderr and exit with EXIT_USAGE.
     * \param message what is wrong with the command line
     */
    [[noreturn]] static void Fail(const std::string& message);

  private:
    /**
     * Print a line on stderr, flush stdout and end the process with EXIT_USAGE
     * (std::_Exit: no static destructors run).
     * \param line the complete message
     */
    [[noreturn]] static void ExitUsage(const std::string& line);

    /// A registered option.
    struct Option
    {
        std::string name;                              //!< name without dashes
        bool isBool;                                   //!< may be given without a value
        std::function<bool(const std::string&)> parse; //!< true if a value parses
    };

    /**
     * \param name an option name without dashes
     * \param value the text after '='
     * \param hasValue whether there was an '='
     * \param error set to the message when the name is an attribute path or a
     *        global value that cannot take this value; left alone otherwise
     * \return true if name is an attribute path (Class::Attribute) or names a
     *         global value; false if ns-3 would not know it
     */
    static bool CheckNs3Name(const std::string& name,
                             const std::string& value,
                             bool hasValue,
                             std::string& error);

    /// \return the "allowed: ..." part of the unknown-option message
    std::string AllowedList() const;

    CommandLine m_cmd;                //!< the wrapped ns-3 CommandLine
    std::vector<Option> m_options;    //!< registered options, in order
    std::vector<std::string> m_names; //!< their names, in order
};

template <typename T>
void
MrcCommandLine::AddValue(const std::string& name, const std::string& help, T& value)
{
    m_cmd.AddValue(name, help, value);
    T initial = value;
    m_options.push_back(Option{name, std::is_same_v<T, bool>, [initial](const std::string& text) {
                                   T scratch = initial;
                                   return CommandLineHelper::UserItemParse<T>(text, scratch);
                               }});
    m_names.push_back(name);
}

} // namespace ns3

#endif /* MRC_COMMAND_LINE_H */
