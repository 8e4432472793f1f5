import ArgumentParser
import Foundation

/// `notify-sched-bench feeds`: parse time, and parse + schedule time and peak memory, for a
/// generated feed in JSON and in XML plist, beside Python's `json` and `plistlib` on the same files.
///
/// Every measurement runs in a child process of its own, and reads its own peak RSS (`VmHWM`),
/// so each is that parse's alone.
struct FeedBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds", abstract: "Parse and schedule a generated feed; compare with Python.")

    @Option(help: "Entries in the generated feed.")
    var entries = 100_000

    @Option(help: "Runs per measurement; the best time and its memory are reported.")
    var runs = 3

    @Flag(help: "End with one JSON object of the figures.")
    var json = false

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = GeneratedFeed(entries: entries)
        let jsonPath = folder.appendingPathComponent("feed.json").path
        let plistPath = folder.appendingPathComponent("feed.plist").path
        try Data(feed.json().utf8).write(to: URL(fileURLWithPath: jsonPath))
        try Data(feed.xmlPropertyList().utf8).write(to: URL(fileURLWithPath: plistPath))

        var figures: [String: Double] = ["entries": Double(entries)]
        var rows: [[String]] = []
        for (format, path, pythonModule) in [("json", jsonPath, "json"), ("xml-plist", plistPath, "plistlib")] {
            let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            let document = try Measurement.best(of: runs) {
                try Measurement.child(["parse-file", "--document-only", path])
            }
            let schedule = try Measurement.best(of: runs) { try Measurement.child(["parse-file", path]) }
            let python = try Measurement.best(of: runs) { try Measurement.python(module: pythonModule, path: path) }
            let key = format.replacingOccurrences(of: "-", with: "_")
            figures["\(key)_document_ms"] = document.milliseconds
            figures["\(key)_ms"] = schedule.milliseconds
            figures["\(key)_peak_mb"] = schedule.peakMegabytes
            figures["\(key)_python_ms"] = python.milliseconds
            figures["\(key)_python_peak_mb"] = python.peakMegabytes
            figures["\(key)_parse_speedup_vs_python"] = python.milliseconds / document.milliseconds
            figures["\(key)_schedule_speedup_vs_python"] = python.milliseconds / schedule.milliseconds
            rows.append([
                format, String(format: "%.1f MB", size / 1_048_576),
                String(format: "%.0f ms", python.milliseconds), String(format: "%.0f MB", python.peakMegabytes),
                String(format: "%.0f ms", document.milliseconds),
                String(format: "%.2f×", python.milliseconds / document.milliseconds),
                String(format: "%.0f ms", schedule.milliseconds), String(format: "%.0f MB", schedule.peakMegabytes),
                String(format: "%.2f×", python.milliseconds / schedule.milliseconds),
            ])
        }
        print("\(entries) entries, best of \(runs) runs. parse = read the document tree (what Python's load does);")
        print(
            "parse + schedule = also map every entry to the schedule, validating it, and plan it (its next occurrence)."
        )
        print(
            Table.render(
                header: [
                    "format", "size", "Python load", "Python RSS", "parse", "vs Python", "parse + schedule", "peak RSS",
                    "vs Python",
                ], rows: rows))
        if json {
            let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

}

/// A timing and the peak resident memory of the process that did the work.
struct Measurement {
    var milliseconds: Double
    var peakMegabytes: Double

    /// The fastest of `runs` measurements, with its memory.
    static func best(of runs: Int, _ measure: () throws -> Measurement) throws -> Measurement {
        var results: [Measurement] = []
        for _ in 0..<max(1, runs) { results.append(try measure()) }
        return results.min { $0.milliseconds < $1.milliseconds } ?? results[0]
    }

    /// Runs this benchmark executable with `arguments`; the child prints `milliseconds peak-kilobytes`.
    static func child(_ arguments: [String]) throws -> Measurement {
        try run(executable: CommandLine.arguments[0], arguments: arguments)
    }

    /// Times Python's `module.load` on `path` in a fresh interpreter, Debian's `/usr/bin/python3`
    /// (the one a user of the desktop has, whatever else is first on `PATH`); its peak RSS is
    /// its own `VmHWM`, as `parse-file` reads it.
    static func python(module: String, path: String) throws -> Measurement {
        let script = """
            import \(module), sys, time
            start = time.perf_counter()
            with open(sys.argv[1], 'rb') as f: \(module).load(f)
            elapsed = (time.perf_counter() - start) * 1000
            peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:'))
            print(elapsed, peak)
            """
        return try run(executable: "/usr/bin/python3", arguments: ["-c", script, path])
    }

    static func run(executable: String, arguments: [String]) throws -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
            Double($0)
        }
        guard process.terminationStatus == 0, fields.count == 2 else {
            throw ValidationError(
                "\(executable) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return Measurement(milliseconds: fields[0], peakMegabytes: fields[1] / 1024)
    }
}

/// Plain aligned text tables for benchmark output.
enum Table {
    static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in cell.padding(toLength: widths[column], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
