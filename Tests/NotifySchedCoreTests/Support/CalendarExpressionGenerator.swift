import NotifySchedCore

/// Seeded random calendar expressions over systemd.time(7)'s grammar, mostly valid, some not.
enum CalendarExpressionGenerator {
    static let weekdayNames = [
        "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Monday", "tuesday", "WEDNESDAY", "Thursday", "friday",
        "Saturday", "sunday",
    ]
    static let shorthands = [
        "minutely", "hourly", "daily", "weekly", "monthly", "yearly", "annually", "quarterly", "semiannually",
        "semi-annually", "Daily", "HOURLY",
    ]
    static let zoneNames = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Etc/GMT-3", "Nowhere/Zone",
    ]

    static func expression(using generator: inout SplitMix64, abbreviations: [String]) -> String {
        var text: String
        switch generator.next() % 20 {
        case 0, 1:
            text = pick(shorthands, &generator)
        case 2:
            text = "@\(1_700_000_000 + Int(generator.next() % 200_000_000))"
        default:
            var parts: [String] = []
            if generator.next() % 3 == 0 { parts.append(weekdays(&generator)) }
            switch generator.next() % 4 {
            case 0: break
            case 1: parts.append("\(field(&generator, 1...12, width: 2))-\(field(&generator, 1...31, width: 2))")
            case 2:
                parts.append(
                    "\(field(&generator, 2025...2031, width: 4))-\(field(&generator, 1...12, width: 2))~\(field(&generator, 1...7, width: 2))"
                )
            default:
                parts.append(
                    "\(field(&generator, 2025...2031, width: 4))-\(field(&generator, 1...12, width: 2))-\(field(&generator, 1...31, width: 2))"
                )
            }
            switch generator.next() % 4 {
            case 0 where !parts.isEmpty: break
            case 1: parts.append("\(field(&generator, 0...23, width: 2)):\(field(&generator, 0...59, width: 2))")
            default:
                parts.append(
                    "\(field(&generator, 0...23, width: 2)):\(field(&generator, 0...59, width: 2)):\(seconds(&generator))"
                )
            }
            text = parts.joined(separator: " ")
        }
        switch generator.next() % 12 {
        case 0: text += " UTC"
        case 1: text += " " + pick(zoneNames, &generator)
        case 2 where !abbreviations.isEmpty: text += " " + pick(abbreviations, &generator)
        default: break
        }
        return text
    }

    static func pick(_ items: [String], _ generator: inout SplitMix64) -> String {
        items[Int(generator.next() % UInt64(items.count))]
    }

    static func number(_ range: ClosedRange<Int>, _ generator: inout SplitMix64) -> Int {
        range.lowerBound + Int(generator.next() % UInt64(range.count))
    }

    static func weekdays(_ generator: inout SplitMix64) -> String {
        switch generator.next() % 4 {
        case 0: return pick(weekdayNames, &generator)
        case 1:
            let a = number(0...6, &generator)
            let b = number(a...6, &generator)
            return "\(weekdayNames[a])\(generator.next() % 4 == 0 ? "-" : "..")\(weekdayNames[b])"
        default:
            let count = number(1...3, &generator)
            return (0..<count).map { _ in pick(weekdayNames, &generator) }.joined(separator: ",")
        }
    }

    /// `*`, a value, a list, a range, a repetition; occasionally out of range.
    static func field(_ generator: inout SplitMix64, _ range: ClosedRange<Int>, width: Int) -> String {
        let wide = (range.lowerBound - 1)...(range.upperBound + 1)
        func value() -> String {
            let n = number(generator.next() % 25 == 0 ? wide : range, &generator)
            let text = String(max(n, 0))
            return generator.next() % 2 == 0 ? String(repeating: "0", count: max(0, width - text.count)) + text : text
        }
        switch generator.next() % 8 {
        case 0, 1: return "*"
        case 2: return value()
        case 3: return (0..<number(2...3, &generator)).map { _ in value() }.joined(separator: ",")
        case 4:
            let a = number(range, &generator)
            let b = number(a...range.upperBound, &generator)
            return "\(a)..\(b)"
        case 5:
            let a = number(range, &generator)
            let b = number(a...range.upperBound, &generator)
            return "\(a)..\(b)/\(number(1...4, &generator))"
        default:
            return "\(value())/\(number(1...(max(1, range.count / 3)), &generator))"
        }
    }

    static func seconds(_ generator: inout SplitMix64) -> String {
        switch generator.next() % 8 {
        case 0: return "*"
        case 1: return "\(number(0...59, &generator)).\(number(1...999_999, &generator))"
        case 2: return "0/0.\(number(1...9, &generator))\(generator.next() % 2 == 0 ? "5" : "")"
        case 3: return "\(number(0...30, &generator))..\(number(31...59, &generator))/\(number(1...9, &generator)).5"
        default: return field(&generator, 0...59, width: 2)
        }
    }
}
