import ArgumentParser
import Foundation

/// `notify-sched-bench preview`: `notify-sched preview --out` on a feed of 1 000 varied entries
/// (calendars, repeats and one-shots, in zones, with caps, a group and targeting), 30 days,
/// beside `notify-sched list` computing the same entries' occurrences for the same window; with
/// `--popups`, also the demo feeds' popups rendered on every notification server installed.
struct PreviewBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Time notify-sched preview --out on a 1 000-entry feed; compare with list on the same feed.")

    @Option(help: "Entries in the feed.")
    var entries = 1_000

    @Option(help: "Runs per measurement; the best is reported.")
    var runs = 3

    @Option(help: "The notify-sched executable (default: the one beside this benchmark).")
    var executable: String?

    @Flag(help: "Also render the demo feeds' popups on every notification server installed (once).")
    var popups = false

    func run() throws {
        let program =
            executable
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("notify-sched").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = folder.appendingPathComponent("feed.json").path
        try Data(Self.feed(entries: entries).utf8).write(to: URL(fileURLWithPath: feed))
        let from = "2026-10-15T00:00:00Z"
        let out = folder.appendingPathComponent("out").path
        let preview = try Measurement.best(of: runs) {
            try Measurement.process(
                program, ["preview", feed, "--from", from, "--days", "30", "--zone", "Europe/Berlin", "--out", out])
        }
        let list = try Measurement.best(of: runs) {
            try Measurement.process(
                program, ["list", "--feed", feed, "--now", from, "--upcoming", "1000", "--limit", "0", "--json"],
                environment: ["TZ": "Europe/Berlin"])
        }
        let occurrences = try Self.occurrences(program: program, feed: feed, from: from)
        let size = { (name: String) in
            (try? FileManager.default.attributesOfItem(atPath: "\(out)/\(name)")[.size] as? Int) ?? 0
        }
        print("best of \(runs) runs, \(entries) entries, 30 days in Europe/Berlin (the change to winter time in it),")
        print("\(occurrences) occurrences; preview = the whole command with --out (validate, the core in virtual")
        print("time, the table, timeline.svg and timeline.html); list = each entry's occurrences for the window.")
        print(
            Table.render(
                header: ["command", "wall time", "peak RSS", "vs list", "target"],
                rows: [
                    [
                        "preview --out", String(format: "%.0f ms", preview.milliseconds),
                        String(format: "%.0f MB", preview.peakMegabytes),
                        String(format: "%.2f×", preview.milliseconds / list.milliseconds), "≤ 5 000 ms",
                    ],
                    [
                        "list --upcoming 1000", String(format: "%.0f ms", list.milliseconds),
                        String(format: "%.0f MB", list.peakMegabytes), "1×", "",
                    ],
                ]))
        print("timeline.svg \(size("timeline.svg") / 1024) KB, timeline.html \(size("timeline.html") / 1024) KB")
        guard popups else { return }
        let feeds = ["demo.json", "demo-zbim.json", "demo-inotify.plist", "demo-ismartnews.plist"].map {
            "share/feeds/\($0)"
        }
        let rendered = try Measurement.process(
            program, ["preview"] + feeds + ["--days", "1", "--out", out, "--servers", "installed"])
        let report =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(out)/popups/results.json"))) as? [String: Any]
        let servers = (report?["servers"] as? [[String: Any]])?.compactMap { $0["server"] as? String } ?? []
        let count =
            (try? JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(out)/popups/popups.json"))) as? [String: [Any]])?[
                "popups"]?
            .count ?? 0
        print(
            "popups of the demo feeds: \(count) on \(servers.count) servers (\(servers.joined(separator: ", "))) in "
                + String(format: "%.1f s", rendered.milliseconds / 1000) + " (target ≤ 60 s)")
    }

    /// How many occurrences the preview's timeline holds.
    private static func occurrences(program: String, feed: String, from: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["preview", feed, "--from", from, "--days", "30", "--zone", "Europe/Berlin", "--json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let rows = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return rows.count { $0["at"] is String }
    }

    /// A feed of `entries` entries of eight shapes, most of them due in the window, every one with
    /// a body and an action.
    static func feed(entries: Int) -> String {
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Sydney"]
        let rows = (0..<entries).map { index -> String in
            var members = [
                #""id": "entry-\#(index)""#, #""title": "Reminder number \#(index)""#,
                #""body": "This is the body of generated entry \#(index), long enough to be realistic.""#,
                #""action": {"label": "Open", "url": "https://example.org/items/\#(index)"}"#,
            ]
            let minute = index % 60 < 10 ? "0\(index % 60)" : "\(index % 60)"
            switch index % 8 {
            case 0: members.append(#""calendar": "*-*-* \#(index % 24):\#(minute)""#)
            case 1: members.append(#""calendar": "Mon..Fri 09:\#(minute) \#(zones[index % zones.count])""#)
            case 2:
                members.append(#""calendar": "hourly""#)
                members.append(#""until": "2026-10-18T00:00:00Z""#)
            case 3:
                members.append(#""fireDate": "2026-10-0\#(1 + index % 9)T10:\#(minute):00", "repeatInterval": "week""#)
            case 4: members.append(#""fireDate": "2026-10-\#(16 + index % 12)T1\#(index % 10):\#(minute):00Z""#)
            case 5: members.append(#""fireDate": "2026-09-2\#(index % 9)T08:00:00", "repeatInterval": "month""#)
            case 6:
                members.append(#""calendar": "*-*-* 08,12,18:\#(minute)""#)
                members.append(#""groups": ["digest"]"#)
            default:
                members.append(#""calendar": "daily""#)
                members.append(#""targeting": "'sports' in tags""#)
                members.append(#""frequency": {"custom": [{"period": "7d", "cap": 2}]}"#)
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
        return
            #"{"groups": [{"id": "digest", "frequency": {"custom": [{"period": "1d", "cap": 5}]}}], "notifications": [\#n"#
            + rows.joined(separator: ",\n") + "\n]}\n"
    }
}

extension Measurement {
    /// Runs `executable` with `arguments`, its output discarded: its wall time and, through
    /// `/usr/bin/time`, its peak resident memory.
    static func process(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Measurement
    {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-time-\(getpid())")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report.path, executable] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitUntilExit()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        let kilobytes =
            Double(
                (try? String(contentsOf: report, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                    ?? "") ?? 0
        guard process.terminationStatus == 0 else {
            throw ValidationError(
                "\(executable) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return Measurement(milliseconds: elapsed, peakMegabytes: kilobytes / 1024)
    }
}
