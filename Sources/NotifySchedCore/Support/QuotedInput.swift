/// A value from a feed or a command line, echoed in a message: in double quotes, and cut short
/// when it is long, so that a hostile value cannot make a message as long as itself.
public enum QuotedInput {
    /// How many characters of a value a message shows.
    public static let limit = 80

    /// `text` in double quotes; past `limit` characters, its start, `…` and its length.
    public static func quoted(_ text: some StringProtocol) -> String {
        guard text.count > limit else { return "\"\(text)\"" }
        return "\"\(text.prefix(limit))…\" (\(text.count) characters)"
    }
}
