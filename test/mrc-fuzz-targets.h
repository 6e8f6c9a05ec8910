/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FUZZ_TARGETS_H
#define MRC_FUZZ_TARGETS_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The fuzz targets of ./ns3-mrc fuzz (issue 20): one function per reader of bytes that
 * come from outside a queue pair's own state (input files, header classes, the per-hop
 * packet parser). The libFuzzer harness (test/fuzz/mrc-fuzz-main.cc, built by clang)
 * runs one of them per process; the GoogleTest case FuzzCorpus.* replays the saved
 * findings of test/data/fuzz/TARGET/ and the seed inputs through the same functions.
 */

namespace ns3
{
namespace MrcFuzz
{

/// A broken property of a target (a finding): thrown by the targets, never caught by
/// the libFuzzer harness (so it aborts there), caught and reported by the replay test.
class Failure : public std::logic_error
{
  public:
    /// \param what the target and the property that does not hold
    explicit Failure(const std::string& what)
        : std::logic_error(what)
    {
    }
};

/// One fuzz target.
struct Target
{
    const char* name;   //!< name (the folder under test/data/fuzz/ and build-fuzz/corpus/)
    const char* covers; //!< what it reads, one line
    /// Run one input. Rejections the reader is allowed to make return normally;
    /// a broken property throws Failure; a crash or sanitizer report is a finding too.
    void (*run)(const uint8_t* data, std::size_t size);
    /// Seed inputs for a fresh corpus, each a byte string (may be empty).
    std::vector<std::string> (*seeds)();
};

/// \return every target, readers first, then header classes, then the parsers
const std::vector<Target>& Targets();

/// \param name a target's name \return the target, or null
const Target* Find(const std::string& name);

} // namespace MrcFuzz
} // namespace ns3

#endif /* MRC_FUZZ_TARGETS_H */
