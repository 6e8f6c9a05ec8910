/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mrc-sim: the scenario program behind `./ns3-mrc run SCENARIO` and `./ns3-mrc list`.
// Everything (options, scenarios, runner, output files) lives in helper/experiments/:
// mrc-sim-main.h is the program, mrc-scenario.h includes all of its parts.
//
//   build/examples/mrc-sim --list
//   build/examples/mrc-sim incast --senders=8 --out=results/incast/
//   build/examples/mrc-sim --scenario=permutation --hosts=32 --bytes=500000 --PrintHelp

#include "ns3/mrc-scenario.h"

int
main(int argc, char* argv[])
{
    return ns3::MrcSimMain(argc, argv);
}
