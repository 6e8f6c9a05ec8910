/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SIM_MAIN_H
#define MRC_SIM_MAIN_H

/**
 * \file
 * \ingroup mrc
 * The whole mrc-sim program, callable from tests.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The whole mrc-sim program: the scenario is the first argument if it does not start
 * with '-', or --scenario=NAME (default permutation). Parses the options (exit 2 naming
 * a bad one), runs every transport of the scenario in turn, prints the summary table on
 * stdout, writes the files into --out (default results/<scenario>/) and, with
 * --benchJson=FILE, the benchmark figures.
 * \param argc argument count
 * \param argv arguments
 * \return the exit code: 0, or 1 when a message did not complete
 */
int MrcSimMain(int argc, char* argv[]);

} // namespace ns3

#endif /* MRC_SIM_MAIN_H */
