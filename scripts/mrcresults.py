# SPDX-License-Identifier: GPL-2.0-only
"""Reading one result folder of mrc-sim (the files of design.md section 4).

Only the Python standard library is used here, so validate.py and sweep.py can
import it without matplotlib. Every reader returns plain lists and dicts; a
missing optional file gives an empty list.
"""

import csv
import json
import os
import re

# Node names of the topology helper: host<i>, p<plane>-t<tier>-<index>.
SWITCH_RE = re.compile(r"^p(\d+)-t(\d+)-(\d+)$")
HOST_RE = re.compile(r"^host(\d+)$")

# events.csv kinds that take capacity away (helper/results/mrc-event-log.h).
FAILURE_KINDS = ("link_down", "switch_down", "port_down", "plane_down", "gray_failure_start")
REPAIR_KINDS = ("link_up", "switch_up", "port_up", "plane_up", "gray_failure_stop")


class ResultError(Exception):
    """A result folder or file is missing or malformed."""


def _num(text):
    """A CSV cell as int or float; '' (no data) as None."""
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def read_csv(path, required=True):
    """Rows of a CSV file with a header line, numeric cells converted."""
    if not os.path.exists(path):
        if required:
            raise ResultError("missing file %s" % path)
        return []
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rows.append({k: (_num(v) if k not in TEXT_COLUMNS else v) for k, v in row.items()})
    return rows


# Columns that stay text.
TEXT_COLUMNS = {"transport", "entity", "metric", "kind", "where", "detail", "from", "to"}


class Result:
    """One mrc-sim output folder, files read on first use."""

    def __init__(self, folder, label=None):
        self.folder = folder
        self.label = label or os.path.basename(os.path.normpath(folder))
        self._cache = {}

    def _get(self, name, loader):
        if name not in self._cache:
            self._cache[name] = loader()
        return self._cache[name]

    def path(self, name):
        return os.path.join(self.folder, name)

    @property
    def summary(self):
        def load():
            p = self.path("summary.json")
            if not os.path.exists(p):
                raise ResultError("missing file %s" % p)
            try:
                with open(p) as f:
                    return json.load(f)
            except ValueError as e:
                raise ResultError("%s is not JSON: %s" % (p, e))
        return self._get("summary", load)

    @property
    def flows(self):
        return self._get("flows", lambda: read_csv(self.path("flows.csv")))

    @property
    def links(self):
        return self._get("links", lambda: read_csv(self.path("links.csv")))

    @property
    def timeseries(self):
        return self._get("timeseries", lambda: read_csv(self.path("timeseries.csv"), False))

    @property
    def events(self):
        return self._get("events", lambda: read_csv(self.path("events.csv"), False))

    def option(self, name, default=None):
        return self.summary.get("run", {}).get("options", {}).get(name, default)

    def transports(self):
        return self.summary.get("transports", {})

    def transport_summary(self, transport=None):
        """The summary of one transport (the only one when transport is None)."""
        t = self.transports()
        if transport is None:
            if len(t) != 1:
                raise ResultError("%s: %d transports (%s); name one"
                                  % (self.label, len(t), ", ".join(sorted(t))))
            return next(iter(t.values()))
        if transport not in t:
            raise ResultError("%s: no transport %r (has %s)" % (self.label, transport, ", ".join(sorted(t))))
        return t[transport]

    def first_failure_ns(self):
        """Time of the first failure record in events.csv, or None."""
        times = [e["time_ns"] for e in self.events if e["kind"] in FAILURE_KINDS]
        return min(times) if times else None

    def scenario(self):
        return self.summary.get("run", {}).get("scenario", "")

    def transport_names(self):
        """The transports of summary.json, in the order they ran."""
        return list(self.transports())

    def transport_option(self, transport, name, default=None):
        """An option of one transport: "TRANSPORT.NAME" (several transports in one run)
        or plain "NAME"."""
        v = self.option("%s.%s" % (transport, name))
        return self.option(name, default) if v is None else v

    def victim_flow(self, transport):
        """Flow id of the incast victim of a transport's run, or None."""
        v = self.transport_option(transport, "victimFlow")
        try:
            return int(v)
        except (TypeError, ValueError):
            return None

    def events_of(self, transport):
        """events.csv rows of one transport: its transport column, else (older files) a
        "transport=T" tag in detail, else every row."""
        return [e for e in self.events if row_transport(e) in (None, transport)]

    def failure_times_ns(self, transport):
        """(time_ns, kind, is_failure) of the failures and repairs of a transport's run."""
        return [(e["time_ns"], e["kind"], e["kind"] in FAILURE_KINDS) for e in self.events_of(transport)
                if e["kind"] in FAILURE_KINDS + REPAIR_KINDS]

    def pfc(self, transport):
        """The pause/resume records of a transport's run: TRANSPORT/pfc.txt, else (one
        transport, or older folders) pfc.txt. Dicts time_ns, node, node_type, if_index,
        type (1 pause, 0 resume)."""
        path = os.path.join(self.folder, transport, "pfc.txt")
        if not os.path.exists(path):
            path = self.path("pfc.txt")
            if not os.path.exists(path) or len(self.transports()) > 1:
                return []
        out = []
        with open(path) as f:
            for line in f:
                v = line.split()
                if len(v) == 5:
                    out.append(dict(zip(("time_ns", "node", "node_type", "if_index", "type"), map(int, v))))
        return out


def row_transport(row):
    """The transport a row names (column "transport", or a "transport=T" tag in an
    events.csv detail), or None when it names none."""
    t = row.get("transport")
    if t:
        return t
    for word in (row.get("detail") or "").split():
        if word.startswith("transport="):
            return word[len("transport="):]
    return None


def rows_of(rows, transport):
    """The rows of one transport (rows without a transport column belong to all)."""
    return [r for r in rows if row_transport(r) in (None, transport)]


def host_index(name):
    m = HOST_RE.match(name or "")
    return int(m.group(1)) if m else None


def switch_id(name):
    """(plane, tier, index) of a switch name, or None."""
    m = SWITCH_RE.match(name or "")
    return tuple(int(x) for x in m.groups()) if m else None


def is_uplink(link):
    """A T0 -> T1 link (the first hashed hop)."""
    a, b = switch_id(link["from"]), switch_id(link["to"])
    return a is not None and b is not None and a[1] == 0 and b[1] == 1 and a[0] == b[0]


def link_plane(link):
    """Plane of a directed link (from either end that is a switch), or None."""
    for end in ("from", "to"):
        s = switch_id(link[end])
        if s is not None:
            return s[0]
    return None


def host_t0_map(links):
    """host index -> list of T0 names it attaches to (one per plane), from links.csv."""
    m = {}
    for link in links:
        h = host_index(link["from"])
        s = switch_id(link["to"])
        if h is not None and s is not None and s[1] == 0:
            m.setdefault(h, [])
            if link["to"] not in m[h]:
                m[h].append(link["to"])
    return m


def flow_rate_fraction(flow):
    """ideal_fct / fct of a flow (1 at line rate); 0 for an unfinished flow."""
    fct = flow.get("fct_ns")
    ideal = flow.get("ideal_fct_ns")
    if fct is None or not fct or ideal is None:
        return 0.0
    return float(ideal) / float(fct)


def aggregate_series(rows, metric, entity_prefix="", transport=None):
    """Sum of a metric over entities with a name prefix, per time: sorted [(t_ns, value)]."""
    acc = {}
    for r in rows:
        if r["metric"] != metric or not r["entity"].startswith(entity_prefix):
            continue
        if transport is not None and r["transport"] != transport:
            continue
        acc[r["time_ns"]] = acc.get(r["time_ns"], 0.0) + float(r["value"])
    return sorted(acc.items())
