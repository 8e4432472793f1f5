/// How errors name a place in a feed: `notifications[3].fireDate`.
///
/// Keys that look like identifiers are written bare; any other key is quoted in brackets
/// (`["a key.with dots"]`) so a path always reads back unambiguously. Readers build paths
/// only when an error travels up through the containers, so reading costs nothing extra.
enum FeedKeyPath {
    /// Keys longer than this are shortened with `…` in paths and messages.
    static let longestShownKey = 64

    /// The path component for the value stored under `key`.
    static func component(key: String) -> String {
        isIdentifier(key) ? key : "[\(quoted(key))]"
    }

    /// The path component for the array element at `index`.
    static func component(index: Int) -> String {
        "[\(index)]"
    }

    /// `component` followed by `rest`, the path below it.
    static func join(_ component: String, _ rest: String) -> String {
        if rest.isEmpty { return component }
        return rest.utf8.first == UInt8(ascii: "[") ? component + rest : component + "." + rest
    }

    /// `text` in double quotes, with quotes, backslashes and control characters escaped and
    /// anything past `longestShownKey` characters cut off with `…`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == longestShownKey {
                result += "…"
                break
            }
            shown += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, key.utf8.count <= longestShownKey else { return false }
        guard isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return key.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
