/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fuzz corpus replayed by CTest (issue 20): every input ./ns3-mrc fuzz saved as a
// finding in test/data/fuzz/TARGET/ (fixed since) and every target's seeds run through
// the same target functions as the libFuzzer harness; none may break a property
// (MrcFuzz::Failure) or crash. Also checks of the targets themselves: each one rejects
// or accepts what it should.

#include "mrc-fuzz-targets.h"

#include "ns3/buffer.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-srh-header.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string FUZZ_DATA = std::string(MRC_SOURCE_DIR) + "/test/data/fuzz";

/// Run one input through a target; a Failure fails the test.
void
RunInput(const MrcFuzz::Target& t, const std::string& bytes, const std::string& what)
{
    try
    {
        t.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    catch (const MrcFuzz::Failure& f)
    {
        ADD_FAILURE() << what << ": " << f.what();
    }
}

std::string
Slurp(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Buffer
BufferOf(const std::vector<uint8_t>& b)
{
    Buffer buf;
    buf.AddAtStart(b.size());
    buf.Begin().Write(b.data(), b.size());
    return buf;
}

} // namespace

TEST(FuzzCorpus, EveryTargetHasAUniqueNameAndItsFolderIsKnown)
{
    std::set<std::string> names;
    for (const MrcFuzz::Target& t : MrcFuzz::Targets())
    {
        EXPECT_TRUE(names.insert(t.name).second) << t.name;
        EXPECT_EQ(MrcFuzz::Find(t.name), &t);
    }
    EXPECT_EQ(names.size(), 27u); // 6 readers, 19 header classes, packet, frame
    EXPECT_EQ(MrcFuzz::Find("nope"), nullptr);
    // every folder of findings belongs to a target (a renamed target would orphan it)
    for (const auto& e : std::filesystem::directory_iterator(FUZZ_DATA))
    {
        // TARGET.new/ is where a running `./ns3-mrc fuzz` collects its findings
        const std::string folder = e.path().filename().string();
        const bool running = folder.size() > 4 && folder.substr(folder.size() - 4) == ".new";
        if (e.is_directory())
        {
            const std::string target = running ? folder.substr(0, folder.size() - 4) : folder;
            EXPECT_EQ(names.count(target), 1u) << e.path();
        }
    }
}

TEST(FuzzCorpus, SeedsAndSavedFindingsPass)
{
    std::size_t inputs = 0;
    for (const MrcFuzz::Target& t : MrcFuzz::Targets())
    {
        for (const std::string& s : t.seeds())
        {
            RunInput(t, s, std::string(t.name) + " seed");
            ++inputs;
            // every prefix too: short inputs are where bounds break
            for (std::size_t n = 0; n < s.size(); n += 3)
            {
                RunInput(t, s.substr(0, n), std::string(t.name) + " seed prefix");
            }
        }
        const std::filesystem::path dir = std::filesystem::path(FUZZ_DATA) / t.name;
        if (!std::filesystem::is_directory(dir))
        {
            continue;
        }
        for (const auto& e : std::filesystem::directory_iterator(dir))
        {
            RunInput(t, Slurp(e.path()), e.path().string());
            ++inputs;
        }
    }
    EXPECT_GE(inputs, 21u); // the header and parser targets have seeds
}

TEST(FuzzCorpus, SrhTryDeserializeRejectsWhatDeserializeAbortsOn)
{
    // 6 segments announced, none present; type 3; TLVs; Segments Left 9 of 1; 9 segments
    const std::vector<std::vector<uint8_t>> bad = {
        {41, 12, 4, 0, 5, 0, 0, 0},
        {41, 2, 3, 0, 0, 0, 0, 0},
        {41, 4, 4, 0, 0, 0, 0, 0},
        {41, 2, 4, 9, 0, 0, 0, 0},
        {41, 18, 4, 0, 8, 0, 0, 0},
        {41, 2, 4},
    };
    for (const std::vector<uint8_t>& b : bad)
    {
        Buffer buf = BufferOf(b);
        EXPECT_FALSE(MrcSrhHeader::Check(buf.Begin()).empty()) << b.size();
        MrcSrhHeader h;
        EXPECT_EQ(h.TryDeserialize(buf.Begin()), 0u);
        EXPECT_EQ(h.GetSerializedSize(), 8u); // unchanged: no segments
    }
    std::vector<uint8_t> one = {41, 2, 4, 1, 0, 0, 0, 7};
    one.resize(8 + 16, 0xfc);
    Buffer buf = BufferOf(one);
    EXPECT_EQ(MrcSrhHeader::Check(buf.Begin()), "");
    MrcSrhHeader h;
    EXPECT_EQ(h.TryDeserialize(buf.Begin()), 24u);
    EXPECT_EQ(h.GetSegmentsLeft(), 1u);
    EXPECT_EQ(h.GetTag(), 7u);
}

TEST(FuzzCorpus, ShortPfcFrameIsRejected)
{
    std::vector<uint8_t> b(MrcPfcFrame::SIZE - 1, 0);
    b[0] = 0x01;
    b[1] = 0x01; // PFC opcode, but 45 bytes
    Buffer buf = BufferOf(b);
    MrcPfcFrame f;
    EXPECT_EQ(f.Deserialize(buf.Begin()), 0u);
    EXPECT_EQ(f.GetOpcode(), 0u);
    b.push_back(0);
    Buffer full = BufferOf(b);
    EXPECT_EQ(f.Deserialize(full.Begin()), MrcPfcFrame::SIZE);
    EXPECT_EQ(f.GetOpcode(), MrcPfcFrame::OPCODE);
}

TEST(FuzzCorpus, TargetsFindBrokenProperties)
{
    // a property that does not hold is reported as a Failure, not ignored: the "packet"
    // target on a packet whose parse is consistent passes, and the harness's own check
    // throws
    const MrcFuzz::Target* packet = MrcFuzz::Find("packet");
    ASSERT_NE(packet, nullptr);
    for (const std::string& s : packet->seeds())
    {
        EXPECT_NO_THROW(packet->run(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
    }
    EXPECT_THROW(throw MrcFuzz::Failure("x"), std::logic_error);
}
