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
}
