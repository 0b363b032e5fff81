#!/usr/bin/env python3
"""Expands recurrence rules with python-dateutil, the reference OpenCareKit's schedule engine is compared against.

Reads a JSON spec on stdin:
  {"zone": "America/New_York", "until": <epoch seconds, exclusive>,
   "tasks": [{"id": "...", "rules": [{"freq": "daily"|"weekly", "interval": 1,
                                      "start": "2016-01-01T08:00:00"}]}]}
Each rule starts at a local wall-clock time in the zone and repeats every `interval` days or weeks; a task's rules
are combined with an rruleset. Writes JSON on stdout: the seconds spent expanding and, per task, the sorted epoch
seconds of every occurrence that starts before `until`.
"""
import json
import sys
import time
from datetime import datetime

from dateutil import rrule, tz

FREQUENCIES = {"daily": rrule.DAILY, "weekly": rrule.WEEKLY}


def expand(spec):
    zone = tz.gettz(spec["zone"])
    if zone is None:
        raise SystemExit(f"unknown time zone {spec['zone']!r}")
    until = datetime.fromtimestamp(spec["until"], tz=zone)
    result = {}
    began = time.perf_counter()
    for task in spec["tasks"]:
        rules = rrule.rruleset()
        for rule in task["rules"]:
            start = datetime.fromisoformat(rule["start"]).replace(tzinfo=zone)
            rules.rrule(rrule.rrule(FREQUENCIES[rule["freq"]], interval=rule["interval"], dtstart=start))
        stamps = []
        for occurrence in rules:
            if occurrence >= until:
                break
            stamps.append(int(occurrence.timestamp()))
        result[task["id"]] = stamps
    return time.perf_counter() - began, result


def main():
    seconds, occurrences = expand(json.load(sys.stdin))
    json.dump({"seconds": seconds, "occurrences": occurrences}, sys.stdout)


if __name__ == "__main__":
    main()
