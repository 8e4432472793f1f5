/// Plain text made safe for a notification body the server reads as markup.
public enum MarkupText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, so feed text can never
    /// become markup (links, images) on a server that reports `body-markup`.
    public static func escaped(_ text: String) -> String {
        replacing(text) { character in
            switch character {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            default: nil
            }
        }
    }

    /// `label` as every server draws a button label the same way: `&` as `+`, `<` and `>` as
    /// `‹` and `›`. The spec makes labels plain text, but notification-daemon and MATE read
    /// them as markup (a label with `&` or `<` comes out blank), KDE renders the markup, and Qt
    /// servers (LXQt) take `&` for a keyboard mnemonic; escaping would show entities on the rest.
    public static func buttonLabel(_ label: String) -> String {
        replacing(label) { character in
            switch character {
            case "&": "+"
            case "<": "‹"
            case ">": "›"
            default: nil
            }
        }
    }

    /// `text` with each scalar `replacement` has a replacement for replaced.
    private static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            if let replaced = replacement(character) {
                result += replaced
            } else {
                result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
