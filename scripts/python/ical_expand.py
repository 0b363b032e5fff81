"""Reads an iCalendar feed the way calendar apps do, for OpenCareKit's differential test of its calendar feed.

Input (JSON on standard input): {"ics": text, "from": unix seconds, "to": unix seconds, "instants": [unix seconds]}.
Output (JSON): {"events": [[summary, start, length, uid], ...], "offsets": {tzid: [[instant, vtimezone, zoneinfo], ...]}}
  - events: every occurrence between from and to as recurring-ical-events expands it (icalendar parses the feed);
    start is unix seconds for timed events and "YYYY-MM-DD" for all-day ones, length is seconds or days;
  - offsets: for each VTIMEZONE, the instants at which the offset it describes (built from the component alone, not
    from its TZID) differs from Python's zoneinfo for that TZID (empty when they agree everywhere).
"""
import datetime
import json
import sys
import zoneinfo

import icalendar
import recurring_ical_events

spec = json.load(sys.stdin)
calendar = icalendar.Calendar.from_ical(spec["ics"])
utc = datetime.timezone.utc
start = datetime.datetime.fromtimestamp(spec["from"], utc)
end = datetime.datetime.fromtimestamp(spec["to"], utc)

events = []
for event in recurring_ical_events.of(calendar).between(start, end):
    begin = event["DTSTART"].dt
    finish = event["DTEND"].dt if "DTEND" in event else None
    if isinstance(begin, datetime.datetime):
        length = (finish - begin).total_seconds() if finish is not None else 0
        events.append([str(event["SUMMARY"]), begin.timestamp(), length, str(event["UID"])])
    else:
        length = (finish - begin).days if finish is not None else 1
        events.append([str(event["SUMMARY"]), begin.isoformat(), length, str(event["UID"])])

offsets = {}
for component in calendar.walk("VTIMEZONE"):
    tzid = str(component["TZID"])
    described = component.to_tz(lookup_tzid=False)
    reference = zoneinfo.ZoneInfo(tzid)
    differences = []
    for instant in spec["instants"]:
        moment = datetime.datetime.fromtimestamp(instant, utc)
        ours = moment.astimezone(described).utcoffset().total_seconds()
        theirs = moment.astimezone(reference).utcoffset().total_seconds()
        if ours != theirs:
            differences.append([instant, ours, theirs])
    offsets[tzid] = differences

json.dump({"events": events, "offsets": offsets}, sys.stdout)
