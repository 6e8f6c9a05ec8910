/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer entry point of ./ns3-mrc fuzz: one binary for every target of
// test/mrc-fuzz-targets.cc; the environment variable MRC_FUZZ_TARGET names the one a
// process runs (MRC_FUZZ_LIST=1: print the names and exit; MRC_FUZZ_SEEDS=DIR: write
// the target's seed inputs into DIR and exit). A Failure (a broken property) is not caught here: it
// aborts, which libFuzzer reports as a crash and saves the input.

#include "../mrc-fuzz-targets.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace
{
const ns3::MrcFuzz::Target* g_target = nullptr;
} // namespace

extern "C" int
LLVMFuzzerInitialize(int* /* argc */, char*** /* argv */)
{
    if (std::getenv("MRC_FUZZ_LIST"))
    {
        for (const ns3::MrcFuzz::Target& t : ns3::MrcFuzz::Targets())
        {
            std::printf("%s\n", t.name);
        }
        std::exit(0);
    }
    const char* name = std::getenv("MRC_FUZZ_TARGET");
    g_target = name ? ns3::MrcFuzz::Find(name) : nullptr;
    if (!g_target)
    {
        std::fprintf(stderr, "mrc-fuzz: set MRC_FUZZ_TARGET to one of:");
        for (const ns3::MrcFuzz::Target& t : ns3::MrcFuzz::Targets())
        {
            std::fprintf(stderr, " %s", t.name);
        }
        std::fprintf(stderr, "\n");
        std::exit(2);
    }
    if (const char* dir = std::getenv("MRC_FUZZ_SEEDS"))
    {
        int i = 0;
        for (const std::string& s : g_target->seeds())
        {
            std::ofstream(std::string(dir) + "/seed-" + std::to_string(i++), std::ios::binary) << s;
        }
        std::exit(0);
    }
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    g_target->run(data, size);
    return 0;
}
