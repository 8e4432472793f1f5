import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `preview --servers`: each distinct popup of the feeds shown on real notification servers by
/// the desktop harness's renderer (`preview-popups`, installed beside the program), which saves
/// a picture per popup and server, a contact sheet per server, and what each server left out.
struct PopupRendering {
    /// One popup to render: the first entry with its content, dialect and category.
    struct Popup: Encodable {
        /// A file name: its place and the entry's id, `01-welcome`.
        var name: String
        var feed: String
        var entry: String
        var title: String
        /// How many buttons it asks for, before any server's limit.
        var buttons: Int
        var markup: Bool
        var icon: String?
    }

    /// The servers the renderer knows, as `--servers` names them.
    static let knownServers = [
        "notification-daemon", "dunst", "xfce4-notifyd", "mate-notification-daemon", "lxqt-notificationd",
        "gnome-shell", "plasma-workspace",
    ]

    /// The names in `--servers`: none for every one installed (`installed`).
    static func serverNames(_ text: String) -> [String] {
        text == "installed"
            ? [] : text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    let popups: [Popup]
    /// The servers the renderer is to use: none for every one installed.
    let serverNames: [String]
    /// What `show-popup` needs besides the feed and the entry to read the feed as the preview
    /// did: the feed options and the locale.
    let arguments: [String]

    init(schedules: [Schedule], servers: String, arguments: [String]) {
        self.arguments = arguments
        let policy = HandlingPolicy(catalog: Messages.catalog)
        var seen: Set<DistinctPopup> = []
        var popups: [Popup] = []
        for schedule in schedules {
            for entry in schedule.entries
            where seen.insert(DistinctPopup(dialect: entry.dialect, content: entry.content, category: entry.category))
                .inserted
            {
                let occurrence = DeliveredOccurrence(
                    id: entry.id, entry: entry, source: schedule.source, deliveredAt: Instant(microseconds: 0))
                let place = popups.count + 1
                let name = (place < 10 ? "0\(place)" : "\(place)") + "-" + Self.fileName(entry.id)
                popups.append(
                    Popup(
                        name: name, feed: Self.absolute(schedule.source), entry: entry.id, title: entry.content.title,
                        buttons: policy.buttons(for: occurrence).count, markup: entry.content.markup,
                        icon: entry.content.icon))
            }
        }
        self.popups = popups
        serverNames = Self.serverNames(servers)
    }

    /// What the renderer reads: the popups, and the arguments `show-popup` takes after the feed
    /// and the entry.
    private struct Manifest: Encodable {
        var popups: [Popup]
        var arguments: [String]
    }

    /// What makes two popups the same picture.
    private struct DistinctPopup: Hashable {
        var dialect: FeedDialect
        var content: NotificationContent
        var category: String?
    }

    /// Writes the manifest into `folder`/popups and runs the renderer there; its lines go to
    /// standard error.
    ///
    /// - Throws: `CommandError` when the renderer cannot be found or run, or a popup was not shown.
    func run(into folder: String) throws {
        let output = (folder as NSString).appendingPathComponent("popups")
        let manifest = (output as NSString).appendingPathComponent("popups.json")
        let renderer = try Self.renderer()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try AtomicFile.createFolder(output)
            try AtomicFile.write(
                Array(try encoder.encode(Manifest(popups: popups, arguments: arguments))), to: manifest)
        } catch let error as PlatformError {
            throw CommandError(.failure, "notify-sched: --out: \(error.message)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: renderer)
        process.arguments =
            ["--binary", Self.executable, "--manifest", manifest, "--output", output]
            + serverNames.flatMap { ["--server", $0] }
        // The renderer's report goes where this command's other notes go, off the table or JSON.
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw CommandError(
                .failure, "notify-sched: --servers: cannot run \(renderer): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 1:
            throw CommandError(
                .failure, "notify-sched: --servers: not every popup was shown; see \(output)/results.json")
        default:
            throw CommandError(.failure, [])
        }
    }

    /// This program's own path, which the renderer runs as `show-popup`.
    private static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The renderer: `NOTIFY_SCHED_PREVIEW_POPUPS`, else the one installed beside the program
    /// (`PREFIX/lib/notify-sched`), else the repository's, for a program built in it.
    private static func renderer() throws(CommandError) -> String {
        let folder = (executable as NSString).deletingLastPathComponent
        let candidates = [
            ProcessInfo.processInfo.environment["NOTIFY_SCHED_PREVIEW_POPUPS"],
            (folder as NSString).appendingPathComponent("../lib/notify-sched/preview-popups"),
            (folder as NSString).appendingPathComponent("../../../scripts/preview-popups"),
        ].compactMap { $0 }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw CommandError(
                .failure,
                "notify-sched: --servers: the popup renderer (preview-popups) is not installed beside "
                    + "notify-sched; make install puts it in PREFIX/lib/notify-sched")
        }
        return (found as NSString).standardizingPath
    }

    /// `path` from the current folder, as the renderer's `show-popup` runs elsewhere; a URL as it is.
    private static func absolute(_ path: String) -> String {
        guard !path.contains("://"), !path.hasPrefix("/") else { return path }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    /// `id` with every character but letters, digits, `-` and `_` as `_`, at most 40 of them.
    private static func fileName(_ id: String) -> String {
        String(
            id.unicodeScalars.prefix(40).map {
                ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
                    ? Character($0) : "_"
            })
    }
}
