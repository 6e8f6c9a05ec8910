/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-attribute-check.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <cstdint>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcAttributeCheck");

namespace
{

/**
 * @tparam T the number type
 * @param s a string
 * @return true if the whole of `s` reads as one T with operator>> (the test ns-3's
 *         ATTRIBUTE_VALUE_IMPLEMENT deserializer makes, which aborts on failure)
 */
template <typename T>
bool
ReadsWhole(const std::string& s)
{
    std::istringstream iss(s);
    T v{};
    iss >> v;
    return !s.empty() && !iss.fail() && iss.eof();
}

/**
 * @param info an attribute
 * @return its checker's value type name without a leading "ns3::"
 */
std::string
ValueTypeName(const TypeId::AttributeInformation& info)
{
    std::string name = info.checker ? info.checker->GetValueTypeName() : "";
    if (name.rfind("ns3::", 0) == 0)
    {
        name.erase(0, 5);
    }
    return name;
}

} // namespace

bool
MrcAttributeCheck::IsEnum(const TypeId::AttributeInformation& info)
{
    // "ns3::EnumValue" up to ns-3.40, "ns3::EnumValue<T>" since the template.
    const std::string name = ValueTypeName(info);
    return name == "EnumValue" || name.rfind("EnumValue<", 0) == 0;
}

std::vector<std::string>
MrcAttributeCheck::GetEnumNames(const TypeId::AttributeInformation& info)
{
    std::vector<std::string> names;
    if (!IsEnum(info) || !info.checker->HasUnderlyingTypeInformation())
    {
        return names;
    }
    // Every release writes the accepted names joined by '|'.
    std::istringstream iss(info.checker->GetUnderlyingTypeInformation());
    std::string name;
    while (std::getline(iss, name, '|'))
    {
        names.push_back(name);
    }
    return names;
}

bool
MrcAttributeCheck::IsTime(const std::string& s)
{
    // As Time::Time(const std::string&): a number, then nothing or one unit.
    const std::string::size_type n = s.find_first_not_of("+-0123456789.eE");
    const std::string number = s.substr(0, n);
    if (!ReadsWhole<double>(number))
    {
        return false;
    }
    if (n == std::string::npos)
    {
        return true;
    }
    const std::string unit = s.substr(n);
    for (const char* u : {"s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"})
    {
        if (unit == u)
        {
            return true;
        }
    }
    return false;
}

std::string
MrcAttributeCheck::CheckValue(const TypeId::AttributeInformation& info, const std::string& value)
{
    NS_LOG_FUNCTION(info.name << value);
    const std::string bad = "value '" + value + "' is not valid";
    const std::string type = ValueTypeName(info);
    if (IsEnum(info))
    {
        const std::vector<std::string> names = GetEnumNames(info);
        std::string list;
        for (const auto& n : names)
        {
            if (n == value)
            {
                return "";
            }
            list += (list.empty() ? "" : ", ") + n;
        }
        return bad + " (allowed: " + list + ")";
    }
    if (type == "TypeIdValue")
    {
        TypeId named;
        if (!TypeId::LookupByNameFailSafe(value, &named))
        {
            return "value '" + value + "': class " + value + " is not registered";
        }
    }
    else if (type == "PointerValue")
    {
        // ns-3 creates the object the text names (ns3::Class[Attr=value|...]); 3.37
        // crashes on a class it does not know instead of failing.
        const std::string cls = value.substr(0, value.find('['));
        TypeId named;
        if (!TypeId::LookupByNameFailSafe(cls, &named) || !named.HasConstructor())
        {
            return "value '" + value + "': class " + cls +
                   " is not registered or cannot be created (allowed: ns3::Class or "
                   "ns3::Class[Attribute=value|...])";
        }
    }
    else if (type == "DoubleValue" && !ReadsWhole<double>(value))
    {
        return bad + " (not a number)";
    }
    else if (type == "UintegerValue" &&
             (!ReadsWhole<uint64_t>(value) || value.find('-') != std::string::npos))
    {
        return bad + " (not a whole number >= 0)";
    }
    else if (type == "IntegerValue" && !ReadsWhole<int64_t>(value))
    {
        return bad + " (not a whole number)";
    }
    else if (type == "TimeValue" && !IsTime(value))
    {
        return bad + " (not a time: a number and one of the units s, ms, us, ns, ps, fs, min, "
                     "h, d, y)";
    }
    else if (type == "DataRateValue")
    {
        // ns-3 keeps an unparsable rate (its deserializer checks only for the end of
        // the string); DataRate's operator>> reports it.
        std::istringstream iss(value);
        DataRate rate;
        iss >> rate;
        if (value.empty() || iss.fail())
        {
            return bad + " (not a data rate, e.g. 100Gbps)";
        }
    }
    // Safe now: the remaining types report a malformed string by returning null.
    if (!info.checker->CreateValidValue(StringValue(value)))
    {
        return bad + " (" + info.checker->GetUnderlyingTypeInformation() + ")";
    }
    return "";
}

std::string
MrcAttributeCheck::CheckDefault(const std::string& path, const std::string& value)
{
    NS_LOG_FUNCTION(path << value);
    const std::string::size_type pos = path.rfind("::");
    if (pos == std::string::npos || pos == 0)
    {
        return "'" + path + "' is not of the form ns3::Class::Attribute";
    }
    const std::string cls = path.substr(0, pos);
    const std::string attr = path.substr(pos + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(cls, &tid))
    {
        return "class " + cls + " is not registered";
    }
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (info.name == attr)
        {
            return CheckValue(info, value);
        }
    }
    return "class " + cls + " has no attribute " + attr;
}

} // namespace ns3
