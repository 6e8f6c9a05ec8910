/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-command-line.h"

#include "ns3/attribute.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/mrc-attribute-check.h"
#include "ns3/mrc-input-error.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <iostream>
#include <regex>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCommandLine");

namespace
{

/// ns-3's own options that take no value.
const char* const BUILTIN_FLAGS[] =
    {"PrintHelp", "help", "PrintVersion", "version", "PrintGlobals", "PrintGroups", "PrintTypeIds"};

/// ns-3's own options that take a value.
const char* const BUILTIN_WITH_VALUE[] = {"PrintGroup", "PrintAttributes"};

/// \return true if text is an optional sign and decimal digits only
bool
IsInteger(const std::string& text, bool signedOk)
{
    std::size_t i = signedOk && !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    return text.size() > i && text.size() - i <= 20 &&
           text.find_first_not_of("0123456789", i) == std::string::npos;
}

/**
 * A value for an attribute default, checked before ns-3 reads it: ns-3 3.37 aborts on a
 * malformed number (its generic attribute parser asserts), so numbers, times and rates
 * are parsed here first; then the attribute's checker decides (ranges, enum names).
 * \param info the attribute
 * \param value the text
 * \return true if ns-3 can take it
 */
bool
CheckAttributeValue(const TypeId::AttributeInformation& info, const std::string& value)
{
    const std::string type = info.checker->GetValueTypeName();
    double d;
    uint64_t bps;
    static const std::regex timeForm(
        "^[+-]?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d)?$");
    if ((type == "ns3::UintegerValue" && !IsInteger(value, false)) ||
        (type == "ns3::IntegerValue" && !IsInteger(value, true)) ||
        (type == "ns3::DoubleValue" &&
         (value.find_first_not_of("0123456789.eE+-") != std::string::npos ||
          !MrcParse::Double(value, d))) ||
        (type == "ns3::TimeValue" && (value.size() > 40 || !std::regex_match(value, timeForm))) ||
        (type == "ns3::DataRateValue" && !MrcParse::Rate(value, bps)))
    {
        return false;
    }
    // The types whose parsers return false on bad text (the numbers were checked above).
    static const char* const safe[] = {"ns3::UintegerValue",
                                       "ns3::IntegerValue",
                                       "ns3::DoubleValue",
                                       "ns3::BooleanValue",
                                       "ns3::EnumValue",
                                       "ns3::StringValue"};
    for (const char* k : safe)
    {
        if (type == k)
        {
            Ptr<AttributeValue> v = info.checker->Create();
            return v->DeserializeFromString(value, info.checker) && info.checker->Check(*v);
        }
    }
    return true; // another type: left to ns-3
}

} // namespace

MrcCommandLine::MrcCommandLine(const std::string& filename)
    : m_cmd(filename)
{
}

void
MrcCommandLine::Usage(const std::string& usage)
{
    m_cmd.Usage(usage);
}

const std::vector<std::string>&
MrcCommandLine::GetNames() const
{
    return m_names;
}

CommandLine&
MrcCommandLine::GetCommandLine()
{
    return m_cmd;
}

std::string
MrcCommandLine::AllowedList() const
{
    std::string list;
    for (const auto& name : m_names)
    {
        list += "--" + name + ", ";
    }
    return "allowed: " + list + (m_names.empty() ? "" : "or ") +
           "--ns3::Class::Attribute=value; --PrintHelp lists them";
}

bool
MrcCommandLine::CheckNs3Name(const std::string& name,
                             const std::string& value,
                             bool hasValue,
                             std::string& error)
{
    // An attribute default, --ns3::Class::Attribute=value, set as ns-3 3.37's
    // Config::SetDefaultFailSafe does: the class's own attributes only.
    std::string::size_type sep = name.rfind("::");
    if (sep != std::string::npos)
    {
        std::string className = name.substr(0, sep);
        std::string attribute = name.substr(sep + 2);
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(className, &tid))
        {
            error = "error: unknown option '--" + MrcParse::Printable(name) + "': no class " +
                    MrcParse::Printable(className) +
                    (className.rfind("ns3::", 0) == 0 ? "" : " (class names start with ns3::)") +
                    "; --PrintTypeIds lists the classes";
            return true;
        }
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (info.name != attribute)
            {
                continue;
            }
            if (!hasValue)
            {
                error = "error: option '--" + name + "' needs a value: --" + name + "=...";
                return true;
            }
            // The value is checked here, not left to ns-3: a bad enum name trips an
            // assert, a malformed number or time aborts (MrcAttributeCheck).
            const std::string why = MrcAttributeCheck::CheckValue(info, value);
            if (!why.empty())
            {
                error = "error: invalid value for --" + name + ": " + why;
            }
            else if (!CheckAttributeValue(info, value))
            {
                error = "error: invalid value '" + MrcParse::Printable(value) + "' for --" + name +
                        " (" + info.checker->GetUnderlyingTypeInformation() + ")";
            }
            return true;
        }
        error = "error: unknown option '--" + name + "': " + className + " has no attribute " +
                attribute + "; --PrintAttributes=" + className + " lists them";
        return true;
    }
    // A global value (--RngRun=3, --SchedulerType=...), which ns-3 also accepts.
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            if (!hasValue)
            {
                error = "error: option '--" + name + "' needs a value: --" + name + "=...";
            }
            return true;
        }
    }
    return false;
}

std::string
MrcCommandLine::Check(const std::vector<std::string>& args) const
{
    for (const std::string& arg : args)
    {
        // ns-3 3.37 strips "--" or "-" and splits the rest at the first '='.
        std::string body;
        if (arg.rfind("--", 0) == 0)
        {
            body = arg.substr(2);
        }
        else if (arg.rfind('-', 0) == 0)
        {
            body = arg.substr(1);
        }
        else
        {
            return "error: unexpected argument '" + MrcParse::Printable(arg) +
                   "' (options are written --name=value; " + AllowedList() + ")";
        }
        std::string::size_type eq = body.find('=');
        bool hasValue = eq != std::string::npos;
        std::string name = body.substr(0, eq);
        std::string value = hasValue ? body.substr(eq + 1) : "";
        if (name.empty() || name[0] == '-')
        {
            return "error: unknown option '" + MrcParse::Printable(arg) + "' (" + AllowedList() +
                   ")";
        }

        bool known = false;
        for (const Option& opt : m_options)
        {
            if (opt.name != name)
            {
                continue;
            }
            known = true;
            if (value.empty() && !opt.isBool)
            {
                return "error: option '--" + name + "' needs a value: --" + name + "=...";
            }
            if (!value.empty() && !opt.parse(value))
            {
                return "error: invalid value '" + MrcParse::Printable(value) + "' for --" + name;
            }
            break;
        }
        if (known)
        {
            continue;
        }
        for (const char* flag : BUILTIN_FLAGS)
        {
            known = known || name == flag;
        }
        for (const char* option : BUILTIN_WITH_VALUE)
        {
            known = known || name == option;
        }
        if (known)
        {
            continue;
        }
        std::string error;
        if (!CheckNs3Name(name, value, hasValue, error))
        {
            return "error: unknown option '--" + MrcParse::Printable(name) + "' (" + AllowedList() +
                   ")";
        }
        if (!error.empty())
        {
            return error;
        }
    }
    return "";
}

void
MrcCommandLine::Parse(int argc, char* argv[])
{
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
    {
        args.emplace_back(argv[i]);
    }
    std::string error = Check(args);
    if (!error.empty())
    {
        ExitUsage(error);
    }
    m_cmd.Parse(argc, argv);
}

std::string
MrcCommandLine::CheckChoice(const std::string& name,
                            const std::string& value,
                            const std::vector<std::string>& allowed)
{
    std::string list;
    for (const auto& a : allowed)
    {
        if (a == value)
        {
            return "";
        }
        list += (list.empty() ? "" : ", ") + a;
    }
    return "error: invalid value '" + MrcParse::Printable(value) + "' for --" + name +
           " (allowed: " + list + ")";
}

std::string
MrcCommandLine::Join(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names)
    {
        s += (s.empty() ? "" : ", ") + n;
    }
    return s;
}

void
MrcCommandLine::RequireChoice(const std::string& name,
                              const std::string& value,
                              const std::vector<std::string>& allowed)
{
    std::string error = CheckChoice(name, value, allowed);
    if (!error.empty())
    {
        ExitUsage(error);
    }
}

void
MrcCommandLine::Fail(const std::string& message)
{
    ExitUsage("error: " + message);
}

void
MrcCommandLine::ExitUsage(const std::string& line)
{
    std::cerr << line << std::endl;
    std::cout.flush();
    // A usage error happens before any simulation exists: leave at once, without
    // running static destructors (ns-3's TestRunner asserts in them when a usage
    // error is tested from inside a running TestCase, e.g. in an ns-3 tree).
    std::_Exit(EXIT_USAGE);
}

} // namespace ns3
