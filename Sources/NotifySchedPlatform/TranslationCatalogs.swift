import Foundation
import NotifySchedCore

/// Finds and reads the translation catalog for the user's language.
///
/// glibc's `gettext` translates nothing when the user's locale is not generated on the machine
/// (`setlocale` fails and the locale stays `C`), so notify-sched reads its catalogs itself:
/// `LANG=de_DE.UTF-8` gives German labels on any machine.
public enum TranslationCatalogs {
    /// The gettext domain: the catalogs are `<lang>/LC_MESSAGES/notify-sched.mo`.
    public static let domain = "notify-sched"

    /// Where the catalogs are.
    public enum Location: Equatable, Sendable {
        /// Compiled catalogs in a locale folder: `<path>/<lang>/LC_MESSAGES/notify-sched.mo`.
        case compiled(String)
        /// The `.po` files of a source tree: `<path>/<lang>.po`.
        case sources(String)

        /// The file that holds the catalog `name` (`de_DE`, `de`) here.
        func file(for name: String) -> String {
            switch self {
            case .compiled(let folder): "\(folder)/\(name)/LC_MESSAGES/\(TranslationCatalogs.domain).mo"
            case .sources(let folder): "\(folder)/\(name).po"
            }
        }
    }

    /// The catalog for the user's languages (`LanguagePreference.preferred(in:)`): the first
    /// language with a catalog that reads, English for English, and English when none has one.
    ///
    /// A catalog that cannot be read is passed over, as gettext passes over a missing one.
    public static func catalog(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: String? = executablePath()
    ) -> MessageCatalog {
        guard let location = location(environment: environment, executable: executable) else { return .english }
        for preference in LanguagePreference.preferred(in: environment) {
            // English is the language of the messages themselves.
            if preference.language == "en" { return .english }
            for name in preference.catalogNames {
                if let catalog = try? read(location.file(for: name), from: location) { return catalog }
            }
        }
        return .english
    }

    /// Where the catalogs are, the first of: `$NOTIFY_SCHED_LOCALEDIR`; `<prefix>/share/locale`
    /// beside the installed executable (`<prefix>/bin/notify-sched`); the `po/` folder of the
    /// source tree an executable in its build folder (`<tree>/.build/<triple>/debug`) was built from.
    public static func location(environment: [String: String], executable: String?) -> Location? {
        if let folder = environment["NOTIFY_SCHED_LOCALEDIR"], !folder.isEmpty { return .compiled(folder) }
        guard let executable else { return nil }
        let binFolder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let installed = binFolder.deletingLastPathComponent().appendingPathComponent("share/locale").path
        if isDirectory(installed) { return .compiled(installed) }
        let tree = binFolder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = tree.appendingPathComponent("po").path
        if FileManager.default.fileExists(atPath: sources + "/LINGUAS") { return .sources(sources) }
        return nil
    }

    /// The running executable's path, symbolic links resolved, whichever way it was started.
    public static func executablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    private static func read(_ path: String, from location: Location) throws -> MessageCatalog {
        let bytes = try FeedFile.read(path, maxBytes: MessageCatalog.maxBytes)
        switch location {
        case .compiled: return try MessageCatalog(machineObject: bytes)
        case .sources: return try MessageCatalog(portableObject: bytes)
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
