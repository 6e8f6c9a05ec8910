#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""CTest check of scripts/ (validate.py, plot.py, sweep.py, mrcresults.py, cc-cuts.py,
paired-rounds.py) and of the case files in validation/, on synthetic result folders in a
temporary folder. A fake mrc-sim (a small Python program written here) stands in for the
real one, so the check needs neither a build nor a simulation.

    test/check-scripts.py REPO_ROOT
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, SCRIPTS)
os.environ.setdefault("MPLBACKEND", "Agg")

import mrcresults as mr  # noqa: E402
import plot  # noqa: E402
import sweep  # noqa: E402
import validate  # noqa: E402

FLOW_HDR = "transport,flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown\n"
LINK_HDR = ("from,from_port,to,to_port,rate_bps,packets,bytes,utilization,drops,trims,ecn_marks,"
            "pauses_sent,pauses_received,paused_ns\n")


def flow(t, fid, src, dst, size, start, fct, ideal):
    end = "" if fct is None else str(start + fct)
    sd = "" if fct is None else "%.6f" % (fct / ideal)
    return "%s,%d,%d,%d,%d,%d,%s,%s,%d,%s\n" % (t, fid, src, dst, size, start, end,
                                                "" if fct is None else fct, ideal, sd)


def link(a, b, nbytes, util=0.5, drops=0):
    return "%s,0,%s,1,100000000000,%d,%d,%.6f,%d,0,0,0,0,0\n" % (a, b, nbytes // 1000, nbytes, util, drops)


def write_result(folder, flows="", links="", ts="", events="", transports=None, options=None, sim_ns=1000000):
    os.makedirs(folder, exist_ok=True)
    summary = {"schema": 1, "run": {"scenario": "x", "seed": 1, "options": options or {},
                                    "simulatedTimeNs": sim_ns},
               "transports": transports if transports is not None else {"roce": {"goodputGbps": 50.0}}}
    files = {"summary.json": json.dumps(summary), "flows.csv": FLOW_HDR + flows, "links.csv": LINK_HDR + links,
             "timeseries.csv": "time_ns,transport,entity,metric,value\n" + ts,
             "events.csv": "time_ns,kind,where,detail\n" + events, "fct.txt": "", "pfc.txt": ""}
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    return mr.Result(folder)


def permutation_result(folder):
    """Three roce flows at rate fractions 1, 1/2, 1/3 (ideal 100 us)."""
    flows = (flow("roce", 0, 0, 1, 1000000, 0, 100000, 100000) + flow("roce", 1, 1, 2, 1000000, 0, 200000, 100000)
             + flow("roce", 2, 2, 0, 1000000, 0, 300000, 100000))
    links = (link("host0", "p0-t0-0", 1000000) + link("p0-t0-0", "p0-t1-0", 2000000)
             + link("p0-t0-0", "p0-t1-1", 1000, util=0.0))
    return write_result(folder, flows, links, transports={"roce": {"goodputGbps": 40.0, "pfcPauseFrames": 3}})


# The fake mrc-sim: --list names two scenarios; --transport=mrc and unknown options are
# rejected with exit 2 like mrc-sim's; otherwise the template folder FAKE_TEMPLATE (or a
# variant of it, see below) is copied into --out, and the arguments are appended to FAKE_LOG.
FAKE_SIM = '#!' + sys.executable + r'''
import os, shutil, sys
args = sys.argv[1:]
if "--list" in args:
    print("permutation   every host writes --bytes to a distinct random host")
    print("incast        --senders hosts write --bytes each to the last host")
    sys.exit(0)
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(" ".join(args) + "\n")
out = None
for a in args[1:] if args and not args[0].startswith("-") else args:
    name, _, val = a[2:].partition("=")
    if name == "transport" and val != "roce":
        sys.stderr.write("error: invalid value '%s' for --transport (allowed: roce)\n" % val)
        sys.exit(2)
    if name not in ("transport", "seed", "bytes", "out", "simTime", "crash", "sampleInterval", "checkOnly",
                    "variant"):
        sys.stderr.write("error: unknown option '%s' (allowed: --transport, --seed, ...)\n" % a)
        sys.exit(2)
    if name == "out":
        out = val
if "--crash=1" in args and "--checkOnly=1" not in args:
    sys.exit(134)
if os.path.isdir(out):
    shutil.rmtree(out)
# --variant=V copies FAKE_TEMPLATE-V; else --seed=S copies FAKE_TEMPLATE-seedS when it exists.
template = os.environ["FAKE_TEMPLATE"]
for a in args:
    if a.startswith("--seed=") and os.path.isdir(template + "-seed" + a[7:]):
        template = template + "-seed" + a[7:]
for a in args:
    if a.startswith("--variant="):
        template = os.environ["FAKE_TEMPLATE"] + "-" + a[10:]
        for s in args:  # FAKE_TEMPLATE-V-seedS when it exists
            if s.startswith("--seed=") and os.path.isdir(template + "-seed" + s[7:]):
                template = template + "-seed" + s[7:]
                break
shutil.copytree(template, out)
sys.exit(0)
'''


def case_text(cid, runs, metric, relation, value, tol="0", requires="", quick="yes", plots="", extra="",
              case_extra="", expect_extra="", ablation=None):
    body = textwrap.dedent("""\
        [case]
        id = %s
        title = title of %s
        claim = claim of %s
            on two lines
        source = [P1] Fig. 0
        scaling = none
        quick = %s
        requires = %s
        plots = %s
        """) % (cid, cid, cid, quick, requires, plots) + case_extra
    for label, args in runs:
        body += "\n[run %s]\nargs = %s\n" % (label, args)
    body += "\n[metric]\nname = %s\n%s\n[expect]\nrelation = %s\nvalue = %s\ntolerance = %s\n" % (
        metric, extra, relation, value, tol) + expect_extra
    if ablation is not None:
        body += "\n[ablation]\n" + ablation
    return body


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mrc-check-scripts-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def p(self, *parts):
        return os.path.join(self.tmp, *parts)


class Metrics(Base):
    def test_rate_fractions(self):
        r = permutation_result(self.p("perm"))
        v, note = validate.METRICS["min_flow_rate_fraction"]([r], {})
        self.assertAlmostEqual(v, 1 / 3, places=12)
        self.assertIn("flow 2", note)

    def test_unfinished_flow_counts_zero_and_interrupted(self):
        flows = flow("roce", 0, 0, 1, 1000, 0, 5000, 5000) + flow("roce", 1, 1, 0, 1000, 0, None, 5000)
        r = write_result(self.p("u"), flows, events="50,qp_error,host1,retry exceeded\n")
        self.assertEqual(validate.METRICS["min_flow_rate_fraction"]([r], {})[0], 0.0)
        self.assertEqual(validate.METRICS["interrupted_flows"]([r], {}), (1, "1 unfinished, 1 qp_error events"))
        done = write_result(self.p("d"), flow("roce", 0, 0, 1, 1000, 0, 5000, 5000),
                            events="50,qp_error,host1,x\n60,qp_error,host2,y\n")
        self.assertEqual(validate.METRICS["interrupted_flows"]([done], {})[0], 2)

    def test_incast_victim_and_fairness(self):
        # incast to host 9 (3 flows: rates 8, 8, 4 Gb/s), victim 4 -> 5 at fraction 0.8
        flows = (flow("roce", 0, 1, 9, 1000, 0, 1000, 500) + flow("roce", 1, 2, 9, 1000, 0, 1000, 500)
                 + flow("roce", 2, 3, 9, 1000, 0, 2000, 500) + flow("roce", 3, 4, 5, 1000, 0, 1000, 800))
        r = write_result(self.p("inc"), flows)
        self.assertAlmostEqual(validate.METRICS["victim_rate_fraction"]([r], {})[0], 0.8)
        j = (8 + 8 + 4) ** 2 / (3 * (64 + 64 + 16))
        self.assertAlmostEqual(validate.METRICS["jain_fairness"]([r], {})[0], j)

    def test_fair_share_ratio_window(self):
        flows = flow("roce", 0, 1, 9, 1000, 0, 1000, 500) + flow("roce", 1, 2, 9, 1000, 0, 2000, 500)
        ts = ""
        for t in range(0, 1001, 100):
            ts += "%d,roce,flow0,tx_gbps,%d\n%d,roce,flow1,tx_gbps,%d\n" % (t, 90 if t < 500 else 60, t, 10 if t < 500 else 40)
        r = write_result(self.p("fs"), flows, ts=ts)
        # window [500, 1000]: means 60 and 40
        self.assertAlmostEqual(validate.METRICS["fair_share_ratio"]([r], {"converge_fraction": "0.5"})[0], 40 / 60)

    def test_ecmp_idle(self):
        # 2 T0 x 2 uplinks; hosts 0,1 under t0-0, hosts 2,3 under t0-1. Flows 0->2, 1->3 leave
        # t0-0 (m=2); 2->0 leaves t0-1 (m=1); 3->2 stays (intra-T0).
        links = "".join(link("host%d" % h, "p0-t0-%d" % (h // 2), 10) for h in range(4))
        links += (link("p0-t0-0", "p0-t1-0", 2000) + link("p0-t0-0", "p0-t1-1", 100)
                  + link("p0-t0-1", "p0-t1-0", 1000) + link("p0-t0-1", "p0-t1-1", 0)
                  + link("p0-t1-0", "p0-t0-1", 5000))
        flows = (flow("roce", 0, 0, 2, 1000, 0, 10, 10) + flow("roce", 1, 1, 3, 1000, 0, 10, 10)
                 + flow("roce", 2, 2, 0, 1000, 0, 10, 10) + flow("roce", 3, 3, 2, 1000, 0, 10, 10))
        r = write_result(self.p("ecmp"), flows, links)
        v, note = validate.METRICS["idle_uplink_fraction"]([r], {})
        self.assertEqual(v, 0.5)  # 100 and 0 bytes are below half a message (500 B)
        self.assertEqual(note, "2 of 4 uplinks idle")
        self.assertAlmostEqual(validate.METRICS["ecmp_idle_theory"]([r], {})[0], (0.25 * 2 + 0.5 * 2) / 4)

    def test_counters_and_goodput(self):
        a = permutation_result(self.p("a"))
        b = write_result(self.p("b"), links=link("p0-t0-0", "p0-t1-0", 10, drops=4) + link("x", "y", 1, drops=3),
                         transports={"mrc": {"goodputGbps": 80.0, "pfcPauseFrames": 0}})
        self.assertEqual(validate.METRICS["fabric_drops"]([a, b], {})[0], 7)
        self.assertEqual(validate.METRICS["pfc_pause_frames"]([a, b], {})[0], 3)
        # link_drops: only the rows from -> to, summed over the runs; a link not there is an error
        self.assertEqual(validate.METRICS["link_drops"]([b, b], {"from": "p0-t0-0", "to": "p0-t1-0"})[0], 8)
        self.assertEqual(validate.METRICS["link_drops"]([b], {"from": "x", "to": "y"})[0], 3)
        with self.assertRaisesRegex(Exception, "no link from 'y' to 'x'"):
            validate.METRICS["link_drops"]([b], {"from": "y", "to": "x"})
        with self.assertRaisesRegex(validate.CaseError, "link_drops needs from"):
            validate.METRICS["link_drops"]([b], {"from": "x"})
        self.assertEqual(validate.METRICS["goodput_ratio"]([b, a], {})[0], 2.0)
        self.assertEqual(validate.METRICS["min_goodput_ratio"]([b, a, a, b], {})[0], 0.5)

    def test_failure_metrics(self):
        ts = ""
        levels = {0: 100, 100: 100, 200: 100, 300: 20, 400: 50, 500: 95, 600: 92, 700: 91, 800: 75, 900: 75}
        for t, v in levels.items():
            ts += "%d,,host0,rx_gbps,%g\n%d,,host1,rx_gbps,%g\n" % (t * 1000, v / 2, t * 1000, v / 2)
        ev = "250000,link_down,p0-t0-0-p0-t1-0,\n"
        r = write_result(self.p("f"), ts=ts, events=ev)
        # pre-failure window [150, 250) us: 100 Gb/s; back at >= 90 at 500 us for 3 samples
        self.assertEqual(validate.METRICS["dip_duration_us"]([r], {"window_us": "100"})[0], 250.0)
        # after window [800, 900) us + settle 550: samples 800 -> 75
        v = validate.METRICS["throughput_ratio_after_failure"]([r], {"window_us": "100", "settle_us": "550"})[0]
        self.assertAlmostEqual(v, 0.75)
        # stat = min over [300, 700) us (settle 50, 400 us long): the 20 at 300 us
        v = validate.METRICS["throughput_ratio_after_failure"]([r], {"window_us": "100", "settle_us": "50",
                                                                     "after_window_us": "400", "stat": "min"})[0]
        self.assertAlmostEqual(v, 0.2)
        v = validate.METRICS["throughput_ratio_after_failure"]([r], {"window_us": "100", "settle_us": "50",
                                                                     "after_window_us": "400"})[0]
        self.assertAlmostEqual(v, (20 + 50 + 95 + 92) / 4 / 100)
        with self.assertRaises(validate.CaseError):
            validate.METRICS["throughput_ratio_after_failure"]([r], {"stat": "max"})
        # the same window of a control run without the failure: [300, 700) us (settle 50)
        ts2 = "".join("%d,,host0,rx_gbps,%g\n" % (t * 1000, 100) for t in levels)
        c = write_result(self.p("ctl"), ts=ts2)
        v = validate.METRICS["throughput_ratio_vs_control"]([r, c], {"settle_us": "50", "after_window_us": "400"})[0]
        self.assertAlmostEqual(v, (20 + 50 + 95 + 92) / 4 / 100)
        with self.assertRaises(validate.CaseError):
            validate.METRICS["throughput_ratio_vs_control"]([r], {})
        with self.assertRaises(mr.ResultError):
            validate.METRICS["throughput_ratio_vs_control"]([c, r], {})  # the first run must hold the failure
        none = write_result(self.p("nf"), ts=ts)
        with self.assertRaises(mr.ResultError):
            validate.METRICS["dip_duration_us"]([none], {})

    def test_transport_counter(self):
        a = write_result(self.p("ca"), transports={"uec": {"timeouts": 0, "trims": 5}})
        b = write_result(self.p("cb"), transports={"uec": {"timeouts": 3, "trims": 7}})
        self.assertEqual(validate.METRICS["transport_counter"]([a, b], {"counter": "trims"})[0], 12)
        self.assertEqual(validate.METRICS["transport_counter"]([a], {"counter": "timeouts"})[0], 0)
        with self.assertRaises(mr.ResultError):
            validate.METRICS["transport_counter"]([a], {"counter": "nacks"})
        with self.assertRaises(validate.CaseError):
            validate.METRICS["transport_counter"]([a], {})

    def test_goodput_vs_expected(self):
        a = write_result(self.p("ga"), transports={"mrc": {"goodputGbps": 99.0}})
        b = write_result(self.p("gb"), transports={"mrc": {"goodputGbps": 52.0}})
        v, note = validate.METRICS["goodput_vs_expected"]([a, b], {"expected_gbps": "100 50"})
        self.assertAlmostEqual(v, 0.04)
        self.assertIn("52.00 of 50 Gb/s", note)
        for bad in ({}, {"expected_gbps": "100"}, {"expected_gbps": "100 0"}):
            with self.assertRaises(validate.CaseError):
                validate.METRICS["goodput_vs_expected"]([a, b], bad)

    def test_step_tracking(self):
        # 100 Gb/s, then links cut at 200 and 500 us: 75 from 250 us, 50 from 550 us
        ts = ""
        for t in range(0, 900, 10):
            v = 100 if t < 200 else 20 if t < 250 else 75 if t < 500 else 10 if t < 550 else 50
            ts += "%d,,host0,rx_gbps,%g\n" % (t * 1000, v)
        ev = "200000,link_down,a,\n500000,link_down,b,\n"
        r = write_result(self.p("st"), ts=ts, events=ev)
        p = {"levels": "0.75 0.5", "settle_us": "50", "window_us": "100"}
        v, note = validate.METRICS["step_tracking_error"]([r], p)
        self.assertAlmostEqual(v, 0.0)
        self.assertIn("0.750 0.500", note)
        # a level off by 0.2 at the second step; no settling: the first step's dip counts
        self.assertAlmostEqual(validate.METRICS["step_tracking_error"]([r], dict(p, levels="0.75 0.3"))[0], 0.2)
        v, note = validate.METRICS["step_tracking_error"]([r], dict(p, settle_us="0"))
        self.assertIn("0.658 0.300", note)  # (5 x 20 + 25 x 75) / 30; (5 x 10 + 5 x 50) / 10
        self.assertAlmostEqual(v, 0.2)
        with self.assertRaises(mr.ResultError):
            validate.METRICS["step_tracking_error"]([r], dict(p, levels="0.75"))
        with self.assertRaises(validate.CaseError):
            validate.METRICS["step_tracking_error"]([r], {})

    def test_stall_metrics(self):
        # Two transports in one run (tagged details) and a one-transport run (untagged).
        ev = ("150000,link_down,p0-t0-0:4-p0-t1-0:0,transport=roce\n"
              "150000,link_down,p0-t0-0:4-p0-t1-0:0,transport=mrc\n"
              "900000,flow_stall,flow0,max_stall_ns=5000 from_ns=0 transport=mrc\n"
              "950000,flow_stall,flow1,max_stall_ns=7500 from_ns=200000 transport=mrc\n"
              "3000000,flow_stall,flow0,max_stall_ns=960000 from_ns=1950000 transport=roce\n"
              "3100000,flow_stall,flow1,max_stall_ns=50000 from_ns=2950000 transport=roce\n")
        r = write_result(self.p("s"), events=ev, transports={"roce": {}, "mrc": {}},
                         options={"mrc.mrcTimeoutNs": "262144"})
        self.assertEqual(validate.METRICS["max_stall_us"]([r], {"transport": "mrc"})[0], 7.5)
        self.assertEqual(validate.METRICS["max_stall_us"]([r], {"transport": "roce"})[0], 960.0)
        # latest stall end: 2950 + 50 = 3000 us (all), 1950 + 960 = 2910 us (>= 100 us), - 150
        self.assertEqual(validate.METRICS["stall_end_after_failure_us"]([r], {"transport": "roce"})[0], 2850.0)
        self.assertEqual(validate.METRICS["stall_end_after_failure_us"](
            [r], {"transport": "roce", "min_stall_us": "100"})[0], 2760.0)
        self.assertEqual(validate.METRICS["mrc_timeout_us"]([r], {})[0], 262.144)
        one = write_result(self.p("o"), events="10,flow_stall,flow3,max_stall_ns=2500 from_ns=10\n",
                           transports={"mrc": {}}, options={"mrcTimeoutNs": "1024"})
        self.assertEqual(validate.METRICS["max_stall_us"]([one], {"transport": "mrc"})[0], 2.5)
        self.assertEqual(validate.METRICS["mrc_timeout_us"]([one], {})[0], 1.024)
        with self.assertRaises(mr.ResultError):
            validate.METRICS["max_stall_us"]([one], {"transport": "roce"})
        with self.assertRaises(mr.ResultError):  # no failure record
            validate.METRICS["stall_end_after_failure_us"]([one], {})
        with self.assertRaises(mr.ResultError):
            validate.METRICS["mrc_timeout_us"]([write_result(self.p("n"))], {})

    def test_pair_rate_and_fct(self):
        # pair 0 -> 1: two 500 B messages (ideal 50 each) from 0 to 200: 100 / 200 = 0.5;
        # pair 2 -> 3: one 1000 B message at line rate; pair 4 -> 5 unfinished: 0
        flows = (flow("roce", 0, 0, 1, 500, 0, 100, 50) + flow("roce", 1, 0, 1, 500, 50, 150, 50)
                 + flow("roce", 2, 2, 3, 1000, 0, 100, 100))
        r = write_result(self.p("pr"), flows)
        v, note = validate.METRICS["min_pair_rate_fraction"]([r], {})
        self.assertAlmostEqual(v, 0.5)
        self.assertIn("0 -> 1", note)
        self.assertIn("2 messages", note)
        u = write_result(self.p("pu"), flows + flow("roce", 3, 4, 5, 1000, 0, None, 100))
        self.assertEqual(validate.METRICS["min_pair_rate_fraction"]([u], {})[0], 0.0)
        self.assertEqual(validate.METRICS["fct_us"]([r], {"stat": "max"})[0], 0.15)
        self.assertEqual(validate.METRICS["fct_us"]([r], {"stat": "min"})[0], 0.1)
        self.assertEqual(validate.METRICS["fct_us"]([r], {"max_bytes": "500", "stat": "median"})[0], 0.125)
        with self.assertRaises(validate.CaseError):
            validate.METRICS["fct_us"]([r], {"stat": "mean"})
        with self.assertRaises(mr.ResultError):
            validate.METRICS["fct_us"]([r], {"max_bytes": "10"})

    def test_goodput_fraction(self):
        a = write_result(self.p("ga"), transports={"mrc": {"goodputGbps": 720.0}})
        b = write_result(self.p("gb"), transports={"mrc": {"goodputGbps": 800.0}})
        self.assertAlmostEqual(validate.METRICS["goodput_fraction"]([b, a], {"capacity_gbps": "800"})[0], 0.9)
        with self.assertRaises(validate.CaseError):
            validate.METRICS["goodput_fraction"]([a], {})

    def test_ev_metrics(self):
        ev = ("100,ev_state,host0:qp1,ev 3 value 0x10 plane 0 GOOD->ASSUMED_BAD LOSS_INFERRED\n"
              "100,ev_state,host0:qp1,ev 9 value 0x20 plane 0 UNKNOWN->GOOD PROMOTED\n"
              "110,ev_state,host0:qp1,ev 4 value 0x11 plane 0 GOOD->ASSUMED_BAD TIMEOUT\n"
              "120,ev_state,host2:qp1,ev 3 value 0x10 plane 0 GOOD->ASSUMED_BAD LOSS_INFERRED\n"
              "900,ev_state,host0:qp1,ev 3 value 0x10 plane 0 ASSUMED_BAD->GOOD PROBE_REVIVED\n"
              "950,ev_state,host0:qp1,ev 4 value 0x11 plane 0 ASSUMED_BAD->GOOD PROBE_REVIVED\n"
              "990,ev_state,host5:qp1,ev 7 value 0x11 plane 0 ASSUMED_BAD->GOOD PROBE_REVIVED\n")
        r = write_result(self.p("ev"), events=ev)
        tr = validate.METRICS["ev_transitions"]
        self.assertEqual(tr([r], {"to": "GOOD", "reason": "PROMOTED"})[0], 1)
        self.assertEqual(tr([r], {"to": "ASSUMED_BAD"})[0], 3)
        self.assertEqual(tr([r], {"from_state": "ASSUMED_BAD"})[0], 3)
        self.assertEqual(tr([r], {})[0], 7)
        # 3 distinct EVs went bad (host0 ev 3, host0 ev 4, host2 ev 3); 2 of them revived
        # (host5's revival had no recorded fall: not counted)
        v, note = validate.METRICS["ev_revived_fraction"]([r], {})
        self.assertAlmostEqual(v, 2 / 3)
        self.assertEqual(note, "2 of 3 EVs marked bad were revived by probes")
        with self.assertRaises(mr.ResultError):
            validate.METRICS["ev_revived_fraction"]([write_result(self.p("ne"))], {})


class Judge(Base):
    def case(self, relation, value, tol):
        path = self.p("%s.case" % len(os.listdir(self.tmp)))
        with open(path, "w") as f:
            f.write(case_text("c", [("a", "permutation")], "fabric_drops", relation, value, tol))
        return validate.Case(path)

    def test_relations(self):
        c = self.case(">=", "0.95", "0.05")
        self.assertTrue(validate.judge(c, 0.9, 0.95))
        self.assertFalse(validate.judge(c, 0.8999, 0.95))
        c = self.case("<=", "0.5", "10%")
        self.assertTrue(validate.judge(c, 0.55, 0.5))
        self.assertFalse(validate.judge(c, 0.5501, 0.5))
        c = self.case("within", "0.75", "0.05")
        self.assertTrue(validate.judge(c, 0.71, 0.75))
        self.assertFalse(validate.judge(c, 0.69, 0.75))
        c = self.case("between", "1, 2", "0.1")
        self.assertEqual(c.expected_text(), "between 1 and 2")
        self.assertTrue(validate.judge(c, 2.1, None))
        self.assertFalse(validate.judge(c, 0.89, None))
        c = self.case("==", "0", "0")
        self.assertTrue(validate.judge(c, 0, 0))
        self.assertFalse(validate.judge(c, 1, 0))

    def test_malformed(self):
        for args in [("~", "1", "0"), ("between", "1", "0"), (">=", "x", "0"), (">=", "@nometric", "0"),
                     (">=", "1", "-1")]:
            with self.assertRaises(validate.CaseError):
                self.case(*args)
        path = self.p("bad.case")
        with open(path, "w") as f:
            f.write(case_text("c", [("a", "permutation --out=x")], "fabric_drops", "==", "0"))
        with self.assertRaises(validate.CaseError):
            validate.Case(path)
        with open(path, "w") as f:
            f.write(case_text("c", [("a", "permutation")], "no_such_metric", "==", "0"))
        with self.assertRaises(validate.CaseError):
            validate.Case(path)

    def test_casedir(self):
        path = self.p("cd.case")
        with open(path, "w") as f:
            f.write(case_text("c", [("a", "incast --flowFile={casedir}/flows.txt")], "fabric_drops", "==", "0"))
        c = validate.Case(path)
        self.assertEqual(c.base[0][1], ["incast", "--flowFile=%s/flows.txt" % self.tmp])
        self.assertEqual([r.args for r in c.variants[1].runs],
                         [["incast", "--flowFile=%s/flows.txt" % self.tmp, "--seed=2"]])

    def test_casedir_in_ablation(self):
        path = self.p("cda.case")
        with open(path, "w") as f:
            f.write(case_text("c", [("a", "incast --flowFile={casedir}/one.txt")], "fabric_drops", "==", "0",
                              ablation="args = --flowFile={casedir}/eight.txt --qpsPerConnection=8\n"
                                       "mechanism = one hash per flow\n"))
        c = validate.Case(path)
        self.assertEqual(len(c.ablated), 3)  # every seed
        self.assertEqual(c.ablated[0].runs[0].args,
                         ["incast", "--flowFile=%s/one.txt" % self.tmp, "--seed=1",
                          "--flowFile=%s/eight.txt" % self.tmp, "--qpsPerConnection=8"])

    def test_repository_cases_parse(self):
        cases = validate.load_cases(os.path.join(ROOT, "validation"))
        self.assertGreaterEqual(len(cases), 7)
        for c in cases:
            self.assertTrue(c.claim and c.source and c.scaling, c.id)
            for k in c.plots:
                self.assertIn(k, plot.PLOTTERS, c.id)
            self.assertTrue(c.id.split("-")[0][:2].isdigit(), c.id)


class EndToEnd(Base):
    def setUp(self):
        super().setUp()
        self.sim = self.p("fake-mrc-sim")
        with open(self.sim, "w") as f:
            f.write(FAKE_SIM)
        os.chmod(self.sim, 0o755)
        permutation_result(self.p("template"))
        os.environ["FAKE_TEMPLATE"] = self.p("template")
        os.environ["FAKE_LOG"] = self.p("sim.log")
        os.makedirs(self.p("cases"))
        cases = {
            "a": case_text("a-pass", [("r1", "permutation --seed=1"), ("r2", "permutation --seed=2")],
                           "min_flow_rate_fraction", "<=", "0.5", "0.1", plots="rate_fraction fct_cdf throughput utilization goodput"),
            "b": case_text("b-fail", [("r1", "permutation --seed=1")], "min_flow_rate_fraction", ">=", "0.95",
                           quick="no"),
            "c": case_text("c-skip-transport", [("m", "permutation --transport=mrc")], "min_flow_rate_fraction",
                           ">=", "0.95", requires="transport:mrc"),
            "d": case_text("d-skip-scenario", [("f", "failover --seed=1")], "fabric_drops", "==", "0",
                           requires="scenario:failover"),
            "e": case_text("e-undeclared", [("x", "permutation --lossRate=0.01")], "fabric_drops", "==", "0"),
            "f": case_text("f-crash", [("c", "permutation --crash=1")], "fabric_drops", "==", "0", quick="no"),
        }
        for k, text in cases.items():
            with open(self.p("cases", k + ".case"), "w") as f:
                f.write(text)

    def validate(self, *extra):
        out = self.p("out")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "validate.py"), "--sim=" + self.sim,
                            "--cases=" + self.p("cases"), "--out=" + out, "--jobs=2"] + list(extra),
                           capture_output=True, text=True, timeout=120)
        report = os.path.join(out, "report.md")
        text = open(report).read() if os.path.exists(report) else ""
        return p.returncode, text, p.stdout + p.stderr

    def test_all_cases(self):
        rc, report, log = self.validate()
        self.assertEqual(rc, 1, log)
        rows = [ln for ln in report.splitlines() if ln.startswith("| ") and not ln.startswith("| Case")]
        self.assertEqual(len(rows), 6, report)
        self.assertIn("| a-pass | title of a-pass | 1 2 3 | 0.3333 / 0.3333 / 0.3333 | <= 0.5 ± 0.1 | - | no ablation | PASS |", rows)
        self.assertIn("| b-fail | title of b-fail | 1 2 3 | 0.3333 / 0.3333 / 0.3333 | >= 0.95 | - | no ablation | FAIL |", rows)
        self.assertIn("| c-skip-transport | title of c-skip-transport | 1 2 3 | - | >= 0.95 | - | no ablation | SKIPPED (not yet available: transport:mrc) |", rows)
        self.assertIn("| d-skip-scenario | title of d-skip-scenario | 1 2 3 | - | = 0 | - | no ablation | SKIPPED (not yet available: scenario 'failover') |", rows)
        self.assertIn("| e-undeclared | title of e-undeclared | 1 2 3 | - | = 0 | - | no ablation | FAIL |", rows)
        self.assertIn("| f-crash | title of f-crash | 1 2 3 | - | = 0 | - | no ablation | FAIL |", rows)
        self.assertIn("not yet available: transport:mrc", report)
        self.assertIn("not yet available: scenario 'failover'", report)
        self.assertIn("mrc-sim rejected the options: error: unknown option '--lossRate=0.01'", report)
        self.assertNotIn("(allowed: --transport", report)
        self.assertIn("mrc-sim exited 134", report)
        self.assertIn("- **Claim:** claim of a-pass on two lines", report)
        for kind in ("rate_fraction", "fct_cdf", "throughput", "utilization", "goodput"):
            png = self.p("out", "plots", "a-pass-%s.png" % kind)
            self.assertGreater(os.path.getsize(png), 1000, png)
            self.assertIn("](plots/a-pass-%s.png)" % kind, report)
        # permutation --seed=1 is shared by a-pass and b-fail, whose runs set their own seed:
        # five real runs (seed 1, seed 2, and the crash at the default seeds 1, 2, 3), and a
        # probe with --checkOnly=1 for each of the 11 distinct runs of an existing scenario
        # (a-pass 2, c, e and f 3 each).
        with open(self.p("sim.log")) as f:
            calls = f.read().splitlines()
        real = [c for c in calls if "--checkOnly=1" not in c]
        self.assertEqual(len(real), 5, calls)
        crash = sorted(c.split("--seed=")[1].split()[0] for c in real if c.startswith("permutation --crash=1 "))
        self.assertEqual(crash, ["1", "2", "3"], calls)
        self.assertEqual(len(calls) - len(real), 11, calls)

    def test_quick_and_single(self):
        rc, report, log = self.validate("--quick", "--no-plots")
        self.assertEqual(rc, 1, log)  # e-undeclared is quick and fails
        self.assertNotIn("b-fail", report)
        self.assertNotIn("f-crash", report)
        rc, report, log = self.validate("--case=a-pass", "--no-plots")
        self.assertEqual(rc, 0, log)
        self.assertIn("1 PASS, 0 FAIL, 0 SKIPPED", report)
        rc, report, log = self.validate("--case=c-skip-transport")
        self.assertEqual(rc, 0, log)

    def test_reuse(self):
        self.validate("--case=a-pass", "--no-plots")
        n = len(open(self.p("sim.log")).read().splitlines())
        rc, report, log = self.validate("--case=a-pass", "--reuse", "--no-plots")
        calls = open(self.p("sim.log")).read().splitlines()[n:]
        self.assertEqual(rc, 0, log)
        self.assertTrue(all("--checkOnly=1" in c for c in calls), calls)

    def test_no_simulator_skips_everything(self):
        self.sim = self.p("not-built")
        rc, report, log = self.validate()
        self.assertEqual(rc, 0, log)
        self.assertIn("0 PASS, 0 FAIL, 6 SKIPPED", report)
        self.assertIn("is not built", report)

    def test_bad_options(self):
        for extra in (["--bogus"], ["--case=nope"], ["--jobs=0"]):
            rc, _, log = self.validate(*extra)
            self.assertEqual(rc, 2, log)
        with open(self.p("cases", "z.case"), "w") as f:
            f.write("[case]\nid = z\n")
        rc, _, log = self.validate()
        self.assertEqual(rc, 2, log)
        self.assertIn("z.case: no [metric] section", log)


def rates_result(folder, fractions):
    """roce flows at the given rate fractions of line rate (ideal 100 us)."""
    flows = "".join(flow("roce", i, i, (i + 1) % len(fractions), 1000000, 0, int(round(100000 / x)), 100000)
                    for i, x in enumerate(fractions))
    return write_result(folder, flows, link("host0", "p0-t0-0", 1000000))


class Verdicts(Base):
    """Seeds, two-sided bands, DIVERGES, ablations and INSENSITIVE, with the fake mrc-sim: its
    result at --seed=2 and 3 and with --variant=fast differ from the template's."""

    def setUp(self):
        super().setUp()
        self.sim = self.p("fake-mrc-sim")
        with open(self.sim, "w") as f:
            f.write(FAKE_SIM)
        os.chmod(self.sim, 0o755)
        permutation_result(self.p("template"))  # slowest flow 1/3 (seed 1 and any other seed)
        rates_result(self.p("template-seed2"), [1.0, 0.5])
        rates_result(self.p("template-seed3"), [1.0, 0.8, 0.25])
        rates_result(self.p("template-fast"), [1.0, 1.0])  # the "ablation": every flow at line rate
        os.environ["FAKE_TEMPLATE"] = self.p("template")
        os.environ["FAKE_LOG"] = self.p("sim.log")
        os.makedirs(self.p("cases"))

    def run_cases(self, cases, *extra):
        for k, text in cases.items():
            with open(self.p("cases", k + ".case"), "w") as f:
                f.write(text)
        out = self.p("out")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "validate.py"), "--sim=" + self.sim,
                            "--cases=" + self.p("cases"), "--out=" + out, "--jobs=2", "--no-plots"] + list(extra),
                           capture_output=True, text=True, timeout=120)
        report = os.path.join(out, "report.md")
        text = open(report).read() if os.path.exists(report) else ""
        return p.returncode, text, p.stdout + p.stderr

    def calls(self):
        with open(self.p("sim.log")) as f:
            return [c for c in f.read().splitlines() if "--checkOnly=1" not in c]

    def rows(self, report):
        return [ln for ln in report.splitlines() if ln.startswith("| ") and not ln.startswith("| Case")]

    def test_insensitive_metric_fails(self):
        # The ablation's option changes nothing the metric reads: still 1/3 <= 0.5.
        rc, report, log = self.run_cases({"i": case_text(
            "i-insensitive", [("r", "permutation")], "min_flow_rate_fraction", "<=", "0.5",
            ablation="args = --simTime=1ms\nmechanism = the collisions (not really)\n")})
        self.assertEqual(rc, 1, log)
        self.assertEqual(self.rows(report), [
            "| i-insensitive | title of i-insensitive | 1 2 3 | 0.25 / 0.3333 / 0.5 | <= 0.5 | - "
            "| 0.25 / 0.3333 / 0.5 still passes | INSENSITIVE |"])
        self.assertIn("0 PASS, 0 FAIL, 0 SKIPPED, 0 DIVERGES, 1 INSENSITIVE", report)
        self.assertIn("still passes with the ablation (--simTime=1ms) at every seed: measured 0.3333 / 0.5 / 0.25",
                      report)
        self.assertIn("INSENSITIVE", log)
        # The ablation runs at every seed: 3 seeds + 3 ablated.
        calls = self.calls()
        self.assertEqual(len(calls), 6, calls)
        self.assertEqual(sorted(c.split(" --out=")[0] for c in calls if "--simTime=1ms" in c),
                         ["permutation --seed=%d --simTime=1ms" % s for s in (1, 2, 3)])

    def test_ablation_failing_at_one_seed_is_sensitive(self):
        # The ablated case holds at seeds 1 and 2 and fails at seed 3: like a case that fails at
        # one seed, it fails, so the metric does depend on the mechanism (with the ablation run
        # at the first seed only this case read INSENSITIVE).
        permutation_result(self.p("template-mixed"))
        rates_result(self.p("template-mixed-seed3"), [1.0, 1.0])
        rc, report, log = self.run_cases({"m": case_text(
            "m-mixed", [("r", "permutation")], "min_flow_rate_fraction", "<=", "0.5",
            ablation="args = --variant=mixed\nmechanism = collisions at some seeds\n")})
        self.assertEqual(rc, 0, log)
        self.assertEqual(self.rows(report), [
            "| m-mixed | title of m-mixed | 1 2 3 | 0.25 / 0.3333 / 0.5 | <= 0.5 | - "
            "| 0.3333 / 0.3333 / 1 fails at seed 3 | PASS |"])
        self.assertIn("  - ablated, seed 3: 1 fail", report)
        self.assertIn("  - ablated, seed 1: 0.3333 pass", report)

    def test_sensitive_metric_passes_and_seed_spread(self):
        rc, report, log = self.run_cases({"s": case_text(
            "s-sensitive", [("r", "permutation"), ("ref", "permutation --seed=3")], "min_flow_rate_fraction",
            "<=", "0.5", extra="runs = r\n", expect_extra="published = 0.5 (half of line rate)\n",
            ablation="args = --variant=fast\nruns = r\nmechanism = hash collisions\n")})
        self.assertEqual(rc, 0, log)
        self.assertEqual(self.rows(report), [
            "| s-sensitive | title of s-sensitive | 1 2 3 | 0.25 / 0.3333 / 0.5 | <= 0.5 | 0.5 (half of line rate) "
            "| 1 / 1 / 1 fails at seeds 1, 2, 3 | PASS |"])
        self.assertIn("  - seed 1: 0.3333 pass", report)
        self.assertIn("  - seed 2: 0.5 pass", report)
        self.assertIn("  - seed 3: 0.25 pass", report)
        self.assertIn("- **Ablation:** hash collisions: `--variant=fast` on runs r (every seed): "
                      "1 / 1 / 1 fails at seeds 1, 2, 3", report)
        self.assertIn("- **Band:** <= 0.5; published: 0.5 (half of line rate)", report)
        calls = self.calls()
        # r at seeds 1-3 (r at seed 3 is ref's run: shared), r ablated at seeds 1-3; ref not ablated.
        self.assertEqual(len(calls), 6, calls)
        self.assertEqual(sum("--variant=fast" in c for c in calls), 3, calls)


    def test_every_seed_must_pass(self):
        rc, report, log = self.run_cases({"f": case_text(
            "f-seed3", [("r", "permutation")], "min_flow_rate_fraction", ">=", "0.3")})
        self.assertEqual(rc, 1, log)
        self.assertEqual(self.rows(report), [
            "| f-seed3 | title of f-seed3 | 1 2 3 | 0.25 / 0.3333 / 0.5 | >= 0.3 | - | no ablation | FAIL |"])
        self.assertIn("FAIL — outside the band at seed 3", report)
        rc, report, log = self.run_cases({"f": case_text(
            "f-seed3", [("r", "permutation")], "min_flow_rate_fraction", ">=", "0.3", case_extra="seeds = 1 2\n")})
        self.assertEqual(rc, 0, log)
        self.assertIn("| 1 2 | 0.3333 / 0.4167 / 0.5 | >= 0.3 |", report)

    def test_diverges(self):
        band = dict(relation="between", value="0.9, 1.0", tol="0.02", expect_extra="published = 0.95\n")
        explained = case_text("d-explained", [("r", "permutation")], "min_flow_rate_fraction",
                              case_extra="faithful = yes\ndivergence = measured: collisions at 1/3\n", **band)
        rc, report, log = self.run_cases({"d": explained})
        self.assertEqual(rc, 0, log)
        self.assertEqual(self.rows(report), [
            "| d-explained | title of d-explained | 1 2 3 | 0.25 / 0.3333 / 0.5 | between 0.9 and 1 ± 0.02 | 0.95 "
            "| no ablation | DIVERGES |"])
        top = report.index("## Diverging from the publication")
        self.assertLess(top, report.index("| Case |"))
        self.assertIn("- **d-explained**: measured 0.25 / 0.3333 / 0.5, band between 0.9 and 1 ± 0.02; "
                      "published 0.95. measured: collisions at 1/3", report)
        self.assertIn("DIVERGES (not a failure; see the report): d-explained", log)
        os.remove(self.p("cases", "d.case"))
        bare = case_text("d-bare", [("r", "permutation")], "min_flow_rate_fraction",
                         case_extra="faithful = yes\n", **band)
        rc, report, log = self.run_cases({"e": bare})
        self.assertEqual(rc, 1, log)
        self.assertIn("| FAIL |", self.rows(report)[0])
        self.assertIn("DIVERGES without a measured explanation", report)
        self.assertNotIn("## Diverging", report)
        # Not declared faithful: outside the band is a plain FAIL, even with a divergence text.
        os.remove(self.p("cases", "e.case"))
        rc, report, log = self.run_cases({"u": case_text(
            "u-unfaithful", [("r", "permutation")], "min_flow_rate_fraction",
            case_extra="divergence = text\n", **band)})
        self.assertEqual(rc, 1, log)
        self.assertNotIn("DIVERGES without", report)
        self.assertIn("| FAIL |", self.rows(report)[0])

    def test_no_ablation_and_none(self):
        rc, report, log = self.run_cases({
            "n": case_text("n-none", [("r", "permutation")], "fabric_drops", "==", "0",
                           ablation="mechanism = none: a sanity bound on the drop counter\n"),
            "o": case_text("o-nothing", [("r", "permutation")], "fabric_drops", "==", "0")})
        self.assertEqual(rc, 0, log)
        rows = self.rows(report)
        self.assertEqual(rows[0], "| n-none | title of n-none | 1 2 3 | 0 / 0 / 0 | = 0 | - | none | PASS |")
        self.assertEqual(rows[1], "| o-nothing | title of o-nothing | 1 2 3 | 0 / 0 / 0 | = 0 | - | no ablation | PASS |")
        self.assertIn("- **Ablation:** none: a sanity bound on the drop counter", report)
        self.assertIn("- **Ablation:** no ablation", report)
        self.assertEqual(len(self.calls()), 3)  # "none" runs no ablated variant

    def test_malformed_ablation(self):
        good = case_text("ok", [("r", "permutation")], "fabric_drops", "==", "0")
        for ablation, want in [
                ("args = --variant=fast\n", "m.case: [ablation] needs 'mechanism'"),
                ("mechanism = x\n", "m.case: [ablation] needs 'args'"),
                ("args = --variant=fast\nmechanism = x\nrun = r\n", "m.case: [ablation] unknown key 'run'"),
                ("args = --variant=fast\nmechanism = x\nruns = nope\n", "m.case: [ablation] runs names 'nope'"),
                ("args = --seed=4\nmechanism = x\n", "m.case: [ablation] args: '--seed=4'"),
                ("args = --variant=fast\nmechanism = none: why\n", "m.case: [ablation] 'args' with mechanism = none"),
                ("mechanism = none\n", "m.case: [ablation] mechanism = 'none': write none: REASON"),
                ("args = 'unclosed\nmechanism = x\n", "m.case: [ablation] args:")]:
            rc, _, log = self.run_cases({"a": good, "m": case_text("m", [("r", "permutation")], "fabric_drops",
                                                                    "==", "0", ablation=ablation)})
            self.assertEqual(rc, 2, (ablation, log))
            self.assertIn(want, log, ablation)
        for extra, want in [("seeds = 0\n", "[case] seeds = '0'"), ("seeds = 1 1\n", "[case] seeds = '1 1'"),
                            ("faithful = maybe\n", "[case] faithful = 'maybe'")]:
            rc, _, log = self.run_cases({"m": case_text("m", [("r", "permutation")], "fabric_drops", "==", "0",
                                                         case_extra=extra)})
            self.assertEqual(rc, 2, (extra, log))
            self.assertIn("m.case: " + want, log)


class Plot(Base):
    def test_slowdown_table(self):
        # 40 flows, sizes 1..40 KB, slowdown = 1 + size index / 100; 20 bins of 2 flows
        flows = []
        for i in range(40):
            flows.append({"flow_id": 39 - i, "bytes": (i + 1) * 1000, "slowdown": 1 + i / 100.0})
        flows.append({"flow_id": 99, "bytes": 5, "slowdown": None})  # unfinished: left out
        rows = plot.slowdown_table(flows, 20)
        self.assertEqual(len(rows), 20)
        def rounded(rows):
            return [tuple(round(x, 9) for x in r) for r in rows]
        self.assertEqual(rounded(rows[:1] + rows[19:]), [(2000, 2, 1.01, 1.01, 1.01), (40000, 2, 1.39, 1.39, 1.39)])
        rows = plot.slowdown_table(flows, 1)
        self.assertEqual(rounded(rows), [(40000, 40, 1.2, 1.38, 1.39)])
        md = plot.slowdown_markdown(rows, "x")
        self.assertIn("| 40000 | 40 | 1.200 | 1.380 | 1.390 |", md)

    def test_uplink_spread(self):
        # T0 0: uplinks 100, 140 KB (mean 120: 16.7 %); T0 1: 60, 100 (mean 80: 25 %);
        # per T1: 160, 240 (mean 200: 20 %); T0 2 sent nothing (left out)
        links = (link("p0-t0-0", "p0-t1-0", 100000) + link("p0-t0-0", "p0-t1-1", 140000)
                 + link("p0-t0-1", "p0-t1-0", 60000) + link("p0-t0-1", "p0-t1-1", 100000)
                 + link("p0-t0-2", "p0-t1-0", 0) + link("p0-t0-2", "p0-t1-1", 0)
                 + link("host0", "p0-t0-0", 999999) + link("p0-t1-0", "p0-t0-1", 999999))
        r = write_result(self.p("spread"), links=links)
        n, d_up, d_t1 = plot.uplink_spread(r.links)
        self.assertEqual(n, 6)
        self.assertAlmostEqual(d_up, 0.25)
        self.assertAlmostEqual(d_t1, 0.2)
        self.assertEqual(plot.uplink_spread([]), (0, None, None))

    def test_cli(self):
        permutation_result(self.p("r1"))
        out = self.p("png")
        with contextlib.redirect_stdout(io.StringIO()) as s:
            rc = plot.main([self.p("r1") + "=perm", "--out=" + out])
        self.assertEqual(rc, 0)
        for name in ("fct_cdf.png", "throughput.png", "utilization.png", "slowdown-perm.md"):
            self.assertGreater(os.path.getsize(os.path.join(out, name)), 100, name)
        self.assertIn("| 1000000 | 1 | 3.000 | 3.000 | 3.000 |", s.getvalue())
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(plot.main([self.p("r1"), "--kinds=nope"]), 2)
            self.assertEqual(plot.main([self.p("r1"), "--frobnicate"]), 2)
            self.assertEqual(plot.main([self.p("missing")]), 2)
            self.assertEqual(plot.main([]), 2)


def png_info(path):
    """(width, height, dpi) of a PNG from its IHDR and pHYs chunks."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, w, h, dpi = 8, None, None, None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        elif kind == b"pHYs":
            ppm_x, ppm_y, unit = struct.unpack(">IIB", body)
            if unit == 1:  # pixels per metre
                dpi = round(ppm_x * 0.0254)
        elif kind == b"IDAT":
            break
        pos += 12 + n
    return w, h, dpi


def two_transport_result(folder):
    """roce and mrc ran one after the other on the same fabric: the same times, hosts and
    links, each with its own numbers; mrc had a link failure at 20 us and an incast victim."""
    flows = flow("roce", 0, 0, 1, 1000000, 0, 100000, 100000) + flow("mrc", 0, 0, 1, 1000000, 0, 50000, 50000)
    links = ("roce," + link("host0", "p0-t0-0", 1000000) + "roce," + link("p0-t0-0", "p0-t1-0", 2000000)
             + "mrc," + link("host0", "p0-t0-0", 3000000) + "mrc," + link("p0-t0-0", "p0-t1-0", 4000000))
    ts = ""
    for t_ns in (10000, 20000, 30000):
        ts += "%d,roce,host1,rx_gbps,80\n%d,mrc,host1,rx_gbps,90\n" % (t_ns, t_ns)
        ts += "%d,roce,flow0,tx_gbps,80\n%d,mrc,flow0,tx_gbps,90\n" % (t_ns, t_ns)
        ts += "%d,mrc,flow0,cwnd_bytes,%d\n%d,roce,flow0,rate_gbps,40\n" % (t_ns, t_ns, t_ns)
        ts += "%d,mrc,p0-t0-0:1,queue_bytes,%d\n" % (t_ns, 1000 * t_ns // 10000)
    r = write_result(folder, flows, links, ts, events="mrc,20000,link_down,p0-t0-0:p0-t1-0,\n",
                     transports={"roce": {"goodputGbps": 80.0}, "mrc": {"goodputGbps": 160.0}},
                     options={"mrc.victimFlow": "0"})
    with open(os.path.join(folder, "links.csv"), "w") as f:
        f.write("transport," + LINK_HDR + links)
    with open(os.path.join(folder, "events.csv"), "w") as f:
        f.write("transport,time_ns,kind,where,detail\nmrc,20000,link_down,p0-t0-0:p0-t1-0,\n")
    os.makedirs(os.path.join(folder, "mrc"))
    with open(os.path.join(folder, "mrc", "pfc.txt"), "w") as f:
        f.write("15000 3 1 2 1\n25000 3 1 2 0\n")
    return mr.Result(folder)


class PlotPerTransport(Base):
    def test_never_summed_across_transports(self):
        r = two_transport_result(self.p("two"))
        self.assertEqual(plot.host_rx(r, "roce"), [(10000, 80.0), (20000, 80.0), (30000, 80.0)])
        self.assertEqual(plot.host_rx(r, "mrc"), [(10000, 90.0), (20000, 90.0), (30000, 90.0)])
        self.assertEqual([link["bytes"] for link in mr.rows_of(r.links, "mrc")], [3000000, 4000000])
        self.assertEqual(r.victim_flow("mrc"), 0)
        self.assertIsNone(r.victim_flow("roce"))
        self.assertEqual(r.failure_times_ns("mrc"), [(20000, "link_down", True)])
        self.assertEqual(r.failure_times_ns("roce"), [])
        self.assertEqual([e["type"] for e in r.pfc("mrc")], [1, 0])
        self.assertEqual(r.pfc("roce"), [])
        md = plot.slowdown_tables(r)
        self.assertEqual(md.count("### Slowdown by flow size"), 2)
        self.assertLess(md.index("two, roce"), md.index("two, mrc"))  # the order they ran
        # one utilization line per transport, each over its own uplink
        with contextlib.redirect_stdout(io.StringIO()) as s:
            plot.utilization([r], self.p("u.png"))
        self.assertEqual(s.getvalue().count("T0 -> T1 uplinks"), 2, s.getvalue())
        self.assertIn("roce: 1 T0 -> T1 uplinks", s.getvalue())
        self.assertIn("mrc: 1 T0 -> T1 uplinks", s.getvalue())

    def test_png_300_dpi_and_pdf(self):
        two_transport_result(self.p("two"))
        out = self.p("plots")
        with contextlib.redirect_stdout(io.StringIO()):
            rc = plot.main([self.p("two"), "--out=" + out])
        self.assertEqual(rc, 0)
        for kind in ("fct_cdf", "throughput", "utilization", "queue", "cwnd", "rate", "pfc"):
            w, h, dpi = png_info(os.path.join(out, kind + ".png"))
            self.assertEqual(dpi, 300, kind)
            self.assertGreaterEqual(w, 6 * 300, kind)  # at least 6 inches wide at 300 dpi
            with open(os.path.join(out, kind + ".pdf"), "rb") as f:
                self.assertEqual(f.read(5), b"%PDF-", kind)
        # two transports: two stacked panels, so the throughput figure is taller than one panel's
        self.assertGreater(png_info(os.path.join(out, "throughput.png"))[1], 2 * 2.6 * 300)

    def test_without_matplotlib(self):
        two_transport_result(self.p("two"))
        fake = self.p("fake")
        os.makedirs(os.path.join(fake, "matplotlib"))
        with open(os.path.join(fake, "matplotlib", "__init__.py"), "w") as f:
            f.write("raise ImportError('hidden for the test')\n")
        env = dict(os.environ, PYTHONPATH=fake)
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "plot.py"), self.p("two"),
                            "--out=" + self.p("o")], env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("matplotlib is not installed", r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn("### Slowdown by flow size: two, roce", r.stdout)  # tables still work


class Sweep(Base):
    def test_grid(self):
        o = sweep.parse_args(["incast", "--param=senders=2,4,8", "--param=seed=1,2", "--hosts=16", "--out=x"])
        pts = sweep.grid(o["params"])
        self.assertEqual(len(pts), 6)
        self.assertEqual(pts[0], [("senders", "2"), ("seed", "1")])
        self.assertEqual(pts[5], [("senders", "8"), ("seed", "2")])
        self.assertEqual(sweep.point_dir(pts[1]), "senders-2_seed-2")
        self.assertEqual(sweep.command(o, pts[1], "d")[1:],
                         ["incast", "--hosts=16", "--senders=2", "--seed=2", "--out=d"])
        self.assertEqual(sweep.parse_param("ns3::MrcDcqcn::G=0.1,0.2"), ("ns3::MrcDcqcn::G", ["0.1", "0.2"]))

    def test_malformed(self):
        bad = [[], ["--param=senders"], ["--param==1,2"], ["--param=seed=1,,2"], ["--param=seed=1,1"],
               ["--param=seed=1", "--param=seed=2"], ["--param=seed=1", "--seed=3"], ["--param=out=a,b"],
               ["--param=seed=1", "--verbose"], ["--param=seed=1", "--jobs=0"], ["--param=seed=1", "x", "y"],
               ["--param"]]
        for argv in bad:
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(sweep.main(argv), 2, argv)
            self.assertTrue(err.getvalue().startswith("sweep.py: "), argv)

    def test_run(self):
        sim = self.p("fake-mrc-sim")
        with open(sim, "w") as f:
            f.write(FAKE_SIM)
        os.chmod(sim, 0o755)
        permutation_result(self.p("template"))
        os.environ["FAKE_TEMPLATE"] = self.p("template")
        os.environ["FAKE_LOG"] = self.p("sim.log")
        out = self.p("sw")
        with contextlib.redirect_stdout(io.StringIO()):
            rc = sweep.main(["permutation", "--param=seed=1,2,3", "--bytes=5", "--out=" + out, "--sim=" + sim])
        self.assertEqual(rc, 0)
        with open(os.path.join(out, "sweep.csv")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "point,seed,exit_code,transport,goodputGbps,pfcPauseFrames")
        self.assertEqual(lines[1:], ["seed-%d,%d,0,roce,40.0,3" % (i, i) for i in (1, 2, 3)])
        n = len(open(self.p("sim.log")).read().splitlines())
        self.assertEqual(n, 6)  # 3 probes, 3 runs
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            rc = sweep.main(["permutation", "--param=transport=roce,mrc", "--out=" + out, "--sim=" + sim])
        self.assertEqual(rc, 2)
        self.assertIn("point transport-mrc: mrc-sim: error: invalid value 'mrc' for --transport", err.getvalue())
        calls = open(self.p("sim.log")).read().splitlines()[n:]
        self.assertTrue(calls and all("--checkOnly=1" in c for c in calls), calls)  # nothing ran


class CcCuts(Base):
    """scripts/cc-cuts.py on a synthetic two-T0 permutation."""

    def load(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location("cc_cuts", os.path.join(SCRIPTS, "cc-cuts.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    def folder(self, events, transport="mrc"):
        links = "".join(link("host%d" % h, "p0-t0-%d" % (h // 2), 1000) for h in range(4))
        t = transport
        flows = (flow(t, 0, 0, 2, 1000, 0, 100000, 50000) + flow(t, 1, 1, 3, 1000, 0, 200000, 50000)
                 + flow(t, 2, 2, 0, 1000, 0, 100000, 50000) + flow(t, 3, 3, 1, 1000, 0, 100000, 50000))
        write_result(self.p("r"), flows=flows, links=links, events=events, transports={t: {}})
        return self.p("r")

    def test_causes_and_groups(self):
        cc = self.load()
        events = ("10,cc_cut,host0:qp256,MULTIPLICATIVE_DECREASE cwnd 1000->800\n"
                  "20,cc_cut,host0:qp256,TRIM_NACK cwnd 800->700\n"
                  "30,cc_cut,host1:qp256,MULTIPLICATIVE_DECREASE cwnd 1000->600\n"
                  "40,link_down,p0-t0-0:p0-t1-0,\n")
        causes, groups = cc.analyse(mr.Result(self.folder(events)), "mrc")
        self.assertEqual(causes["MULTIPLICATIVE_DECREASE"][0], 2)
        self.assertAlmostEqual(causes["MULTIPLICATIVE_DECREASE"][1], 0.7)
        self.assertEqual(causes["TRIM_NACK"][0], 1)
        self.assertAlmostEqual(causes["TRIM_NACK"][1], 0.875)
        self.assertEqual(list(groups), [(2, 2)])  # each T0 sends 2 cross-T0 flows and receives 2
        g = groups[(2, 2)]
        self.assertEqual(g["flows"], 4)
        self.assertAlmostEqual(g["fctMeanUs"], 125.0)
        self.assertAlmostEqual(g["fctMaxUs"], 200.0)
        self.assertAlmostEqual(g["mdPerFlow"], 0.5)
        self.assertAlmostEqual(g["mdFactor"], 0.7)
        self.assertAlmostEqual(g["trimCutsPerFlow"], 0.25)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(cc.main([self.p("r")]), 0)
        self.assertIn("2 / 2", out.getvalue())

    def test_dcqcn_rate_cuts(self):
        cc = self.load()
        events = ("10,cc_cut,host0:qp256,DECREASE rate 100000000000->50000000000\n"
                  "20,cc_cut,host0:qp257,DECREASE rate 100000000000->50000000000\n"
                  "30,cc_cut,host0:qp256,DECREASE rate 50000000000->40000000000\n"
                  "40,cc_cut,host2:qp256,DECREASE rate 100000000000->50000000000\n")
        causes, groups = cc.analyse(mr.Result(self.folder(events, "roce")), "roce")
        self.assertEqual(list(causes), ["DECREASE"])
        self.assertEqual(causes["DECREASE"][0], 4)
        self.assertAlmostEqual(causes["DECREASE"][1], (0.5 + 0.5 + 0.8 + 0.5) / 4)
        g = groups[(2, 2)]
        self.assertAlmostEqual(g["mdPerFlow"], 1.0)  # 4 decreases over 4 flows (host0's two QPs count as one flow)
        self.assertAlmostEqual(g["mdFactor"], 0.575)
        self.assertAlmostEqual(g["trimCutsPerFlow"], 0.0)

    def test_bad_inputs_exit_2(self):
        cc = self.load()
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(cc.main([self.folder("")]), 2)  # no cc_cut lines
        self.assertIn("--maxCcEvents", err.getvalue())
        shutil.rmtree(self.p("r"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(cc.main([self.folder("10,cc_cut,host0:qp256,TRIM_NACK 800\n")]), 2)
        self.assertIn("malformed cc_cut", err.getvalue())


class PairedRounds(Base):
    """scripts/paired-rounds.py with two fake mrc-sim programs of known cost per hop."""

    def fake(self, name, cpu, hops):
        path = self.p(name)
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                #!%s
                import json, sys
                with open(%r, "a") as log:
                    log.write(%r + " " + " ".join(sys.argv[1:]) + "\\n")
                bench = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--benchJson=")][0]
                with open(bench, "w") as f:
                    json.dump({"runCpuSeconds": %r, "packetHops": %d}, f)
                """ % (sys.executable, self.p("calls.log"), name, cpu, hops)))
        os.chmod(path, 0o755)
        return path

    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(SCRIPTS, "paired-rounds.py")] + list(args),
                              capture_output=True, text=True)

    def test_paired_median_and_order(self):
        a = self.fake("a", 2.0, 1000)
        b = self.fake("b", 1.5, 1000)
        r = self.run_script("--a=" + a, "--b=" + b, "--rounds=3", "--", "perm128-uec", "--seed=2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("round 3: B/A 0.7500, 2000000.0 -> 1500000.0 ns per hop", r.stdout)
        self.assertIn("paired median 0.750, B faster in 3 of 3; medians 2000000.0 -> 1500000.0", r.stdout)
        with open(self.p("calls.log")) as f:
            calls = f.read().splitlines()
        # A then B in odd rounds, B then A in even ones, each with the same arguments
        self.assertEqual([c.split()[0] for c in calls], ["a", "b", "b", "a", "a", "b"])
        self.assertTrue(all(c.split()[1:3] == ["perm128-uec", "--seed=2"] for c in calls), calls)
        self.assertTrue(all("--benchJson=" in c and "--out=" in c for c in calls), calls)

    def test_geometric_mean_cancels_the_order_effect(self):
        # each fake costs 1.2 x more when it is the first run of its round (an even number
        # of calls logged before it): A first, B/A = 1.5 / 2.4; B first, 1.8 / 2.0
        def fake_with_order(name, cpu):
            path = self.p(name)
            with open(path, "w") as f:
                f.write(textwrap.dedent("""\
                    #!%s
                    import json, os, sys
                    log_path = %r
                    before = 0
                    if os.path.exists(log_path):
                        with open(log_path) as log:
                            before = len(log.read().splitlines())
                    with open(log_path, "a") as log:
                        log.write(%r + "\\n")
                    bench = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--benchJson=")][0]
                    with open(bench, "w") as f:
                        json.dump({"runCpuSeconds": %r * (1.2 if before %% 2 == 0 else 1.0),
                                   "packetHops": 1000}, f)
                    """ % (sys.executable, self.p("order.log"), name, cpu)))
            os.chmod(path, 0o755)
            return path

        a = fake_with_order("a", 2.0)
        b = fake_with_order("b", 1.5)
        r = self.run_script("--a=" + a, "--b=" + b, "--rounds=4", "--", "perm128-mrc")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("round 1: B/A 0.6250", r.stdout)
        self.assertIn("round 2: B/A 0.9000", r.stdout)
        # the median mixes the two orders; the geometric mean gives the builds' 0.75
        self.assertIn("paired median 0.762, B faster in 4 of 4", r.stdout)
        self.assertIn("geometric mean 0.750; median B/A with A first 0.625 (2 rounds), "
                      "with B first 0.900 (2 rounds)", r.stdout)
        r = self.run_script("--a=" + a, "--b=" + b, "--rounds=1", "--", "perm128-mrc")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("with A first 0.625 (1 round), with B first none", r.stdout)

    def test_different_models_and_bad_options(self):
        a = self.fake("a", 2.0, 1000)
        r = self.run_script("--a=" + a, "--b=" + self.fake("c", 2.0, 999), "--rounds=1", "--", "x")
        self.assertEqual(r.returncode, 1)
        self.assertIn("packet hops differ (1000 against 999)", r.stderr)
        r = self.run_script("--a=" + a, "--b=" + a, "--rounds=0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--rounds must be at least 1, not 0", r.stderr)
        r = self.run_script("--a=" + a, "--b=" + self.p("missing"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("is not an executable file", r.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"] if "-v" in sys.argv else [sys.argv[0]])
