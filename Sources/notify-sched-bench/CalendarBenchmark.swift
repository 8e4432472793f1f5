import ArgumentParser
import Foundation

/// `notify-sched-bench calendars`: parse + schedule time and peak memory for a real-sized
/// calendar (10^4 events over years of history, a third of them recurring, with exceptions and
/// overrides) and for a 1 MB hostile one, beside Python's `icalendar` reading the same files.
struct CalendarBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendars",
        abstract: "Parse and schedule a real-sized and a hostile calendar; compare with Python.")

    @Option(help: "Events in the real-sized calendar.")
    var events = 10_000

    @Option(help: "Runs per measurement; the best time and its memory are reported.")
    var runs = 3

    @Option(help: "A Python with the icalendar package (scripts/install-deps makes .build-oracles/ical).")
    var python = ".build-oracles/ical/bin/python3"

    @Flag(help: "End with one JSON object of the figures.")
    var json = false

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("calendar.ics").path
        let hostile = folder.appendingPathComponent("hostile.ics").path
        try Data(GeneratedCalendar.realSized(events: events).utf8).write(to: URL(fileURLWithPath: real))
        try Data(GeneratedCalendar.hostile(bytes: 1 << 20).utf8).write(to: URL(fileURLWithPath: hostile))
        let hasPython = FileManager.default.isExecutableFile(atPath: python)
        var figures: [String: Double] = ["events": Double(events)]
        var rows: [[String]] = []
        for (name, path) in [("real-sized", real), ("hostile", hostile)] {
            let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            let ours = try Measurement.best(of: runs) { try Measurement.child(["parse-file", "--calendar", path]) }
            let theirs =
                hasPython
                ? try Measurement.best(of: runs) { try Measurement.icalendar(python: python, path: path) } : nil
            let key = name.replacingOccurrences(of: "-", with: "_")
            figures["\(key)_ms"] = ours.milliseconds
            figures["\(key)_peak_mb"] = ours.peakMegabytes
            figures["\(key)_bytes"] = size
            if let theirs {
                figures["\(key)_python_ms"] = theirs.milliseconds
                figures["\(key)_speedup_vs_python"] = theirs.milliseconds / ours.milliseconds
            }
            rows.append([
                name, String(format: "%.1f MB", size / 1_048_576), String(format: "%.0f ms", ours.milliseconds),
                String(format: "%.0f MB", ours.peakMegabytes),
                theirs.map { String(format: "%.0f ms", $0.milliseconds) } ?? "n/a",
                theirs.map { String(format: "%.2f×", $0.milliseconds / ours.milliseconds) } ?? "n/a",
            ])
        }
        print("best of \(runs) runs. parse + schedule = read the calendar, map every alarm to an entry and plan it")
        print("(its next occurrence), as a daemon's start does; Python = icalendar's Calendar.from_ical alone.")
        print(
            Table.render(
                header: ["calendar", "size", "parse + schedule", "peak RSS", "Python from_ical", "vs Python"],
                rows: rows))
        if json {
            let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

}

extension Measurement {
    /// Times `icalendar.Calendar.from_ical` on `path` in a fresh interpreter.
    static func icalendar(python: String, path: String) throws -> Measurement {
        let script = """
            import icalendar, sys, time
            data = open(sys.argv[1], 'rb').read()
            start = time.perf_counter()
            icalendar.Calendar.from_ical(data)
            elapsed = (time.perf_counter() - start) * 1000
            peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:'))
            print(elapsed, peak)
            """
        return try run(executable: python, arguments: ["-c", script, path])
    }
}

/// Calendars for the benchmark, the same for the same arguments.
enum GeneratedCalendar {
    /// `events` events from five years ago to a year ahead: two thirds happen once, the rest
    /// recur weekly, monthly or yearly (some until a date, some a number of times), with an
    /// exception or a moved instance here and there; each has an alarm, a place and a description.
    static func realSized(events: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify-sched//bench//EN"]
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"]
        for index in 0..<events {
            let dayOffset = (index * 7919) % (6 * 365)
            let date = Self.date(daysAfter2021: dayOffset)
            let hour = 8 + index % 10
            let start = "\(date)T\(two(hour))\(two((index * 15) % 60))00"
            let zone = zones[index % zones.count]
            lines += [
                "BEGIN:VEVENT", "UID:event-\(index)@bench.example.org", "DTSTAMP:20260101T000000Z",
                "DTSTART;TZID=\(zone):\(start)", "DURATION:PT\(30 + index % 4 * 15)M",
                "SUMMARY:Meeting \(index) about the quarterly plan",
                "LOCATION:Room \(index % 40), https://meet.example.org/room-\(index % 40)",
                "DESCRIPTION:Agenda: review of item \(index)\\, decisions\\, next steps. Bring your notes.",
            ]
            switch index % 6 {
            case 0: lines.append("RRULE:FREQ=WEEKLY;BYDAY=MO,WE")
            case 1: lines.append("RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=24")
            case 2: lines.append("RRULE:FREQ=YEARLY;UNTIL=20300101T000000Z")
            default: break
            }
            if index % 6 == 0 {
                lines.append("EXDATE;TZID=\(zone):\(Self.date(daysAfter2021: dayOffset + 14))T\(start.suffix(6))")
            }
            lines += [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// About `bytes` of what a hostile calendar holds: rules that never recur or recur every
    /// second, the most RDATEs an event may list, repeats beyond the bound, long descriptions.
    static func hostile(bytes: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify-sched//hostile//EN"]
        var size = 0
        var index = 0
        while size < bytes {
            var event = ["BEGIN:VEVENT", "UID:hostile-\(index)", "DTSTART:20260101T000000Z"]
            switch index % 5 {
            case 0: event.append("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")
            case 1: event.append("RRULE:FREQ=SECONDLY;COUNT=100000")
            case 2:
                event.append(
                    "RDATE:"
                        + (0..<2_000).map { "2027\(two(1 + $0 % 12))\(two(1 + $0 % 28))T000000Z" }.joined(
                            separator: ","))
            case 3: event.append("RRULE:FREQ=MINUTELY;BYSETPOS=-1;BYSECOND=1,2,3;BYDAY=MO")
            default: event.append("DESCRIPTION:" + String(repeating: "x", count: 60_000))
            }
            event += [
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-P1W", "REPEAT:1000000", "DURATION:PT1S", "END:VALARM",
                "END:VEVENT",
            ]
            size += event.reduce(0) { $0 + $1.utf8.count + 2 }
            lines += event
            index += 1
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func date(daysAfter2021 days: Int) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let origin = utc.date(from: DateComponents(year: 2021, month: 1, day: 1))!
        let date = utc.date(byAdding: .day, value: days, to: origin)!
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return "\(parts.year!)\(two(parts.month!))\(two(parts.day!))"
    }
}
