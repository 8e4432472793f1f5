/// Text as a terminal may receive it: what a feed, a portal or a zone name says is shown, never
/// obeyed. Every command's output and every log line go through `escaped(_:)`.
public enum TerminalText {
    /// `text` with each character a terminal would act on rather than show written as a
    /// visible escape, `\u001B`: the C0 controls but tab and line feed (escape sequences, bell,
    /// backspace, carriage return), DEL, the C1 controls, and the bidirectional marks, overrides
    /// and isolates that reorder what follows (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069). The escape is JSON's, so that `--json` output stays valid and means the
    /// same. Text without any is returned as it is.
    ///
    /// - Complexity: O(*n*) in the scalars of `text`.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActedOn) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isActedOn(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: ("\\u" + scalar.code).unicodeScalars)
        }
        return String(result)
    }

    private static func isActedOn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
