/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-time-records.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTimeRecords");

bool
MrcEndTimeRecords()
{
    if (!Simulator::IsFinished() || Simulator::GetEventCount() != 0 || !Simulator::Now().IsZero())
    {
        NS_LOG_LOGIC("the simulator is not known to be empty: it is left alone");
        return false;
    }
    NS_LOG_LOGIC("running the empty simulator once: ns-3 stops recording Time objects");
    Simulator::Run();
    return true;
}

bool
MrcEndTimeRecordsBeforeCoreChange()
{
    if (!MrcEndTimeRecords())
    {
        return false;
    }
    Simulator::Destroy(); // the next use creates the core bound then
    return true;
}

} // namespace ns3
