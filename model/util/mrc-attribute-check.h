/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ATTRIBUTE_CHECK_H
#define MRC_ATTRIBUTE_CHECK_H

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * Checks an attribute value given as a string (from a command line, a profile or
 * an input file) before ns-3 sees it.
 *
 * ns-3 turns such a string into a value with the attribute's checker, and for
 * several value types a malformed string never comes back as an error: an enum
 * name that is not in the EnumChecker trips an NS_ASSERT in builds with asserts
 * (ns-3's default build profile) and reads past the list without them; a Double,
 * Integer or Uinteger that does not parse, a Time with an unknown unit and an
 * unregistered TypeId name abort the program, and an unparsable DataRate is
 * kept as an arbitrary rate. CheckValue() recognises these
 * value types by their checker's value type name and parses the string itself,
 * so the caller can report the bad value with the module's own message and exit
 * code. Strings that pass are then handed to the checker (CreateValidValue),
 * which is safe for them and also applies range limits.
 */
class MrcAttributeCheck
{
  public:
    /**
     * @param info an attribute of some TypeId (TypeId::GetAttribute)
     * @param value the string form of a value for it
     * @return "" when ns-3 accepts `value` for the attribute; otherwise why not,
     *         starting with "value '<value>'", e.g. "value 'Sometimes' is not valid
     *         (allowed: AckFlag, Interval)"
     */
    static std::string CheckValue(const TypeId::AttributeInformation& info,
                                  const std::string& value);

    /**
     * @param path an attribute default, "ns3::Class::Attribute" (the class's own
     *        attributes, as Config::SetDefault in ns-3.37 accepts them)
     * @param value the string form of a value for it
     * @return "" when Config::SetDefault(path, StringValue(value)) would succeed;
     *         otherwise why not (unknown class, unknown attribute or bad value)
     */
    static std::string CheckDefault(const std::string& path, const std::string& value);

    /**
     * @param info an attribute whose checker is an EnumChecker
     * @return the names the enum accepts, in the checker's order (empty for an
     *         attribute of another type)
     */
    static std::vector<std::string> GetEnumNames(const TypeId::AttributeInformation& info);

    /**
     * @param info an attribute
     * @return true if its checker is an EnumChecker (ns-3.37's plain class or the
     *         EnumChecker<T> template of later releases)
     */
    static bool IsEnum(const TypeId::AttributeInformation& info);

    /**
     * @param s a time as ns-3 writes it ("10us", "1.5ms", "2", "-3e-6s")
     * @return true if ns-3's Time(std::string) parses it without aborting
     */
    static bool IsTime(const std::string& s);
};

} // namespace ns3

#endif // MRC_ATTRIBUTE_CHECK_H
