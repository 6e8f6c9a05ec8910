/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcFlatMap, the open-addressing map of the packet path (uSID tables, EV values,
// per-EV counters), against std::map as the oracle.

#include "ns3/mrc-flat-map.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace ns3;

TEST(MrcFlatMap, InsertFindEraseOnAnEmptyMap)
{
    MrcFlatMap<uint32_t, uint32_t> m;
    EXPECT_TRUE(m.empty());
    EXPECT_EQ(m.Find(7), nullptr);
    EXPECT_FALSE(m.Erase(7));
    EXPECT_TRUE(m.Insert(7, 70));
    EXPECT_FALSE(m.Insert(7, 71)); // present: left unchanged
    ASSERT_NE(m.Find(7), nullptr);
    EXPECT_EQ(*m.Find(7), 70u);
    EXPECT_EQ(m.size(), 1u);
    EXPECT_EQ(++m[8], 1u); // operator[] value-initialises
    EXPECT_EQ(m.size(), 2u);
    EXPECT_TRUE(m.Erase(7));
    EXPECT_EQ(m.Find(7), nullptr);
    EXPECT_EQ(*m.Find(8), 1u);
    m.clear();
    EXPECT_TRUE(m.empty());
    EXPECT_EQ(m.Find(8), nullptr);
}

TEST(MrcFlatMap, KeyZeroAndTheLargestKeyAreOrdinaryKeys)
{
    MrcFlatMap<uint16_t, uint32_t> m;
    EXPECT_TRUE(m.Insert(0, 1));
    EXPECT_TRUE(m.Insert(0xffff, 2));
    EXPECT_EQ(*m.Find(0), 1u);
    EXPECT_EQ(*m.Find(0xffff), 2u);
    EXPECT_EQ(m.Find(1), nullptr);
}

// Random inserts, updates and erases (dense and sparse keys, so that probe runs collide and
// wrap around the table) agree with std::map after every step, including ForEach.
TEST(MrcFlatMap, AgreesWithStdMapUnderRandomOperations)
{
    for (uint32_t keySpace : {16u, 300u, 1u << 31})
    {
        std::mt19937 rng(keySpace);
        MrcFlatMap<uint32_t, uint32_t> m;
        std::map<uint32_t, uint32_t> oracle;
        for (int step = 0; step < 20000; ++step)
        {
            const uint32_t key = rng() % keySpace;
            switch (rng() % 4)
            {
            case 0:
                EXPECT_EQ(m.Insert(key, step), oracle.emplace(key, step).second);
                break;
            case 1:
                m[key] += 3;
                oracle[key] += 3;
                break;
            default:
                EXPECT_EQ(m.Erase(key), oracle.erase(key) == 1);
                break;
            }
            ASSERT_EQ(m.size(), oracle.size());
            const uint32_t probe = rng() % keySpace;
            const uint32_t* got = m.Find(probe);
            auto it = oracle.find(probe);
            ASSERT_EQ(got != nullptr, it != oracle.end()) << "key " << probe;
            if (got)
            {
                ASSERT_EQ(*got, it->second);
            }
        }
        std::map<uint32_t, uint32_t> seen;
        m.ForEach([&seen](uint32_t k, uint32_t v) { EXPECT_TRUE(seen.emplace(k, v).second); });
        EXPECT_EQ(seen, oracle) << "key space " << keySpace;
    }
}
