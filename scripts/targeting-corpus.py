#!/usr/bin/env python3
"""Writes the differential corpus for targeting expressions: generated JEXL expressions and
what Mozilla's pyjexl (the oracle) makes of each, in a context of every kind of value.

    targeting-corpus.py COUNT [SEED]

The first line is the context, as JSON. Each further line is a JSON object: `expression`, and
`outcome`: `parse-error`, `error` (evaluation failed), or the value in a canonical form that the
Swift test writes the same way (`TargetingTests`): `n`, `t`, `f`, `i<whole>`, `d<IEEE bits in
hex>`, `s<UTF-8 in hex>`, `[a,b]`, `{<key in hex>:value,...}` with keys sorted.

pyjexl is configured as notify-sched's targeting is documented (docs/feed-formats.md,
"Targeting"): the `intersect` operator and the transforms `length`, `keys`, `versionCompare`
and `date`, as Firefox's Messaging System has them; and the bounds the core keeps where Python
would go on (whole numbers within 64 bits, finite doubles, whole numbers divided within 2^53, values up
to 65 536 bytes or 10 000 elements, no `%` formatting of strings, no complex powers) raise, as the core fails there.
The generator makes expressions of every rule of the grammar, with random spacing, and some
broken ones; the same COUNT and SEED give the same lines.
"""
import calendar
import json
import math
import operator
import random
import re
import struct
import sys

from pyjexl import JEXL
from pyjexl.evaluator import Context, Evaluator

MAX_BYTES = 65536
MAX_COUNT = 10000


class Bound(Exception):
    pass


def whole(value):
    return isinstance(value, int)


def number(value):
    return isinstance(value, (int, float))


def checked(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not (-(2 ** 63) <= value < 2 ** 63):
        raise Bound("beyond 64 bits")
    if isinstance(value, float) and not math.isfinite(value):
        raise Bound("not finite")
    if isinstance(value, str) and len(value.encode("utf-8")) > MAX_BYTES:
        raise Bound("too long")
    if isinstance(value, list) and len(value) > MAX_COUNT:
        raise Bound("too long")
    return value


def arithmetic(function):
    def apply(left, right):
        return checked(function(left, right))
    return apply


def repeat(left, right):
    # Repetition is checked before it is built.
    for sequence, times in ((left, right), (right, left)):
        if isinstance(sequence, (str, list)) and whole(times):
            size = len(sequence.encode("utf-8")) if isinstance(sequence, str) else len(sequence)
            limit = MAX_BYTES if isinstance(sequence, str) else MAX_COUNT
            if times > 0 and size > limit // times:
                raise Bound("too long")
    return checked(operator.mul(left, right))


def divide(left, right):
    if whole(left) and whole(right) and (abs(left) > 2 ** 53 or abs(right) > 2 ** 53):
        raise Bound("a division of whole numbers beyond 2^53")
    return checked(operator.truediv(left, right))


def modulo(left, right):
    if not (number(left) and number(right)):
        raise TypeError("no string formatting")
    return checked(operator.mod(left, right))


def power(left, right):
    if number(left) and number(right) and not (whole(left) and whole(right) and right >= 0):
        if left < 0 and float(right) != math.floor(right):
            raise TypeError("a complex power")
    if whole(left) and whole(right) and right > 64 and left not in (0, 1, -1):
        raise Bound("beyond 64 bits")
    return checked(operator.pow(left, right))


def intersect(left, right):
    if not isinstance(left, list) or not isinstance(right, list):
        raise TypeError("intersect takes lists")
    return [element for element in left if element in right]


def length(value):
    if not isinstance(value, (str, list, dict)):
        raise TypeError("no length")
    return len(value)


def keys(value):
    if not isinstance(value, dict):
        raise TypeError("no keys")
    return list(value.keys())


def version_compare(value, other):
    if not isinstance(value, str) or not isinstance(other, str):
        raise TypeError("versionCompare takes strings")
    left, right = value.split("."), other.split(".")
    for index in range(max(len(left), len(right))):
        a = left[index] if index < len(left) else "0"
        b = right[index] if index < len(right) else "0"
        if re.fullmatch(r"[0-9]+", a) and re.fullmatch(r"[0-9]+", b):
            a_number, b_number = int(a), int(b)
            if a_number != b_number:
                return -1 if a_number < b_number else 1
        elif a != b:
            return -1 if a < b else 1
    return 0


DATE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
    r"(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(Z|([+-])([0-9]{2}):([0-9]{2})))?"
)


def date(value):
    match = DATE.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise ValueError("not a date")
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    if year < 1 or not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        raise ValueError("not a date")
    seconds = calendar.timegm((year, month, day, 0, 0, 0))
    milliseconds = 0
    if match[4] is not None:
        hour, minute, second = int(match[4]), int(match[5]), int(match[6] or 0)
        if hour > 23 or minute > 59 or second > 59:
            raise ValueError("not a time")
        seconds += hour * 3600 + minute * 60 + second
        if match[7]:
            milliseconds = int(match[7][:3].ljust(3, "0"))
        if match[8] != "Z":
            hours, minutes = int(match[10]), int(match[11])
            if hours > 23 or minutes > 59:
                raise ValueError("not an offset")
            seconds -= (1 if match[9] == "+" else -1) * (hours * 60 + minutes) * 60
    return seconds * 1000 + milliseconds


def reg_exp_match(value, pattern):
    if not isinstance(value, str) or not isinstance(pattern, str):
        raise TypeError("regExpMatch takes a string and a pattern")
    match = re.search(pattern, value, re.ASCII)
    return None if match is None else [match.group(0)] + list(match.groups())


def oracle():
    jexl = JEXL()
    jexl.add_binary_operator("intersect", 40, intersect)
    jexl.add_binary_operator("/", 40, divide)
    for symbol, function in (("+", operator.add), ("-", operator.sub), ("//", operator.floordiv)):
        precedence = jexl.config.binary_operators[symbol].precedence
        jexl.add_binary_operator(symbol, precedence, arithmetic(function))
    jexl.add_binary_operator("*", 40, repeat)
    jexl.add_binary_operator("%", 50, modulo)
    jexl.add_binary_operator("^", 50, power)
    jexl.add_transform("length", length)
    jexl.add_transform("keys", keys)
    jexl.add_transform("versionCompare", version_compare)
    jexl.add_transform("date", date)
    jexl.add_transform("regExpMatch", reg_exp_match)
    return jexl


def canonical(value):
    if value is None:
        return "n"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, int):
        return "i%d" % value
    if isinstance(value, float):
        return "d%016x" % struct.unpack("<Q", struct.pack("<d", value))[0]
    if isinstance(value, str):
        return "s" + value.encode("utf-8").hex()
    if isinstance(value, list):
        return "[" + ",".join(canonical(element) for element in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(
            key.encode("utf-8").hex() + ":" + canonical(value[key]) for key in sorted(value)) + "}"
    raise TypeError("no canonical form for %r" % (value,))


CONTEXT = {
    "locale": "fr-FR", "language": "fr", "region": "FR", "desktop": "GNOME", "session": "wayland",
    "server": {"name": "gnome-shell", "capabilities": ["actions", "body", "body-markup", "persistence"]},
    "os": {"id": "debian", "version": "12"},
    "app": {"version": "2.10.1"}, "feed": {"version": 7},
    "now": 1803000000000, "installAgeDays": 42, "tags": ["sports", "news", "high income"],
    "impressions": 3, "ratio": 0.25, "empty": [], "nothing": None, "flag": True, "zero": 0,
    "items": [{"name": "a", "count": 1, "tags": ["x"]}, {"name": "b", "count": 5, "tags": []},
              {"name": "é/c", "count": 2.5, "tags": ["x", "y"]}],
}
# Keys in sorted order at every level, as the test reads them back (`|keys` gives them in order).
CONTEXT = json.loads(json.dumps(CONTEXT, sort_keys=True))

STRINGS = ["", "a", "fr", "GNOME", "wayland", "sports", "x", "2.10", "2.9", "2.10.1", "10", "é", "日本", "a/b",
           "2027-03-01", "2027-03-01T12:30:00Z", "2027-03-01T12:30:00.5+02:00", "not a date", "actions", "name"]
ESCAPES = ["\\n", "\\t", "\\\\", "\\x41", "\\u00e9", "\\q", "\\101", "\\U0001F600", "\\'", '\\"']
NAMED = {
    "number": ["installAgeDays", "impressions", "ratio", "zero", "now", "feed.version", "items[0].count",
               "items[-1].count", "missing"],
    "string": ["locale", "language", "region", "desktop", "session", "server.name", "os.id", "os.version",
               "app.version", "items[1].name", "tags[0]", "tags[-1]", "nothing"],
    "bool": ["flag", "true", "false"],
    "list": ["tags", "server.capabilities", "items", "empty", "items[2].tags"],
    "object": ["server", "os", "app", "feed", "items[0]", "$x"],
}
KINDS = list(NAMED)


class Generator:
    """Expressions of each kind that mostly fit together, with a fifth of the operands of a
    kind drawn at random (what makes pyjexl fail must make the core fail too)."""

    def __init__(self, seed):
        self.random = random.Random(seed)

    def space(self):
        return self.random.choice(["", "", "", " ", " ", "  ", "\t", "\n"])

    def join(self, *parts):
        return self.space().join(parts)

    def chance(self, probability):
        return self.random.random() < probability

    def kind(self, wanted):
        return self.random.choice(KINDS) if self.chance(0.2) else wanted

    def string_literal(self):
        text = self.random.choice(STRINGS)
        if self.chance(0.2):
            text += self.random.choice(ESCAPES)
        quote = self.random.choice(['"', "'"])
        if quote in text.replace("\\" + quote, ""):
            quote = '"' if quote == "'" else "'"
        return quote + text + quote

    def number_literal(self):
        if self.chance(0.6):
            return str(self.random.randint(-3, 12))
        if self.chance(0.7):
            return "%d.%d" % (self.random.randint(-2, 9), self.random.randint(0, 99))
        return str(self.random.choice([0, 1, 2, 63, 64, 100, 2 ** 31, 2 ** 62, 9007199254740993]))

    def of(self, kind, depth):
        """An expression of `kind`, `depth` levels deep at most."""
        if depth <= 0 or self.chance(0.3):
            return self.leaf(kind)
        return getattr(self, kind)(depth - 1)

    def leaf(self, kind):
        if self.chance(0.5):
            return self.random.choice(NAMED[kind])
        return {
            "number": self.number_literal, "string": self.string_literal,
            "bool": lambda: self.random.choice(["true", "false"]), "list": lambda: "[]",
            "object": lambda: "{}",
        }[kind]()

    def pattern(self):
        """A regular expression in the subset regExpMatch takes, as a JEXL string literal."""
        def atom(depth):
            pick = self.random.randrange(10)
            if pick < 4:
                return self.random.choice(["a", "b", "2", "x", "é", "-", "/", "."])
            if pick == 4:
                return self.random.choice(["\\\\d", "\\\\w", "\\\\s", "\\\\.", "\\\\D"])
            if pick == 5:
                return self.random.choice(["[a-c]", "[^0-9]", "[x-z0-2]", "[.]", "[\\\\d.]"])
            if pick == 6 and depth > 0:
                return self.random.choice(["(", "(?:"]) + alternation(depth - 1) + ")"
            return self.random.choice(["a", "1", "0"])

        def quantified(depth):
            text = atom(depth)
            if self.chance(0.4):
                text += self.random.choice(["*", "+", "?", "{2}", "{1,3}", "{0,}"])
                if self.chance(0.3):
                    text += "?"
            return text

        def sequence(depth):
            parts = [quantified(depth) for _ in range(self.random.randint(1, 3))]
            if self.chance(0.2):
                parts.insert(0, self.random.choice(["^", "\\\\b"]))
            if self.chance(0.2):
                parts.append(self.random.choice(["$", "\\\\b"]))
            return "".join(parts)

        def alternation(depth):
            return "|".join(sequence(depth) for _ in range(self.random.choice([1, 1, 2])))

        return "'" + alternation(2) + "'"

    def number(self, depth):
        pick = self.random.randrange(8)
        if pick == 0:
            operator_ = self.random.choice(["+", "-", "*", "/", "//", "%"])
            return self.join(self.of(self.kind("number"), depth), operator_, self.of(self.kind("number"), depth))
        if pick == 1:
            return self.join(self.of(self.kind("number"), depth), "^", self.random.choice(["0", "1", "2", "3", "-1", "0.5"]))
        if pick == 2:
            return self.of(self.kind(self.random.choice(["list", "string", "object"])), depth) + "|length"
        if pick == 3:
            return self.of("string", depth) + "|versionCompare(" + self.string_literal() + ")"
        if pick == 4:
            return self.string_literal() + "|date"
        if pick == 7:
            return self.of("string", depth) + "|regExpMatch(" + self.pattern() + ")|length"
        if pick == 5:
            return self.conditional("number", depth)
        return "(" + self.join("", self.of("number", depth), "") + ")"

    def string(self, depth):
        pick = self.random.randrange(5)
        if pick == 0:
            return self.join(self.of(self.kind("string"), depth), "+", self.of(self.kind("string"), depth))
        if pick == 1:
            return self.join(self.of("string", depth), "*", self.random.choice(["0", "2", "3", "-1", "true"]))
        if pick == 2:
            return self.of(self.kind("string"), depth) + "[" + self.random.choice(["0", "1", "-1", "9", "true"]) + "]"
        if pick == 3:
            return self.conditional("string", depth)
        return self.of(self.kind("object"), depth) + "." + self.random.choice(["name", "id", "version", "missing"])

    def bool(self, depth):
        pick = self.random.randrange(8)
        if pick == 0:
            kind = self.random.choice(["number", "string", "list"])
            operator_ = self.random.choice(["==", "!=", "<", "<=", ">", ">="])
            return self.join(self.of(kind, depth), operator_, self.of(self.kind(kind), depth))
        if pick == 1:
            kind = self.random.choice(KINDS)
            return self.join(self.of(kind, depth), self.random.choice(["==", "!="]), self.of(self.kind(kind), depth))
        if pick == 2:
            return self.join(self.of(self.kind("string"), depth), "in", self.of(self.kind("string"), depth))
        if pick == 3:
            return self.join(self.of(self.kind("string"), depth), "in", self.of(self.kind("list"), depth))
        if pick == 4:
            return self.join("!", self.of(self.kind("bool"), depth))
        if pick == 5:
            return self.join(self.of(self.kind("bool"), depth), self.random.choice(["&&", "||"]),
                             self.of(self.kind("bool"), depth))
        if pick == 6:
            return self.join(self.of(self.kind("list"), depth) + "|length", ">", "0")
        return self.conditional("bool", depth)

    def list(self, depth):
        pick = self.random.randrange(8)
        if pick == 7:
            subject = self.random.choice(
                [self.string_literal(), self.string_literal(), "locale", "os.version", "app.version", "items[2].name"])
            return subject + "|regExpMatch(" + self.pattern() + ")"
        if pick == 0:
            elements = [self.of(self.random.choice(KINDS), depth) for _ in range(self.random.randint(0, 3))]
            return "[" + self.join("", ("," + self.space()).join(elements), "") + "]"
        if pick == 1:
            return self.join(self.of(self.kind("list"), depth), self.random.choice(["+", "intersect"]),
                             self.of(self.kind("list"), depth))
        if pick == 2:
            return self.join(self.of("list", depth), "*", self.random.choice(["0", "2", "-1"]))
        if pick == 3:
            return self.of(self.kind("list"), depth) + "[" + self.join("", self.relative(depth), "") + "]"
        if pick == 4:
            return self.of(self.kind("object"), depth) + "|keys"
        if pick == 5:
            return self.conditional("list", depth)
        return self.of(self.kind("list"), depth) + "[" + self.random.choice(["true", "false"]) + "]"

    def object(self, depth):
        pick = self.random.randrange(3)
        if pick == 0:
            keys = [self.random.choice(["a", "b", "name", "a"]) for _ in range(self.random.randint(0, 3))]
            members = ("," + self.space()).join(
                self.join(key, ":", self.of(self.random.choice(KINDS), depth)) for key in keys)
            return "{" + self.join("", members, "") + "}"
        if pick == 1:
            return self.of(self.kind("list"), depth) + "[" + self.random.choice(["0", "1", "-1", "5"]) + "]"
        return self.conditional("object", depth)

    def relative(self, depth):
        """A filter's condition on each element: `.count > 1`, `.name == 'a'`, `'x' in .tags`."""
        pick = self.random.randrange(5)
        if pick == 0:
            return self.join(".count", self.random.choice([">", "<=", "=="]), self.of("number", depth))
        if pick == 1:
            return self.join(".name", self.random.choice(["==", "!="]), self.of("string", depth))
        if pick == 2:
            return self.join(self.of("string", depth), "in", ".tags")
        if pick == 3:
            return self.join(".tags|length", ">", "0", self.random.choice(["&&", "||"]), ".count", "<", "3")
        return self.join("." + self.random.choice(["name", "count", "tags", "missing"]), "==", self.of(self.kind("string"), depth))

    def conditional(self, kind, depth):
        return self.join(self.of(self.kind("bool"), depth), "?", self.of(kind, depth), ":", self.of(kind, depth))

    def expression(self):
        return self.join("", self.of(self.random.choice(["bool", "bool", "number", "string", "list", "object"]), 4), "")

    def broken(self, text):
        if self.chance(0.3) and len(text) > 1:
            return text[:self.random.randrange(1, len(text))]
        if self.chance(0.6):
            at = self.random.randrange(0, len(text) + 1)
            return text[:at] + self.random.choice(["(", ")", "]", "[", ",", "?", ":", "|", ".", "!", "'", "{", "1 "]) \
                + text[at:]
        return text + self.random.choice([" &&", " ?", ")", " 1 2", ".", "|", "()"])


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    generator = Generator(seed)
    jexl = oracle()
    print(json.dumps(CONTEXT, ensure_ascii=False))
    for _ in range(count):
        text = generator.expression()
        if generator.random.random() < 0.1:
            text = generator.broken(text)
        try:
            parsed = jexl.parse(text)
        except Exception:
            outcome = "parse-error"
        else:
            try:
                outcome = canonical(Evaluator(jexl.config).evaluate(parsed, Context(CONTEXT)))
            except Exception:
                outcome = "error"
        print(json.dumps({"expression": text, "outcome": outcome}, ensure_ascii=False))


if __name__ == "__main__":
    main()
