/// A URL an action may open: parsed, with a scheme the user allowed.
///
/// Only notify-sched's own policy decides what opens: feeds are untrusted, so a URL is checked
/// when the feed is read and again before it is opened.
public struct ActionURL: Hashable, Sendable, CustomStringConvertible {
    /// The URL exactly as the feed gave it.
    public let string: String
    /// The scheme, lower-cased.
    public let scheme: String

    /// Checks `text` against `policy`.
    ///
    /// - Throws: `CoreError` with code `.disallowedURL` when the text is not an absolute URL,
    ///   holds spaces or control characters, or its scheme is not allowed.
    public init(_ text: String, policy: URLPolicy) throws(CoreError) {
        // One pass over the UTF-8 bytes: feeds carry one URL per entry, and there may be many entries.
        var copy = text
        let (schemeLength, schemeIsValid, hasControl) = copy.withUTF8 { bytes in
            var schemeLength: Int?
            var schemeIsValid = true
            for offset in bytes.indices {
                let byte = bytes[offset]
                if byte <= 0x20 || byte == 0x7F { return (schemeLength, schemeIsValid, true) }
                guard schemeLength == nil else { continue }
                switch byte {
                case UInt8(ascii: ":"): schemeLength = offset
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): break
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    schemeIsValid = schemeIsValid && offset > 0
                default: schemeIsValid = false
                }
            }
            return (schemeLength, schemeIsValid, false)
        }
        if hasControl {
            throw CoreError(.disallowedURL, "\"\(text)\" contains spaces or control characters")
        }
        guard let schemeLength else {
            throw CoreError(.disallowedURL, "\"\(text)\" is not an absolute URL (it has no scheme)")
        }
        guard schemeIsValid, schemeLength > 0 else {
            throw CoreError(.disallowedURL, "\"\(text)\" does not start with a valid URL scheme")
        }
        let lowered = String(decoding: text.utf8.prefix(schemeLength), as: UTF8.self).lowercased()
        guard policy.allows(scheme: lowered) else {
            let allowed = policy.allowedSchemes.sorted().joined(separator: ", ")
            throw CoreError(.disallowedURL, "the URL scheme \"\(lowered):\" is not allowed (allowed: \(allowed))")
        }
        if lowered == "http" || lowered == "https", !text.utf8.dropFirst(schemeLength + 1).starts(with: "//".utf8) {
            throw CoreError(.disallowedURL, "\"\(text)\" has no host")
        }
        self.string = text
        self.scheme = lowered
    }

    public var description: String { string }
}

/// Which URL schemes actions may open.
public struct URLPolicy: Sendable, Equatable {
    /// Schemes that can never be allowed: they run code or read local files.
    public static let forbiddenSchemes: Set<String> = ["javascript", "vbscript", "file", "data", "about", "blob"]

    /// The allowed schemes, lower-case. The default is `https`, `http` and `mailto`.
    public private(set) var allowedSchemes: Set<String>

    /// A policy allowing the defaults plus `extraSchemes` (forbidden schemes are never added).
    public init(extraSchemes: [String] = []) {
        allowedSchemes = ["https", "http", "mailto"]
        for scheme in extraSchemes.map({ $0.lowercased() }) where !URLPolicy.forbiddenSchemes.contains(scheme) {
            allowedSchemes.insert(scheme)
        }
    }

    /// Whether a URL with `scheme` (lower-case) may be opened.
    public func allows(scheme: String) -> Bool {
        allowedSchemes.contains(scheme) && !URLPolicy.forbiddenSchemes.contains(scheme)
    }
}
