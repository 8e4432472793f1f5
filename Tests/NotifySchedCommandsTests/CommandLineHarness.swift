import Foundation
import Glibc

/// Runs the built `notify-sched` executable the way a user does, capturing what it prints.
struct CommandLineHarness {
    struct Outcome: Equatable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The repository root, found from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The executable built beside the test bundle.
    static let executable: URL = {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [products, products.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("notify-sched")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return repository.appendingPathComponent(".build/debug/notify-sched")
    }()

    /// A path in the shipped `share/feeds`.
    static func demoFeed(_ name: String) -> String {
        repository.appendingPathComponent("share/feeds/\(name)").path
    }

    /// Runs `notify-sched arguments…` with `TZ` and a C locale unless `environment` says otherwise.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        try start(arguments, environment: environment).finish()
    }

    /// Starts `notify-sched arguments…` like `run`, without waiting for it to end; the
    /// variables named in `unsetting` (such as `TZ`) are left out of its environment. It runs in
    /// `directory` when one is given. With `journalStream`, its `JOURNAL_STREAM` names the
    /// pipe its standard error goes to, as systemd names the journal's stream.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], unsetting: Set<String> = [],
        in directory: URL? = nil, journalStream: Bool = false
    ) throws -> RunningCommand {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var merged = ["TZ": "UTC", "LANG": "C", "PATH": "/usr/bin:/bin"]
        merged.merge(environment) { $1 }
        let command = RunningCommand(process: process)
        if journalStream { merged["JOURNAL_STREAM"] = command.standardErrorStream }
        process.environment = merged.filter { !unsetting.contains($0.key) }
        try process.run()
        return command
    }

    /// A `notify-sched` that is still running.
    final class RunningCommand {
        let process: Process
        private let output = Pipe()
        private let error = Pipe()
        /// What `waitForStandardError(containing:)` read so far.
        private var errorSoFar: [UInt8] = []

        init(process: Process) {
            self.process = process
            process.standardOutput = output
            process.standardError = error
        }

        /// `DEVICE:INODE` of the pipe its standard error goes to.
        var standardErrorStream: String {
            var status = stat()
            fstat(error.fileHandleForWriting.fileDescriptor, &status)
            return "\(status.st_dev):\(status.st_ino)"
        }

        /// Waits for it to end and returns what it printed.
        func finish() -> Outcome {
            // Read both pipes before waiting, so a large output cannot fill a pipe and block the child.
            let outData = output.fileHandleForReading.readDataToEndOfFile()
            let errData = errorSoFar + error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(
                status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                standardError: String(decoding: errData, as: UTF8.self))
        }

        /// Waits up to 20 s until it printed `text` to standard error (which `finish()` still returns).
        func waitForStandardError(containing text: String) throws {
            let descriptor = error.fileHandleForReading.fileDescriptor
            let deadline = Date().addingTimeInterval(20)
            while !String(decoding: errorSoFar, as: UTF8.self).contains(text) {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let remaining = Int32(deadline.timeIntervalSinceNow * 1000)
                guard remaining > 0, poll(&request, 1, remaining) > 0 else {
                    throw BusError("no \"\(text)\" on standard error within 20 s")
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { throw BusError("it ended without printing \"\(text)\"") }
                errorSoFar += buffer[0..<count]
            }
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "feed.json") throws -> String {
        try temporaryFile(Data(text.utf8), name: name)
    }

    static func temporaryFile(_ data: Data, name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }
}
