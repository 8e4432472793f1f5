extension TimeSpan {
    /// An HTTP delta-seconds value (RFC 9110 §1.2.3: one or more digits, as in `Retry-After` and
    /// `Cache-Control: max-age`), capped at `cap` rather than overflowing; nil for anything else.
    ///
    /// - Complexity: O(n) in the text's length.
    static func deltaSeconds(_ text: some StringProtocol, cappedAt cap: TimeSpan) -> TimeSpan? {
        guard !text.isEmpty, text.utf8.allSatisfy(\.isASCIIDigit) else { return nil }
        let capSeconds = cap.microseconds / 1_000_000
        // Too many digits for an Int64 is beyond any cap.
        return .seconds(Int64(text).map { min($0, capSeconds) } ?? capSeconds)
    }
}
