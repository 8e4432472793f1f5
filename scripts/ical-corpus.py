#!/usr/bin/env python3
"""Writes the differential corpus for iCalendar alarms: generated RFC 5545 calendars and the
instants their alarms fire at, as the oracle (recurring-ical-events on icalendar and dateutil,
from .build-oracles/ical) expands them and the ruling below places the alarms.

    ical-corpus.py COUNT [SEED]

Each line is a JSON object: `name` (`cal-<index>`); `zone`, the user's IANA zone, in which
floating and all-day times are read; `from` and `to`, the window [from, to) in RFC 3339 UTC;
`ics`, the calendar (CRLF lines, long ones folded); `alarms`, the sorted, distinct instants in
the window at which an alarm fires; and `python_native`, for reports only: how many of those
firings recurring-ical-events' own alarm arithmetic places at another instant.

Each calendar holds one recurring VEVENT (or VTODO with DUE): DTSTART with TZID (an IANA or a
Windows zone name), in UTC, floating or all-day; an RRULE of any frequency and BYxxx part, with
COUNT, UNTIL or neither, whose DTSTART is its first instance (RFC 5545 leaves other starts
undefined); and maybe DTEND or DURATION, EXDATEs (of real instances), RDATEs, overrides by
RECURRENCE-ID (moved, with their own alarms or none, or cancelled) and one or two VALARMs,
relative (to the start or, RELATED=END, to the end or DUE) or absolute, some with REPEAT.
Starts gather around the zones' DST changes; the window is 400 days, up to three years on.

The instances (and which alarms each has: an override has only its own) are the oracle's. Where
the alarms fire is ruled as notify-sched places them, not as the oracle does (it adds the whole
TRIGGER to the wall-clock start and, for an all-day start, drops all but whole days):
  - A relative TRIGGER's days and weeks are nominal: they move the anchor's wall-clock time (an
    all-day anchor is midnight of its day; floating and all-day anchors are read in `zone`),
    which is then read in its zone, a time in a spring-forward gap moved later by the gap and a
    repeated one taken the first time (RFC 5545 3.3.5). Its hours, minutes and seconds, and each
    REPEAT's DURATION, are then added as elapsed time.
  - An end that a DURATION gives (RELATED=END) is placed the same way: its days on the start's
    wall clock, the rest elapsed. An end that DTEND or DUE gives keeps its wall-clock distance
    from the start, as in the oracle.
  - An absolute TRIGGER fires at its instant, and each REPEAT a DURATION later.
  - An override with STATUS:CANCELLED fires nothing: the instance is cancelled (RFC 5545
    3.8.1.11). The oracle keeps it as an instance like any other, with the alarms it carries
    (CANCELLED_FIRES below turns that back on).
The oracle is asked for a window widened by the longest TRIGGER and REPEAT span and two days,
and its firings are kept where the ruled instant falls in [from, to). A calendar on which the
oracle raises is drawn again from a seed derived from its index (counted on stderr); the same
COUNT and SEED give the same lines.
"""
import calendar
import datetime
import json
import random
import re
import sys
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
from dateutil.rrule import rrulestr

UTC = datetime.timezone.utc
ZONES = [
    "Australia/Lord_Howe", "Europe/Dublin", "Africa/Casablanca", "Pacific/Chatham", "America/New_York",
    "Europe/Berlin", "Asia/Kolkata", "Australia/Adelaide", "America/Sao_Paulo", "Pacific/Apia",
    "America/St_Johns", "Asia/Tehran", "Europe/London", "America/Los_Angeles", "Asia/Kathmandu",
    "Pacific/Auckland", "America/Santiago", "Asia/Gaza", "Europe/Moscow", "UTC",
]
# Windows zone names, and the IANA zone icalendar maps each to (CLDR's windowsZones).
WINDOWS = {
    "W. Europe Standard Time": "Europe/Berlin",
    "Eastern Standard Time": "America/New_York",
    "GMT Standard Time": "Europe/London",
    "AUS Eastern Standard Time": "Australia/Sydney",
    "New Zealand Standard Time": "Pacific/Auckland",
    "India Standard Time": "Asia/Calcutta",
}
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
TRIGGERS = ["-PT15M", "-P1D", "PT0S", "-PT1H30M", "-P1DT2H", "PT5M", "-PT10M", "-P2D", "-PT24H", "-P1W",
            "-PT2H", "P1D", "-PT1M", "-P1DT0H15M", "-PT1H0M30S", "PT1H"]
REPEAT_DURATIONS = {"PT5M": 300, "PT10M": 600, "PT1H": 3600}
WINDOW = datetime.timedelta(days=400)
# Whether an override with STATUS:CANCELLED fires the alarms it carries, as the oracle has it.
CANCELLED_FIRES = False
DURATION_TEXT = re.compile(r"^([+-]?)P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$")


def zone(name):
    return ZoneInfo(WINDOWS.get(name, name))


def utc_of(wall, tz):
    """The instant of a wall-clock time in a zone: a gap's time moved later, a repeated one the first."""
    return wall.replace(tzinfo=tz, fold=0).astimezone(UTC)


def rfc3339(instant):
    instant = instant.astimezone(UTC)
    text = instant.strftime("%Y-%m-%dT%H:%M:%S")
    if instant.microsecond:
        text += ".%06d" % instant.microsecond
    return text + "Z"


def parse_duration(text):
    """(nominal days, exact seconds), both carrying the duration's sign."""
    match = DURATION_TEXT.match(text)
    sign = -1 if match.group(1) == "-" else 1
    weeks, days, hours, minutes, seconds = (int(group or 0) for group in match.groups()[1:])
    return sign * (weeks * 7 + days), sign * (hours * 3600 + minutes * 60 + seconds)


_transitions = {}


def transitions(name):
    """The wall-clock times (just before) at which the zone's offset changes, 2022 to 2029."""
    if name not in _transitions:
        tz = zone(name)
        found = []
        instant = datetime.datetime(2022, 1, 1, tzinfo=UTC)
        end = datetime.datetime(2030, 1, 1, tzinfo=UTC)
        step = datetime.timedelta(days=1)
        offset = instant.astimezone(tz).utcoffset()
        while instant < end:
            later = instant + step
            if later.astimezone(tz).utcoffset() != offset:
                low, high = instant, later
                while high - low > datetime.timedelta(minutes=1):
                    middle = low + (high - low) / 2
                    if middle.astimezone(tz).utcoffset() == offset:
                        low = middle
                    else:
                        high = middle
                found.append((high + offset).replace(tzinfo=None))
                offset = later.astimezone(tz).utcoffset()
            instant = later
        _transitions[name] = found
    return _transitions[name]


class Series:
    """The generated recurring component: its kind of time, its zone and its rule."""

    def __init__(self, kind, tzid, user_zone):
        self.kind = kind  # tzid, utc, floating or date
        self.tzid = tzid
        self.tz = zone(tzid) if kind == "tzid" else UTC if kind == "utc" else ZoneInfo(user_zone)

    def value(self, wall):
        if self.kind == "date":
            return wall.strftime("%Y%m%d")
        return wall.strftime("%Y%m%dT%H%M%S") + ("Z" if self.kind == "utc" else "")

    def params(self):
        if self.kind == "tzid":
            return ";TZID=" + self.tzid
        return ";VALUE=DATE" if self.kind == "date" else ""

    def prop(self, name, walls):
        return "%s%s:%s" % (name, self.params(), ",".join(self.value(wall) for wall in walls))

    def utc_value(self, wall):
        return utc_of(wall, self.tz).strftime("%Y%m%dT%H%M%SZ")

    def instant(self, wall):
        return utc_of(wall, self.tz)


class Generator:
    def __init__(self, seed):
        self.random = random.Random(seed)

    def chance(self, probability):
        return self.random.random() < probability

    def choice(self, items):
        return self.random.choice(items)

    def weighted(self, pairs):
        return self.random.choices([item for item, _ in pairs], [weight for _, weight in pairs])[0]

    # Starts and rules

    def provisional_start(self, series, user_zone):
        name = series.tzid if series.kind == "tzid" else user_zone
        changes = transitions(name) if series.kind != "utc" else []
        if changes and self.chance(0.55):
            change = self.choice([c for c in changes if 2023 <= c.year <= 2028] or changes)
            day = change.date() + datetime.timedelta(days=self.choice([0, 0, 0, -1, 1, -7, 7, self.random.randint(-20, 20)]))
            clock = change + datetime.timedelta(minutes=15 * self.random.randint(-4, 6))
            wall = datetime.datetime.combine(day, clock.time())
        else:
            if self.chance(0.06):
                day = datetime.date(self.choice([2024, 2028]), 2, 29)
            else:
                day = datetime.date(2023, 1, 1) + datetime.timedelta(days=self.random.randrange(6 * 365 + 1))
            if self.chance(0.45):
                minutes = 60 + 5 * self.random.randint(0, 30)  # 01:00 to 03:30
            else:
                minutes = 60 * self.random.randrange(24) + self.choice([0, 0, 15, 30, 45, self.random.randrange(60)])
            wall = datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(minutes=minutes)
        if self.chance(0.05):
            wall = wall.replace(second=self.random.randrange(60))
        if series.kind == "date":
            wall = wall.replace(hour=0, minute=0, second=0)
        return wall

    def weekday_list(self, low, high):
        return self.random.sample(WEEKDAYS, self.random.randint(low, high))

    def month_day(self, months=None):
        """A BYMONTHDAY value that exists in each of the months (29-31 often)."""
        largest = min((DAYS_IN_MONTH[m] for m in months or ()), default=31)
        pick = self.choice(["neg", "end", "any", "any"])
        if pick == "neg":
            return self.choice([-1, -1, -2, -3, -7])
        if pick == "end" and largest >= 29:
            return self.random.randint(29, largest)
        return self.random.randint(1, min(largest, 28))

    def rule_parts(self, series):
        """The rule without COUNT or UNTIL, and whether it needs one to stay small."""
        datetime_kind = series.kind != "date"
        frequencies = [("YEARLY", 16), ("MONTHLY", 25), ("WEEKLY", 25), ("DAILY", 22)]
        if datetime_kind:
            frequencies += [("HOURLY", 7), ("MINUTELY", 4)]
        frequency = self.weighted(frequencies)
        parts = [("FREQ", frequency)]
        bounded = False
        interval = self.weighted([(1, 10), (2, 4), (3, 2), (4, 2)])
        if frequency == "YEARLY":
            shape = self.choice(["plain", "monthday", "nthday", "yearday", "weekno", "nthday-year", "setpos"])
            if shape == "monthday":
                months = self.random.sample(range(1, 13), self.choice([1, 1, 2]))
                parts += [("BYMONTH", months), ("BYMONTHDAY", [self.month_day(months)])]
            elif shape == "nthday":
                month = self.random.randint(1, 12)
                ordinals = [1, 2, 3, 4, -1, -2] + ([5] if month != 2 else [])
                parts += [("BYMONTH", [month]), ("BYDAY", ["%d%s" % (self.choice(ordinals), self.choice(WEEKDAYS))])]
            elif shape == "yearday":
                days = self.choice([[1], [60], [100], [256], [365], [366], [-1], [-100], [-306], [-366], [32, 200]])
                parts.append(("BYYEARDAY", days))
                if self.chance(0.2):
                    parts.append(("BYDAY", self.weekday_list(3, 6)))
            elif shape == "weekno":
                parts.append(("BYWEEKNO", [self.choice([1, 2, 10, 13, 26, 44, 52, 53, -1, -2])]))
                if self.chance(0.85):
                    parts.append(("BYDAY", self.weekday_list(1, 2)))
            elif shape == "nthday-year":
                parts.append(("BYDAY", ["%d%s" % (self.choice([1, 2, 10, 20, 52, -1, -2, -10]), self.choice(WEEKDAYS))]))
            elif shape == "setpos":
                parts += [("BYMONTH", sorted(self.random.sample(range(1, 13), self.choice([1, 2, 3])))),
                          ("BYDAY", ["MO", "TU", "WE", "TH", "FR"]), ("BYSETPOS", [self.choice([1, -1, 2])])]
        elif frequency == "MONTHLY":
            shape = self.choice(["plain", "monthday", "monthday", "nthday", "nthday", "setpos", "friday13"])
            if shape == "monthday":
                days = sorted({self.month_day() for _ in range(self.choice([1, 1, 2]))})
                parts.append(("BYMONTHDAY", days))
            elif shape == "nthday":
                parts.append(("BYDAY", ["%d%s" % (self.choice([1, 2, 3, 4, 5, -1, -1, -2]), self.choice(WEEKDAYS))]))
            elif shape == "setpos":
                parts += [("BYDAY", self.choice([["MO", "TU", "WE", "TH", "FR"], ["SA", "SU"], self.weekday_list(1, 1)])),
                          ("BYSETPOS", [self.choice([1, -1, 2])])]
            elif shape == "friday13":
                parts += [("BYDAY", ["FR"]), ("BYMONTHDAY", [13])]
            if shape != "monthday" and self.chance(0.2):
                parts.insert(1, ("BYMONTH", sorted(self.random.sample(range(1, 13), self.random.randint(2, 5)))))
        elif frequency == "WEEKLY":
            shape = self.choice(["plain", "days", "days", "setpos", "months"])
            if shape == "days":
                parts.append(("BYDAY", self.weekday_list(1, 3)))
            elif shape == "setpos":
                # No BYSETPOS: dateutil counts the first week from DTSTART, not from WKST, and the
                # ruling follows RFC 5545 and libical there (its vectors pin it).
                parts.append(("BYDAY", self.weekday_list(2, 4)))
            elif shape == "months":
                parts += [("BYMONTH", sorted(self.random.sample(range(1, 13), self.random.randint(2, 6)))),
                          ("BYDAY", self.weekday_list(1, 2))]
        elif frequency == "DAILY":
            shape = self.choice(["plain", "plain", "weekdays", "months", "monthdays", "hours"])
            if shape == "weekdays":
                parts.append(("BYDAY", self.choice([["MO", "TU", "WE", "TH", "FR"], self.weekday_list(1, 3)])))
            elif shape == "months":
                parts.append(("BYMONTH", sorted(self.random.sample(range(1, 13), self.random.randint(1, 4)))))
            elif shape == "monthdays":
                parts.append(("BYMONTHDAY", sorted({self.month_day() for _ in range(self.choice([1, 2, 3]))})))
            elif shape == "hours" and datetime_kind:
                parts.append(("BYHOUR", sorted(self.random.sample(range(24), 2))))
                if self.chance(0.5):
                    parts.append(("BYMINUTE", sorted(self.random.sample([0, 15, 30, 45], self.choice([1, 2])))))
        elif frequency == "HOURLY":
            if self.chance(0.5):
                bounded = True
            else:
                parts.append(("BYHOUR", sorted(self.random.sample([0, 1, 2, 3, 4, 23], self.choice([1, 2, 3])))))
                parts.append(self.choice([("BYDAY", self.weekday_list(1, 1)), ("BYMONTH", [self.choice([3, 4, 9, 10, 11])]),
                                          ("BYMONTHDAY", sorted(self.random.sample(range(1, 29), 2)))]))
        elif frequency == "MINUTELY":
            interval = self.choice([1, 2, 3, 4, 15, 30, 45, 90])
            if self.chance(0.6):
                bounded = True
            else:
                parts += [("BYHOUR", [self.choice([1, 2, 3])]), ("BYMINUTE", sorted(self.random.sample([0, 15, 30, 45], 2))),
                          ("BYMONTH", [self.choice([3, 4, 9, 10, 11])]), ("BYDAY", self.weekday_list(1, 1))]
        if frequency in ("YEARLY", "MONTHLY", "WEEKLY") and datetime_kind and self.chance(0.12):
            parts.append(("BYHOUR", sorted(self.random.sample(range(24), self.choice([1, 2])))))
            if self.chance(0.5):
                parts.append(("BYMINUTE", [self.choice([0, 10, 30, 45])]))
        if interval != 1:
            parts.insert(1, ("INTERVAL", interval))
        if self.chance(0.3) or (frequency == "WEEKLY" and interval > 1 and self.chance(0.5)):
            parts.append(("WKST", self.choice(["MO", "SU", "SU", "SA", "TU", "TH"])))
        return parts, bounded

    @staticmethod
    def rule_text(parts):
        return ";".join(
            "%s=%s" % (key, ",".join(str(v) for v in value) if isinstance(value, list) else value) for key, value in parts)

    @staticmethod
    def expand(text, start, count=None, until=None, limit=None, after=None):
        """Wall-clock instances of a rule from a naive start, up to `count` or past `until`/`limit`."""
        rule = rrulestr("RRULE:" + text, dtstart=start)
        found = []
        for instance in rule:
            if limit is not None and instance > limit:
                break
            if until is not None and instance > until:
                break
            if after is None or instance >= after:
                found.append(instance)
            if count is not None and len(found) >= count:
                break
        return found

    # The calendar

    def calendar(self, index, user_zone):
        kind = self.weighted([("tzid", 58), ("utc", 10), ("floating", 16), ("date", 16)])
        if kind == "tzid":
            tzid = self.weighted([(user_zone, 40), (self.choice(ZONES), 45), (self.choice(list(WINDOWS)), 15)])
        else:
            tzid = None
        series = Series(kind, tzid, user_zone)
        # A rule and a start it is synchronized with: the first instance from a provisional start.
        for _ in range(50):
            parts, bounded = self.rule_parts(series)
            text = self.rule_text(parts)
            provisional = self.provisional_start(series, user_zone)
            try:
                first = self.expand(text, provisional, count=1, limit=provisional + datetime.timedelta(days=4 * 366))
            except ValueError:
                continue  # dateutil refuses rules no start can reach
            if first:
                break
        else:
            raise RuntimeError("no rule with an instance")
        start = first[0]
        todo = self.chance(0.15)

        # The window: 400 days, from a few days before the start to three years after it.
        bounded_rule = bounded or self.chance(0.45)
        if bounded_rule and self.chance(0.85):
            offset = self.random.randint(-3, 45) if not bounded else self.random.randint(-3, 1)
        else:
            offset = self.random.randint(-3, 3 * 365)
        window_from = datetime.datetime.combine(start.date() + datetime.timedelta(days=offset), datetime.time(), UTC)
        if self.chance(0.3):
            window_from += datetime.timedelta(seconds=self.random.randrange(86400))
        window_to = window_from + WINDOW
        local_from = window_from.astimezone(series.tz).replace(tzinfo=None) - datetime.timedelta(days=2)
        local_to = window_to.astimezone(series.tz).replace(tzinfo=None) + datetime.timedelta(days=2)

        # COUNT, UNTIL or neither.
        limit = None
        if bounded_rule:
            if bounded or self.chance(0.5):
                count = self.random.randint(1, 30)
                parts.append(("COUNT", count))
                limit = ("count", count)
            else:
                near = self.expand(text, start, count=3, after=local_from + datetime.timedelta(days=self.random.randint(0, 380)))
                early = self.expand(text, start, count=self.random.randint(1, 40))
                pool = near + early
                until = self.choice(pool)
                if not self.chance(0.4):
                    until += datetime.timedelta(minutes=self.choice([-30, -1, 1, 59, 60 * 12, 60 * 36]))
                    if series.kind == "date":
                        until = until.replace(hour=0, minute=0, second=0)
                    until = max(until, start)  # an UNTIL before DTSTART is left undefined
                # UTC for a start in a zone or in UTC, else of the start's kind (floating or DATE).
                parts.append(("UNTIL", series.utc_value(until) if series.kind in ("tzid", "utc") else series.value(until)))
                limit = ("until", until)
        if parts[-1][0] in ("COUNT", "UNTIL") and self.chance(0.5):
            parts.insert(1, parts.pop())
        final_rule = self.rule_text(parts)

        # Real instances (wall clock) to take EXDATEs, overrides and absolute triggers from.
        count_limit = limit[1] if limit and limit[0] == "count" else None
        until_limit = limit[1] if limit and limit[0] == "until" else None
        early = self.expand(text, start, count=min(count_limit or 8, 8), until=until_limit)
        inside = self.expand(text, start, count=count_limit, until=until_limit, limit=local_to) if count_limit \
            else self.expand(text, start, until=until_limit, limit=local_to, after=local_from)
        inside = [i for i in inside if i >= local_from]
        candidates = list(dict.fromkeys(inside + early)) or [start]
        taken = set()

        def pick(n):
            pool = [c for c in candidates if c not in taken]
            chosen = self.random.sample(pool, min(n, len(pool)))
            taken.update(chosen)
            return sorted(chosen)

        uid = "cal-%d-%08x@notify-sched.test" % (index, self.random.getrandbits(32))
        name = "VTODO" if todo else "VEVENT"
        alarms = []  # (description, trigger text, related, repeat, duration text, absolute instant)

        def new_alarm():
            number = len(alarms) + 1
            absolute = None
            if self.chance(0.12):
                around = self.choice(candidates)
                absolute = series.instant(around) - datetime.timedelta(minutes=self.choice([0, 5, 30, 90, 60 * 24]))
                if self.chance(0.3):
                    absolute = window_from + datetime.timedelta(seconds=self.random.randrange(int(WINDOW.total_seconds())))
                trigger, related = absolute.strftime("%Y%m%dT%H%M%SZ"), None
            else:
                trigger = self.choice(TRIGGERS)
                related = "END" if self.chance(0.2) else self.choice([None, None, None, "START"])
            repeat, duration = (self.random.randint(1, 4), self.choice(list(REPEAT_DURATIONS))) if self.chance(0.2) else (0, None)
            alarm = ("alarm %d" % number, trigger, related, repeat, duration, absolute)
            alarms.append(alarm)
            return alarm

        def alarm_lines(alarm):
            description, trigger, related, repeat, duration, absolute = alarm
            lines = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + description]
            if absolute is not None:
                lines.append("TRIGGER;VALUE=DATE-TIME:" + trigger)
            else:
                lines.append("TRIGGER%s:%s" % (";RELATED=" + related if related else "", trigger))
            if repeat:
                lines += ["REPEAT:%d" % repeat, "DURATION:" + duration]
            lines.append("END:VALARM")
            return lines

        def end_lines(begin, allow_duration=True):
            """DTEND/DUE or DURATION for a component starting at `begin` (wall clock)."""
            end_name = "DUE" if todo else "DTEND"
            if series.kind == "date":
                if todo or self.chance(0.5) or not allow_duration:
                    return [series.prop(end_name, [begin + datetime.timedelta(days=self.choice([1, 1, 2, 3]))])]
                return ["DURATION:" + self.choice(["P1D", "P2D", "P1W"])]
            if todo or self.chance(0.6) or not allow_duration:
                length = datetime.timedelta(minutes=self.choice([0, 15, 30, 60, 90, 150, 24 * 60, 25 * 60, 3 * 24 * 60]))
                return [series.prop(end_name, [begin + length])]
            return ["DURATION:" + self.choice(["PT30M", "PT1H", "PT1H30M", "P1D", "PT25H", "P1DT1H", "P1W", "PT0S"])]

        lines = ["BEGIN:" + name, "UID:" + uid, "DTSTAMP:20250101T000000Z", "SUMMARY:Event %d" % index,
                 series.prop("DTSTART", [start])]
        if todo or self.chance(0.65):
            lines += end_lines(start)
        lines.append("RRULE:" + final_rule)
        if self.chance(0.35):
            exdates = pick(self.random.randint(1, 3))
            if exdates:
                if series.kind == "tzid" and self.chance(0.35):
                    lines.append("EXDATE:" + ",".join(series.utc_value(e) for e in exdates))
                elif self.chance(0.5):
                    lines.append(series.prop("EXDATE", exdates))
                else:
                    lines += [series.prop("EXDATE", [e]) for e in exdates]
        if self.chance(0.2):
            rdates = []
            for _ in range(self.random.randint(1, 3)):
                base = self.choice(candidates)
                if series.kind == "date":
                    rdates.append(base + datetime.timedelta(days=self.choice([0, 1, 2, 5])))
                else:
                    minutes = self.choice([0, 60, 24 * 60 + 180, 2 * 24 * 60, 7 * 24 * 60 - 30])
                    rdates.append(base + datetime.timedelta(minutes=minutes))
            lines.append(series.prop("RDATE", sorted(set(rdates))))
        master_alarms = [new_alarm() for _ in range(self.choice([1, 1, 2]))]
        for alarm in master_alarms:
            lines += alarm_lines(alarm)
        lines.append("END:" + name)

        components = ["\r\n".join(lines)]
        for instance in pick(self.choice([0, 0, 0, 1, 1, 2])):
            override = ["BEGIN:" + name, "UID:" + uid, "DTSTAMP:20250101T000000Z", "SUMMARY:Moved %d" % index]
            if series.kind == "tzid" and self.chance(0.15):
                override.append("RECURRENCE-ID:" + series.utc_value(instance))
            else:
                override.append(series.prop("RECURRENCE-ID", [instance]))
            if series.kind == "date":
                moved = instance + datetime.timedelta(days=self.choice([0, 1, -1, 2]))
            else:
                moved = instance + datetime.timedelta(minutes=self.choice([0, 30, 60, -60, 120, 24 * 60, -24 * 60, 27 * 60]))
            override.append(series.prop("DTSTART", [moved]))
            if todo or self.chance(0.5):
                override += end_lines(moved)
            if self.chance(0.25):
                override.append("STATUS:CANCELLED")
            pick_alarms = self.random.random()
            if pick_alarms < 0.4:
                override += alarm_lines(new_alarm())
            elif pick_alarms < 0.7:
                for alarm in master_alarms:
                    override += alarm_lines(alarm)
            override.append("END:" + name)
            components.append("\r\n".join(override))

        text = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify-sched//corpus//EN", *components,
                            "END:VCALENDAR"]) + "\r\n"
        return fold(text), window_from, window_to, alarms


def fold(text):
    """Folds lines longer than 75 octets (RFC 5545 3.1)."""
    out = []
    for line in text.split("\r\n"):
        while len(line) > 75:
            out.append(line[:75])
            line = " " + line[75:]
        out.append(line)
    return "\r\n".join(out)


def component_of(parent):
    adapter = getattr(parent, "_adapter", parent)
    return adapter._component


def oracle_instant(value, user_zone):
    """An instant the oracle gives, read its way: floating and all-day in the user's zone."""
    if isinstance(value, datetime.datetime):
        return value.astimezone(UTC) if value.tzinfo else utc_of(value, user_zone)
    return utc_of(datetime.datetime(value.year, value.month, value.day), user_zone)


def ruled_instant(anchor, nominal_days, exact_seconds, user_zone):
    if isinstance(anchor, datetime.datetime):
        wall, tz = anchor.replace(tzinfo=None), anchor.tzinfo or user_zone
    else:
        wall, tz = datetime.datetime(anchor.year, anchor.month, anchor.day), user_zone
    return utc_of(wall + datetime.timedelta(days=nominal_days), tz) + datetime.timedelta(seconds=exact_seconds)


class MisplacedExclusion(Exception):
    """The oracle would drop the wrong instance: an EXDATE or RECURRENCE-ID with a TZID also
    removes the instance whose wall-clock time is its UTC time, and the one whose UTC time is its
    wall-clock time (recurring-ical-events 3.8.2 compares them so). notify-sched removes only the
    instance at that instant (docs/feed-formats.md); such calendars are drawn again."""


def check_exclusions(calendar):
    """Raises MisplacedExclusion where the oracle would drop an instance that is not excluded."""
    for component in calendar.walk():
        if component.name not in ("VEVENT", "VTODO") or "RRULE" not in component or "RECURRENCE-ID" in component:
            continue
        start = component["DTSTART"].dt
        if not isinstance(start, datetime.datetime) or start.tzinfo is None:
            continue
        text = component["RRULE"].to_ical().decode()
        text = ";".join(part for part in text.split(";") if not part.startswith(("COUNT=", "UNTIL=")))
        rule = rrulestr(text, dtstart=start.replace(tzinfo=None))
        exdates = component.get("EXDATE", [])
        excluded = [value.dt for exdate in (exdates if isinstance(exdates, list) else [exdates]) for value in exdate.dts]
        for other in calendar.walk():
            if other.name == component.name and "RECURRENCE-ID" in other and other.get("UID") == component.get("UID"):
                excluded.append(other["RECURRENCE-ID"].dt)
        rdates = component.get("RDATE", [])
        added = {value.dt.replace(tzinfo=None) for rdate in (rdates if isinstance(rdates, list) else [rdates])
                 for value in rdate.dts if isinstance(value.dt, datetime.datetime)}
        for value in excluded:
            if not isinstance(value, datetime.datetime) or value.tzinfo is None:
                continue
            # The instances at the wall-clock time of the value's UTC time, and at the wall-clock time
            # whose UTC time is the value's wall-clock time, unless that is the value's own instance.
            for wall in (value.astimezone(datetime.timezone.utc).replace(tzinfo=None),
                         value.replace(tzinfo=None) + value.utcoffset()):
                if wall.replace(tzinfo=start.tzinfo) == value:
                    continue
                if wall in added or rule.between(
                        wall - datetime.timedelta(seconds=1), wall + datetime.timedelta(seconds=1), inc=True):
                    raise MisplacedExclusion()


class WeekNumberQuirk(Exception):
    """dateutil counts the weeks of the year before from the length of the year asked about, so
    in a year where that differs from the true count (RFC 5545: week 1 is the first with at least
    four days of the year) it misplaces the first days of January; such calendars are drawn again."""


def week_count(year, week_start):
    """The weeks of `year` whose weeks start on `week_start` (0 = Monday), week 1 holding 4 January."""
    def first(year):
        fourth = datetime.date(year, 1, 4)
        return fourth - datetime.timedelta(days=(fourth.weekday() - week_start) % 7)
    return (first(year + 1) - first(year)).days // 7


def dateutil_last_year_weeks(year, week_start):
    """How many weeks dateutil's rrule takes the year before `year` to have."""
    year_length = 366 if calendar.isleap(year) else 365
    first_week_start = (7 - datetime.date(year, 1, 1).weekday() + week_start) % 7
    no1wkst = 0 if first_week_start >= 4 else first_week_start
    last_weekday = datetime.date(year - 1, 1, 1).weekday()
    last_no1wkst = (7 - last_weekday + week_start) % 7
    if last_no1wkst >= 4:
        last_length = 366 if calendar.isleap(year - 1) else 365
        return 52 + (last_length + (last_weekday - week_start) % 7) % 7 // 4
    return 52 + (year_length - no1wkst) % 7 // 4


def check_week_numbers(calendar_object, window_from, window_to):
    """Raises WeekNumberQuirk where dateutil would misplace the first days of a year of the window."""
    for component in calendar_object.walk():
        if component.name not in ("VEVENT", "VTODO") or "RRULE" not in component:
            continue
        rule = component["RRULE"]
        numbers = rule.get("BYWEEKNO")
        if not numbers:
            continue
        week_start = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].index((rule.get("WKST") or ["MO"])[0])
        for year in range(window_from.year - 1, window_to.year + 2):
            true_count = week_count(year - 1, week_start)
            quirk = dateutil_last_year_weeks(year, week_start)
            if true_count != quirk and ({true_count, quirk} & set(numbers)):
                raise WeekNumberQuirk()


def rule(ics, user_zone_name, window_from, window_to, specs):
    """The alarm instants in [from, to) and how many the oracle's arithmetic places elsewhere."""
    user_zone = ZoneInfo(user_zone_name)
    widen = datetime.timedelta(days=2)
    for _, trigger, _, repeat, duration, absolute in specs:
        days, seconds = parse_duration(trigger) if absolute is None else (0, 0)
        span = datetime.timedelta(days=abs(days), seconds=abs(seconds) + repeat * REPEAT_DURATIONS.get(duration, 0))
        widen = max(widen, span + datetime.timedelta(days=2))
    by_description = {spec[0]: spec for spec in specs}
    calendar = icalendar.Calendar.from_ical(ics)
    check_exclusions(calendar)
    check_week_numbers(calendar, window_from, window_to)
    occurrences = recurring_ical_events.of(calendar, components=["VALARM"])._occurrences_between(
        window_from - widen, window_to + widen)
    # Each event's or to-do's DURATION as written (icalendar reads PT25H as P1DT1H), by the
    # RECURRENCE-ID of an override.
    durations = {}
    for block in re.split(r"\nBEGIN:(?:VEVENT|VTODO)\n", ics.replace("\r\n", "\n").replace("\n ", ""))[1:]:
        own = block.split("BEGIN:VALARM")[0]
        written = re.search(r"^DURATION:(\S+)$", own, re.MULTILINE)
        recurrence = re.search(r"^RECURRENCE-ID[;:](?:.*:)?(\S+)$", own, re.MULTILINE)
        if written:
            durations[recurrence.group(1).rstrip("Z") if recurrence else None] = written.group(1)
    firings = {}  # (component, start, end, alarm) -> [(ruled, oracle's)]
    for occurrence in occurrences:
        component = component_of(occurrence.parent)
        if not CANCELLED_FIRES and str(component.get("STATUS", "")).upper() == "CANCELLED":
            continue
        description = str(occurrence.alarm["DESCRIPTION"])
        _, trigger, related, repeat, duration, absolute = by_description[description]
        step = REPEAT_DURATIONS.get(duration, 0)
        if absolute is not None:
            key = (id(component), None, None, description)
            if key not in firings:
                firings[key] = [(absolute + datetime.timedelta(seconds=k * step),) * 2 for k in range(repeat + 1)]
            continue
        anchor = occurrence.parent.end if related == "END" else occurrence.parent.start
        key = (id(component), occurrence.parent.start, occurrence.parent.end, description)
        if key in firings:
            continue
        days, seconds = parse_duration(trigger)
        offsets = [datetime.timedelta(days=days, seconds=seconds + k * step) for k in range(repeat + 1)]
        assert any(anchor + offset == occurrence.start for offset in offsets), (anchor, offsets, occurrence.start)
        # An end the DURATION gives is ruled like a TRIGGER: its days on the start's wall clock,
        # the rest elapsed (the oracle adds it all to the wall clock, as it does a DTEND's distance).
        base, base_days, base_seconds = anchor, 0, 0
        if related == "END" and "DURATION" in component and not ({"DTEND", "DUE"} & set(component)):
            base = occurrence.parent.start
            recurrence = component.get("RECURRENCE-ID")
            written = durations[recurrence.to_ical().decode().rstrip("Z") if recurrence else None]
            base_days, base_seconds = parse_duration(written)
        firings[key] = [(ruled_instant(base, base_days + days, base_seconds + seconds + k * step, user_zone),
                         oracle_instant(anchor + offset, user_zone)) for k, offset in enumerate(offsets)]
    alarms = set()
    python_native = 0
    for pairs in firings.values():
        for ruled, native in pairs:
            if window_from <= ruled < window_to:
                alarms.add(ruled)
                python_native += ruled != native
    return sorted(alarms), python_native


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    redrawn = {}
    for index in range(count):
        user_zone = ZONES[index % len(ZONES)]
        attempt = 0
        while True:
            generator = Generator("%d:%d:%d" % (seed, index, attempt))
            ics, window_from, window_to, specs = generator.calendar(index, user_zone)
            try:
                alarms, python_native = rule(ics, user_zone, window_from, window_to, specs)
                break
            except Exception as error:  # the oracle failed on this calendar: draw it again
                if isinstance(error, AssertionError):
                    raise
                attempt += 1
                kind = type(error).__name__
                redrawn[kind] = redrawn.get(kind, 0) + 1
        line = {"name": "cal-%d" % index, "zone": user_zone, "from": rfc3339(window_from), "to": rfc3339(window_to),
                "ics": ics, "alarms": [rfc3339(a) for a in alarms], "python_native": python_native}
        sys.stdout.write(json.dumps(line) + "\n")
    print("ical-corpus: %d of %d calendars drawn again after the oracle failed on them%s" % (
        sum(redrawn.values()), count, "".join(" (%s: %d)" % item for item in sorted(redrawn.items()))), file=sys.stderr)


if __name__ == "__main__":
    main()
