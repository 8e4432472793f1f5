import Foundation

/// Finds the demo feeds shipped in `share/`: the schedule notify-sched uses when nothing is configured.
public enum DemoFeeds {
    /// The folder holding the demo feeds, searched in this order: `$NOTIFY_SCHED_DATA_DIR/feeds`,
    /// `<prefix>/share/notify-sched/feeds` beside the installed executable, each of
    /// `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share` by default) + `/notify-sched/feeds`,
    /// and `share/feeds` of the source tree the executable was built in.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates: [String] = []
        if let dataDir = environment["NOTIFY_SCHED_DATA_DIR"], !dataDir.isEmpty {
            candidates.append(dataDir + "/feeds")
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let binDir = executable.deletingLastPathComponent()
        candidates.append(binDir.deletingLastPathComponent().path + "/share/notify-sched/feeds")
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        candidates += dataDirs.split(separator: ":").map { "\($0)/notify-sched/feeds" }
        // A build tree: <repo>/.build/<triple>/<configuration>/notify-sched.
        candidates.append(
            binDir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
                + "/share/feeds")
        return candidates.first { isDirectory($0) }
    }

    /// The demo feed files, sorted by name.
    public static func files(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        guard let directory = directory(environment: environment),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return [] }
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".sig") }.sorted().map { directory + "/" + $0 }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
