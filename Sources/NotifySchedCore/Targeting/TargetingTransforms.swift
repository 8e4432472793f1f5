/// The transforms a targeting expression may apply (`value|name(arguments)`), after Firefox's
/// Messaging System's: `length`, `keys`, `versionCompare`, `date` and `regExpMatch`.
enum TargetingTransforms {
    /// Their names.
    static let names = ["length", "keys", "versionCompare", "date", "regExpMatch"]

    static func apply(
        _ name: String, to subject: TargetingValue, _ arguments: [TargetingValue]
    ) throws(TargetingFailure) -> TargetingValue {
        switch (name, arguments.count) {
        case ("length", 0):
            switch subject {
            case .string(let text): return .integer(Int64(text.unicodeScalars.count))
            case .array(let values): return .integer(Int64(values.count))
            case .object(let members): return .integer(Int64(members.count))
            default: throw TargetingFailure("\(subject.kindName) has no length")
            }
        case ("keys", 0):
            guard case .object(let members) = subject else { throw TargetingFailure("\(subject.kindName) has no keys") }
            return .array(members.map { .string($0.key) })
        case ("versionCompare", 1):
            guard case .string(let version) = subject, case .string(let other) = arguments[0] else {
                throw TargetingFailure("versionCompare takes two strings")
            }
            return .integer(Int64(compareVersions(version, other)))
        case ("regExpMatch", 1):
            guard case .string(let text) = subject, case .string(let pattern) = arguments[0] else {
                throw TargetingFailure("regExpMatch takes a string and a pattern")
            }
            guard let match = try TargetingRegex(pattern).firstMatch(in: Array(text.unicodeScalars)) else {
                return .null
            }
            return .array(match.map { $0.map(TargetingValue.string) ?? .null })
        case ("date", 0):
            guard case .string(let text) = subject, let milliseconds = millisecondsSinceEpoch(text) else {
                throw TargetingFailure("date takes a date (2027-03-01) or a time with its offset (RFC 3339)")
            }
            return .integer(milliseconds)
        default:
            throw TargetingFailure(
                names.contains(name)
                    ? "\(name) does not take \(arguments.count) argument\(arguments.count == 1 ? "" : "s")"
                    : "there is no transform \(name)")
        }
    }

    /// -1, 0 or 1 as `version` comes before, is, or comes after `other`: dot-separated parts
    /// compared in turn, as whole numbers when both are digits, else by code points; a missing
    /// part is `0` (`2.0` is `2`, `2.10` comes after `2.9`, `2.0b1` before `2.0c`).
    static func compareVersions(_ version: String, _ other: String) -> Int {
        let (left, right) = (parts(of: version), parts(of: other))
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : "0"
            let b = index < right.count ? right[index] : "0"
            let order = compareParts(a, b)
            if order != 0 { return order }
        }
        return 0
    }

    private static func parts(of version: String) -> [Substring] {
        version.split(separator: ".", omittingEmptySubsequences: false)
    }

    private static func compareParts(_ a: Substring, _ b: Substring) -> Int {
        let isDigits = { (part: Substring) in
            !part.isEmpty && part.unicodeScalars.allSatisfy(\.isASCIIDigit)
        }
        if isDigits(a), isDigits(b) {
            let (x, y) = (a.drop { $0 == "0" }, b.drop { $0 == "0" })
            if x.count != y.count { return x.count < y.count ? -1 : 1 }
            return x == y
                ? 0
                : (Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value))
                    ? -1 : 1)
        }
        let (x, y) = (Array(a.unicodeScalars.map(\.value)), Array(b.unicodeScalars.map(\.value)))
        return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
    }

    /// The milliseconds since 1970 of a date (`YYYY-MM-DD`, at 00:00 UTC) or a time with its
    /// offset (`YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM)`, the fraction cut to milliseconds);
    /// nil for anything else.
    static func millisecondsSinceEpoch(_ text: String) -> Int64? {
        let characters = Array(text.unicodeScalars)
        var position = 0
        func number(_ count: Int) -> Int64? {
            guard position + count <= characters.count else { return nil }
            var value: Int64 = 0
            for character in characters[position..<position + count] {
                guard character.isASCIIDigit else { return nil }
                value = value * 10 + Int64(character.value - 48)
            }
            position += count
            return value
        }
        func take(_ character: Unicode.Scalar) -> Bool {
            guard position < characters.count, characters[position] == character else { return false }
            position += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2),
            year >= 1, (1...12).contains(month),
            (1...Int64(CivilDateTime.daysInMonth(year: Int(year), month: Int(month)))).contains(day)
        else { return nil }
        let days = CivilDateTime.daysSinceEpoch(year: year, month: month, day: day)
        guard position < characters.count else { return days * 86_400_000 }
        guard take("T"), let hour = number(2), take(":"), let minute = number(2), hour < 24, minute < 60 else {
            return nil
        }
        var seconds: Int64 = 0
        var milliseconds: Int64 = 0
        if take(":") {
            guard let value = number(2), value < 60 else { return nil }
            seconds = value
            if take(".") {
                let start = position
                while position < characters.count, characters[position].isASCIIDigit { position += 1 }
                guard position > start else { return nil }
                let digits = characters[start..<min(position, start + 3)].map { Int64($0.value - 48) }
                milliseconds = digits.reduce(0) { $0 * 10 + $1 } * [100, 10, 1][digits.count - 1]
            }
        }
        var offset: Int64 = 0
        if !take("Z") {
            let sign: Int64
            if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
            guard let hours = number(2), take(":"), let minutes = number(2), hours < 24, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 60 + minutes) * 60
        }
        guard position == characters.count else { return nil }
        return ((days * 86_400 + hour * 3600 + minute * 60 + seconds) - offset) * 1000 + milliseconds
    }
}
