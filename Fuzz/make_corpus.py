#!/usr/bin/env python3
"""Writes the seed corpora of the two fuzz targets into OUT_DIR/feed and OUT_DIR/control.

    make_corpus.py OUT_DIR SHARE_FEEDS_DIR

Feed seeds: every shipped feed and truncations of it, plus hand-made hostile documents: entity
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
