/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer harness for the input readers (./ns3-mrc fuzz). Compiled once per target with
// -DMRC_FUZZ_TARGET=N: 1 HPCC topology, 2 HPCC flows, 3 htsim .topo (and its shape),
// 4 htsim connection matrix, 5 flow-size CDF. A reader may reject its input only by
// throwing MrcInputError; any other exception, abort or sanitizer report is a finding.

#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-input-error.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#ifndef MRC_FUZZ_TARGET
#define MRC_FUZZ_TARGET 1
#endif

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try
    {
#if MRC_FUZZ_TARGET == 1
        MrcHpccInput::ParseTopology(in, "fuzz");
#elif MRC_FUZZ_TARGET == 2
        MrcHpccFlowOptions o;
        o.numNodes = 64;
        o.maxBytes = 0xffffffffULL;
        MrcHpccInput::ParseFlows(in, "fuzz", o);
#elif MRC_FUZZ_TARGET == 3
        MrcHtsimInput::Shape(MrcHtsimInput::ParseTopology(in, "fuzz"));
#elif MRC_FUZZ_TARGET == 4
        MrcHtsimInput::ParseConnectionMatrix(in, "fuzz").TimedFlows();
#else
        const MrcFlowSizeCdf cdf = MrcFlowSizeCdf::Parse(in, "fuzz");
        for (double u : {0.0, 0.25, 0.5, 0.999, 1.0})
        {
            cdf.SampleFromUniform(u);
        }
#endif
    }
    catch (const MrcInputError&)
    {
    }
    return 0;
}
