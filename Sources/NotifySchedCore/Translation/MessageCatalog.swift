/// The translations of one language: English messages (gettext's msgids) to the user's language.
///
/// A catalog is read from a compiled `.mo` file (`init(machineObject:)`) or straight from a
/// `.po` file (`init(portableObject:)`); the platform finds the file and passes the catalog in.
/// A message with no translation stays English, so the empty catalog is English.
///
/// Messages are marked in the code by calling `translated(_:context:)` with string literals
/// (joined with `+` when long): `scripts/update-translations` collects those calls into
/// `po/notify-sched.pot`. A message names its values with braces, `"cannot open {url}"`, the
/// python-brace-format that `msgfmt --check` compares between a message and its translation.
///
/// ```swift
/// let line = catalog.translated("cannot open {url}", ["url": url.string])
/// ```
public struct MessageCatalog: Sendable, Equatable {
    /// Translations by key: the msgid, or the context, U+0004 and the msgid, as in `.mo` files.
    ///
    /// - Complexity: lookups are O(1) on average.
    public private(set) var translations: [String: String]

    /// A catalog holding `translations`, keyed as `key(_:context:)` says.
    public init(translations: [String: String] = [:]) {
        self.translations = translations
    }

    /// English: every message stays as written.
    public static let english = MessageCatalog()

    /// The key of `message` in `translations`: gettext joins a context and its message with U+0004.
    public static func key(_ message: String, context: String? = nil) -> String {
        context.map { $0 + "\u{4}" + message } ?? message
    }

    /// Whether the catalog holds no translation at all.
    public var isEmpty: Bool { translations.isEmpty }

    /// `message` in the catalog's language, English when it has no translation.
    ///
    /// - Parameters:
    ///   - message: The English message, as a string literal the extractor can read.
    ///   - context: Tells apart two uses of the same English words (`"button"`).
    ///   - values: The values of the `{name}` placeholders; placeholders not named stay as written.
    /// - Complexity: O(n) in the length of the message.
    public func translated(_ message: String, context: String? = nil, _ values: [String: String] = [:]) -> String {
        let text = translations[Self.key(message, context: context)] ?? message
        return values.isEmpty ? text : Self.substitute(values, in: text)
    }

    /// Replaces each `{name}` in `text` whose name is in `values`, in one pass, so a value that
    /// itself holds braces is never read as a placeholder.
    private static func substitute(_ values: [String: String], in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("{")
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }
}
