/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Entry point of the standalone GoogleTest binary (mrc-gtest) that CTest runs.

#include <gtest/gtest.h>

int
main(int argc, char** argv)
{
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
