/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_H
#define MRC_SCENARIO_H

/**
 * \file
 * \ingroup mrc
 * The scenario program mrc-sim, all of it: include this to use any part.
 *
 *  - mrc-scenario-config.h: MrcScenarioConfig, the checked settings of a run;
 *  - mrc-scenario-options.h: MrcScenarioOptions, the command-line options as text;
 *  - mrc-topology-options.h: MrcTopologyOptions, the fabric options;
 *  - mrc-scenario-presets.h: MrcScenarios, the named scenarios (a table of presets);
 *  - mrc-transport-table.h: MrcTransportTable, what differs between the transports;
 *  - mrc-scenario-inputs.h: MrcScenarioInputs, the --topoFile/--flowFile/--cdf files;
 *  - mrc-scenario-workload.h: MrcScenarioWorkload, the messages of a pattern;
 *  - mrc-stall-tracker.h: MrcStallTracker, per-message stalls under failures;
 *  - mrc-scenario-report.h: MrcScenarioReport, pfc.txt, link records and counters;
 *  - mrc-scenario-series.h: MrcScenarioSeries, the time series of timeseries.csv;
 *  - mrc-scenario-runner.h: MrcScenarioRunner, which builds, runs and collects;
 *  - mrc-sim-main.h: MrcSimMain, the program.
 */

#include "mrc-command-line.h"
#include "mrc-scenario-config.h"
#include "mrc-scenario-inputs.h"
#include "mrc-scenario-options.h"
#include "mrc-scenario-presets.h"
#include "mrc-scenario-report.h"
#include "mrc-scenario-runner.h"
#include "mrc-scenario-series.h"
#include "mrc-scenario-workload.h"
#include "mrc-sim-main.h"
#include "mrc-stall-tracker.h"
#include "mrc-topology-options.h"
#include "mrc-transport-table.h"

#endif /* MRC_SCENARIO_H */
