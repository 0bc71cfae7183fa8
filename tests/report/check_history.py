#!/usr/bin/env python3
"""Checks gate history's JSON against the figures test_history.sh committed, and the history
charts of the rendered page (Chromium's DOM) against that JSON.

Usage: check_history.py json HISTORY.json
       check_history.py dom HISTORY.json DOM.html"""
import json
import sys
from html.parser import HTMLParser

# What the test repository's main branch holds for consume_json, oldest first.
EXPECTED = {
    ("consume_json", "instructions"): [10000, 10200, 10404, 10000, 11000, 12000, 12500],
    ("consume_json", "allocations"): [19, 20],
    ("consume_json", "cold_instructions"): [23632, 24000],
    ("consume_json", "cold_allocations"): [19],
    ("consume_json", "bytes"): [100, 120],
    ("consume_json", "cycles"): [30000, 30600],
    ("consume_json", "cold_cycles"): [40000],
    ("reply", "instructions"): [20000],
}


def fail(message):
    print("check_history: " + message)
    sys.exit(1)


def value_text(value):
    text = "%.3f" % value
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent_text(value):
    if value == 0:
        return "0.00 %"
    return "%s%.2f %%" % ("+" if value > 0 else "-", abs(value))


def check_json(history):
    series = {(s["scenario"], s["metric"]): s for s in history["series"]}
    for key, values in EXPECTED.items():
        got = [point["value"] for point in series[key]["points"]]
        if got != values:
            fail("%s: figures %s, expected %s" % (key, got, values))
        drift = (values[-1] - values[0]) / values[0] * 100
        if abs(series[key]["drift_percent"] - drift) > 1e-9:
            fail("%s: drift %s, expected %s" % (key, series[key]["drift_percent"], drift))
    instructions = series[("consume_json", "instructions")]["points"]
    accepted = [point["accepted"] for point in instructions]
    if accepted != [None, "validate the symbol field", None, None, None, None, None]:
        fail("acceptances %s" % accepted)
    cycles = [point["accepted"] for point in series[("consume_json", "cycles")]["points"]]
    if cycles != [None, "check every field"]:
        fail("acceptances of estimated cycles %s" % cycles)
    changes = [v["subject"] for v in history["versions"] if v["fingerprint_change"]]
    if changes != ["Build with gcc 13", "Move to valgrind 3.22"]:
        fail("fingerprint changes at %s" % changes)
    if [s["subject"] for s in history["skipped"]] != ["Edit the baseline by hand"]:
        fail("skipped %s" % history["skipped"])
    if len(history["versions"]) != 10:
        fail("%d versions, expected 10" % len(history["versions"]))


class Charts(HTMLParser):
    """The history charts of a page: per chart its attributes, dots, marks and texts."""

    def __init__(self):
        super().__init__()
        self.charts, self.chart, self.text_class, self.in_title = [], None, None, None
        self.table_rows, self.in_history_table = 0, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = attrs.get("class", "").split()
        if tag == "svg" and "history-chart" in classes:
            self.chart = {"attrs": attrs, "points": [], "marks": 0, "texts": {}}
        elif self.chart is not None and tag == "circle" and "history-point" in classes:
            self.chart["points"].append(
                {"value": attrs["data-value"], "cy": float(attrs["cy"]),
                 "accepted": "accepted" in classes, "title": ""})
            self.in_title = self.chart["points"][-1]
        elif self.chart is not None and tag == "line" and "fingerprint-change" in classes:
            self.chart["marks"] += 1
        elif self.chart is not None and tag == "text":
            self.text_class = attrs.get("class")
        elif tag == "table" and "history-table" in classes:
            self.in_history_table = True
        elif tag == "tr" and self.in_history_table:
            self.table_rows += 1

    def handle_endtag(self, tag):
        if tag == "svg" and self.chart is not None:
            self.charts.append(self.chart)
            self.chart = None
        elif tag == "circle":
            self.in_title = None
        elif tag == "text":
            self.text_class = None
        elif tag == "table":
            self.in_history_table = False

    def handle_data(self, data):
        if self.in_title is not None:
            self.in_title["title"] += data
        elif self.chart is not None and self.text_class:
            self.chart["texts"].setdefault(self.text_class, []).append(data)


def check_dom(history, dom):
    parser = Charts()
    parser.feed(dom)
    versions = history["versions"]
    charted = [s for s in history["series"] if not s["metric"].startswith("cold_")]
    if len(parser.charts) != len(charted):
        fail("%d charts in the page, %d series to chart" % (len(parser.charts), len(charted)))
    marks = sum(1 for v in versions[1:] if v["fingerprint_change"])
    for chart, series in zip(parser.charts, charted):
        name = "%s %s" % (series["scenario"], series["metric"])
        if (chart["attrs"].get("data-scenario"), chart["attrs"].get("data-metric")) != (
                series["scenario"], series["metric"]):
            fail("chart %s is not in the order of the series (%s)" % (chart["attrs"], name))
        points = series["points"]
        if len(chart["points"]) != len(points):
            fail("%s: %d dots, %d figures" % (name, len(chart["points"]), len(points)))
        for dot, point in zip(chart["points"], points):
            version = versions[point["version"]]
            if dot["value"] != value_text(point["value"]):
                fail("%s: dot %s, figure %s" % (name, dot["value"], point["value"]))
            for part in (version["short"], version["subject"], value_text(point["value"])):
                if part not in dot["title"]:
                    fail("%s: the tooltip '%s' does not say '%s'" % (name, dot["title"], part))
            if dot["accepted"] != (point["accepted"] is not None):
                fail("%s: dot %s accepted %s" % (name, dot["value"], dot["accepted"]))
            if point["accepted"] and "accepted: " + point["accepted"] not in dot["title"]:
                fail("%s: the tooltip '%s' has no reason" % (name, dot["title"]))
        for a, b in zip(zip(chart["points"], points), zip(chart["points"][1:], points[1:])):
            (dot_a, point_a), (dot_b, point_b) = a, b
            if (point_b["value"] > point_a["value"]) != (dot_b["cy"] < dot_a["cy"]):
                fail("%s: the dots of %s and %s are drawn the wrong way up"
                     % (name, point_a["value"], point_b["value"]))
        if chart["marks"] != marks:
            fail("%s: %d toolchain marks, %d fingerprint changes" % (name, chart["marks"], marks))
        drift = "drift " + percent_text(series["drift_percent"])
        if chart["texts"].get("history-drift") != [drift]:
            fail("%s: drift text %s, expected '%s'" % (name, chart["texts"].get("history-drift"), drift))
    rows = sum(len(s["points"]) for s in history["series"])
    if parser.table_rows != rows + 1:
        fail("history table has %d rows, expected %d and a header" % (parser.table_rows, rows))
    print("%d charts, %d dots, %d toolchain marks each, %d table rows"
          % (len(parser.charts), sum(len(c["points"]) for c in parser.charts), marks, rows))


def main():
    with open(sys.argv[2], encoding="utf-8") as source:
        history = json.load(source)
    if sys.argv[1] == "json":
        check_json(history)
    else:
        check_json(history)
        with open(sys.argv[3], encoding="utf-8") as source:
            check_dom(history, source.read())


main()
