#!/usr/bin/env python3
"""Writes the seed corpora of the two fuzz targets into OUT_DIR/feed and OUT_DIR/control.

    make_corpus.py OUT_DIR SHARE_FEEDS_DIR

Feed seeds: every shipped feed and truncations of it, calendars of every recurrence shape, plus
hand-made hostile documents (calendars among them: huge REPEAT, thousands of RDATEs, rules that
never recur, deep nesting, unterminated components, a long DESCRIPTION): entity
bombs, deep nesting, binary plists with reference cycles, exponential DAGs and huge counts,
numbers prefixed with 0xFF bytes, invalid UTF-8, dates that do not exist, and schedules whose
occurrences are costly to find. Control seeds: one call per method and the hostile calls.
"""
import json
import os
import plistlib
import struct
import sys


def bplist(objects, top=0, ref_size=1, offset_size=2, count_override=None):
    """A binary plist from already-encoded objects (each a bytes), with a correct offset table."""
    body = b"bplist00"
    offsets = []
    for obj in objects:
        offsets.append(len(body))
        body += obj
    table_offset = len(body)
    for offset in offsets:
        body += offset.to_bytes(offset_size, "big")
    count = len(objects) if count_override is None else count_override
    body += b"\0" * 6 + bytes([offset_size, ref_size]) + struct.pack(">QQQ", count, top, table_offset)
    return body


def array(refs, ref_size=1):
    head = bytes([0xA0 | len(refs)]) if len(refs) < 15 else bytes([0xAF, 0x10, len(refs)])
    return head + b"".join(r.to_bytes(ref_size, "big") for r in refs)


def ascii_string(text):
    data = text.encode()
    return bytes([0x50 | len(data)]) + data if len(data) < 15 else bytes([0x5F, 0x10, len(data)]) + data


def dictionary(pairs):
    keys = [k for k, _ in pairs]
    values = [v for _, v in pairs]
    return bytes([0xD0 | len(pairs)]) + bytes(keys) + bytes(values)


def hostile():
    seeds = {}
    seeds["entity-bomb.plist"] = (
        b'<?xml version="1.0"?>\n<!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">'
        b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>\n<plist version="1.0"><dict><key>k</key><string>&c;</string></dict></plist>'
    )
    seeds["external-dtd.plist"] = (
        b'<?xml version="1.0"?><!DOCTYPE plist SYSTEM "http://127.0.0.1:9/x.dtd"><plist><array/></plist>'
    )
    seeds["deep.json"] = b"[" * 20000 + b"]" * 20000
    seeds["deep-dict.json"] = b'{"a":' * 5000 + b"1" + b"}" * 5000
    seeds["deep.plist"] = b"<plist><array>" + b"<array>" * 3000 + b"</array>" * 3000 + b"</array></plist>"
    seeds["ff-integer.plist"] = b'<plist version="1.0"><dict><key>n</key><integer>\xff\xff\xff\xff\xff\xff\xff1</integer></dict></plist>'
    seeds["ff-real.plist"] = b'<plist version="1.0"><array><real>\xff\xff\xff\xff\xff\xff\xff\xff</real></array></plist>'
    seeds["invalid-utf8.json"] = b'{"notifications": [{"id": "\xc3\x28", "title": "\xed\xa0\x80"}]}'
    seeds["overlong-utf8.json"] = b'{"notifications": [{"id": "\xc0\xaf", "title": "x"}]}'
    seeds["bad-dates.json"] = (
        b'{"notifications": [{"id": "a", "title": "t", "fireDate": "2026-02-30T25:61Z"},'
        b'{"id": "b", "title": "t", "fireDate": "99999-01-01T00:00:00Z", "repeatInterval": "minute", "count": 9223372036854775807},'
        b'{"id": "c", "title": "t", "calendar": "*-02-29 00:00:00 Australia/Lord_Howe", "until": "0001-01-01T00:00:00Z"}]}'
    )
    seeds["huge-numbers.json"] = b'{"version": 1e99999, "notifications": [{"id": 1e400, "title": -0, "maxLateness": 18446744073709551616}]}'
    # Binary plists: a self-referencing array, a two-array cycle, an exponential DAG of shared
    # subtrees, a lying object count, and an offset table pointing outside the file.
    seeds["cycle.bplist"] = bplist([array([0])])
    seeds["cycle2.bplist"] = bplist([array([1]), array([0])])
    depth = 40
    dag = [array([i + 1, i + 1]) for i in range(depth)] + [b"\x10\x01"]
    seeds["dag.bplist"] = bplist(dag)
    key, value = ascii_string("notifications"), array([2, 2, 2])
    seeds["dag-feed.bplist"] = bplist([dictionary([(1, 3)]), key, b"\x10\x05", array([2, 2, 2, 2])])
    seeds["lying-count.bplist"] = bplist([array([0])], count_override=2**40)
    seeds["bad-offset.bplist"] = bplist([array([5])])
    seeds["dict-cycle.bplist"] = bplist([dictionary([(1, 0)]), key]) + value
    # Schedules whose occurrences cost the most to find: bursts before long gaps, sub-second
    # repetitions, counted calendars, repeats that ended decades ago.
    costly = [
        {"id": "burst", "title": "t", "calendar": "*-*-01..08 *:*:*"},
        {"id": "subsecond", "title": "t", "calendar": "*:*:0/0.000001"},
        {"id": "counted", "title": "t", "calendar": "*:*:*", "fireDate": "2026-10-20T00:00:00Z", "count": 100},
        {"id": "ended", "title": "t", "repeatInterval": "minute", "fireDate": "1971-01-01T00:00:00Z",
         "until": "1972-01-01T00:00:00Z"},
        {"id": "dublin", "title": "t", "calendar": "daily", "timeZone": "Europe/Dublin"},
        {"id": "lordhowe", "title": "t", "calendar": "*:0/15", "timeZone": "Australia/Lord_Howe"},
        {"id": "leap", "title": "t", "calendar": "*-02-29 Mon 00:00", "maxLateness": 1e308},
    ]
    # A port digit with a combining mark (U+0310), which once passed for a digit.
    seeds["combining-port.json"] = (
        '{"notifications": [{"id": "p", "title": "t", "action": {"url": "https://example.org:000\u0310/"}}]}'.encode()
    )
    seeds["costly-schedules.json"] = json.dumps({"version": 1, "notifications": costly}).encode()
    # Rules: caps, groups, rollouts, and targeting expressions that nest deep, build large values
    # or loop over lists in filters.
    ruled = [
        {"id": "a", "title": "t", "frequency": {"lifetime": 100, "custom": [{"period": "90d", "cap": 2147483647}]},
         "groups": ["g", "h"], "priority": -9223372036854775808},
        {"id": "b", "title": "t", "rollout": {"namespace": "é/\u0000", "start": 8589934592, "count": 2147483648,
                                              "total": 2147483648}},
        {"id": "e", "title": "t", "targeting": "(" * 63 + "1" + ")" * 63},
        {"id": "p", "title": "t", "targeting": "'x' * 65536 + 'y'"},
        {"id": "t", "title": "t", "targeting": "tags" + "[.a == 1]" * 40 + " || [" + ",".join(["tags"] * 500) + "]"
                                               "[.x][.y][.z]|length > 0"},
        {"id": "u", "title": "t", "targeting": "2 ^ 63 + 9223372036854775807 * 2 // 0 % 'x'"},
        {"id": "v", "title": "t", "targeting": "\"\\U0010ffff\\x41\\777\\N{DASH}\""},
    ]
    seeds["ruled.json"] = json.dumps({"version": 2, "groups": [{"id": "g", "frequency": {"lifetime": 1}},
                                                                {"id": "h", "enabled": False}],
                                      "notifications": ruled}).encode()
    seeds.update(calendars())
    return seeds


def calendar(*components):
    """An iCalendar document holding `components` (each a list of content lines)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify-sched//fuzz//EN"]
    for component in components:
        lines += component
    return ("\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n").encode()


def event(uid, start, *extra, alarm=("TRIGGER:-PT15M",)):
    return (["BEGIN:VEVENT", "UID:" + uid, start] + list(extra)
            + ["BEGIN:VALARM", "ACTION:DISPLAY"] + list(alarm) + ["END:VALARM", "END:VEVENT"])


def calendars():
    """Calendars: every recurrence shape, zones the fuzzer's parser knows, and hostile ones."""
    seeds = {}
    berlin = "DTSTART;TZID=Europe/Berlin:20260329T023000"
    seeds["calendar-rules.ics"] = calendar(
        event("a", berlin, "RRULE:FREQ=MONTHLY;BYDAY=-1FR;BYSETPOS=-1;COUNT=40"),
        event("b", "DTSTART:20240229T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=-1,53;BYDAY=MO,SU;WKST=SU"),
        event("c", "DTSTART;VALUE=DATE:20261231", "RRULE:FREQ=YEARLY;BYYEARDAY=-1,366;UNTIL=20351231",
              alarm=("TRIGGER;RELATED=END:-P1DT2H", "REPEAT:3", "DURATION:PT10M")),
        event("d", "DTSTART;TZID=Australia/Lord_Howe:20261004T013000", "RRULE:FREQ=HOURLY;BYHOUR=1,2;INTERVAL=7",
              "EXDATE;TZID=Australia/Lord_Howe:20261004T023000", "RDATE:20270101T000000Z"),
        event("d", "DTSTART;TZID=Australia/Lord_Howe:20261005T013000",
              "RECURRENCE-ID;TZID=Australia/Lord_Howe:20261004T083000"),
        ["BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:19701025T030000",
         "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
         "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
         "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE"],
        event("e", "DTSTART;TZID=Custom:20261101T090000", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE;WKST=SU;BYSETPOS=2"))
    seeds["calendar-never.ics"] = calendar(
        event("feb30", "DTSTART:20260101T000000Z", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"),
        event("secondly", "DTSTART:20260101T000000Z", "RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"),
        event("counted", "DTSTART:20260101T000000Z", "RRULE:FREQ=SECONDLY;COUNT=100000"),
        event("floating", "DTSTART;VALUE=DATE:20520202", "RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"),
        event("never-weekly", "DTSTART:20260101T000000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE;BYSETPOS=4"),
        event("never-hourly", "DTSTART:20260101T000000Z", "RRULE:FREQ=HOURLY;BYMONTH=2;BYYEARDAY=1"))
    seeds["calendar-repeat.ics"] = calendar(
        event("loud", "DTSTART:20270101T000000Z", "RRULE:FREQ=MINUTELY",
              alarm=("TRIGGER:-P100W", "REPEAT:2000000000", "DURATION:PT1S")))
    seeds["calendar-rdates.ics"] = calendar(
        event("many", "DTSTART:20270101T000000Z", "RDATE:" + ",".join("2027%04dT000000Z" % (101 + i % 28)
                                                                        for i in range(3000))))
    seeds["calendar-deep.ics"] = ("BEGIN:VCALENDAR\r\n" + "BEGIN:X\r\n" * 3000).encode()
    seeds["calendar-unterminated.ics"] = calendar(event("x", "DTSTART:20270101T000000Z"))[:-30]
    seeds["calendar-description.ics"] = calendar(
        event("long", "DTSTART:20270101T000000Z", "DESCRIPTION:" + "x" * 60000))
    seeds["calendar-folded.ics"] = b"BEGIN:VCALENDAR\r\n" + b" x\r\n" * 10000 + b"END:VCALENDAR\r\n"
    return seeds


def control_call(method, *arguments):
    """A control call as the fuzz target reads it: the method's index, then each argument as a
    kind byte (0 string with a 2-byte little-endian length, 1 boolean, 2 uint32)."""
    data = bytes([method])
    for argument in arguments:
        if isinstance(argument, bool):
            data += bytes([1, int(argument)])
        elif isinstance(argument, int):
            data += bytes([2]) + argument.to_bytes(4, "little")
        else:
            text = argument.encode()
            data += bytes([0]) + len(text).to_bytes(2, "little") + text
    return data


def control_calls():
    """One seed per method of the control interface, and the hostile calls of issue 20."""
    return {
        "control-post-event": control_call(0, "deploy"),
        "control-list": control_call(1, 10),
        "control-list-huge": control_call(1, 4294967295),
        "control-status": control_call(2),
        "control-handle": control_call(3, "0123456789abcdef", True),
        "control-test": control_call(4, "Title", "Body", "Open", "https://example.org/", "critical", 5, False),
        "control-test-hostile": control_call(
            4, "\u202e" * 100, "", "", "https://a@evil/", "loud", 4294967295, True),
        "control-sync": control_call(5),
        "control-test-combining-port": control_call(
            4, "Title", "Body", "Open", "https://example.org:000\u0310/", "normal", 0, False),
    }


def main():
    out, feeds = sys.argv[1], sys.argv[2]
    seeds = hostile()
    for name in sorted(os.listdir(feeds)):
        data = open(os.path.join(feeds, name), "rb").read()
        seeds["shipped-" + name] = data
        for cut in (1, 9, len(data) // 3, len(data) // 2, len(data) - 1):
            seeds["truncated-%d-%s" % (cut, name)] = data[:cut]
        if name.endswith(".plist"):
            try:
                value = plistlib.loads(data)
                seeds["binary-" + name] = plistlib.dumps(value, fmt=plistlib.FMT_BINARY)
            except Exception:
                pass
    for target, corpus in (("feed", seeds), ("control", control_calls())):
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        for name, data in corpus.items():
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(data)
        print("%d %s seeds in %s" % (len(corpus), target, folder))


if __name__ == "__main__":
    main()
