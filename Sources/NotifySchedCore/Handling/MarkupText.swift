/// Plain text made safe for a notification body the server reads as markup.
public enum MarkupText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, so feed text can never
    /// become markup (links, images) on a server that reports `body-markup`.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// `label` as every server draws a button label the same way: `&` as `+`, `<` and `>` as
    /// `‹` and `›`. The spec makes labels plain text, but notification-daemon and MATE read
    /// them as markup (a label with `&` or `<` comes out blank), KDE renders the markup, and Qt
    /// servers (LXQt) take `&` for a keyboard mnemonic; escaping would show entities on the rest.
    public static func buttonLabel(_ label: String) -> String {
        var result = ""
        result.reserveCapacity(label.utf8.count)
        for character in label.unicodeScalars {
            switch character {
            case "&": result += "+"
            case "<": result += "‹"
            case ">": result += "›"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
