/// A URL an action may open: parsed, with a scheme the user allowed.
///
/// Only notify-sched's own policy decides what opens: feeds are untrusted, so a URL is checked
/// when the feed is read and again before it is opened. Beyond its scheme:
/// - no spaces, control characters, or characters that are invisible or change the direction
///   of text (NBSP, zero-width characters, bidi marks, overrides and isolates): what a person
///   reads on the button's tooltip is what opens;
/// - `http` and `https` name a host (`https:///etc/passwd` and `http://` do not), with no user
///   name or password before it (`https://bank.example@evil.example/` leads to evil.example),
///   and a port, when given, from 1 to 65535;
/// - `mailto` takes addresses and the fields `to`, `cc`, `bcc`, `subject` and `body` only:
///   others, such as `attach`, have made mail programs attach local files.
public struct ActionURL: Hashable, Sendable, CustomStringConvertible {
    /// The URL exactly as the feed gave it.
    public let string: String
    /// The scheme, lower-cased.
    public let scheme: String

    /// Checks `text` against `policy`.
    ///
    /// - Throws: `CoreError` with code `.disallowedURL` when the text is not an absolute URL,
    ///   holds spaces, control, invisible or direction-changing characters, its scheme is not
    ///   allowed, or it breaks its scheme's rules above.
    public init(_ text: String, policy: URLPolicy) throws(CoreError) {
        // One pass over the UTF-8 bytes: feeds carry one URL per entry, and there may be many entries.
        var copy = text
        let scan = copy.withUTF8(Scan.init)
        if scan.hasControl {
            throw CoreError(.disallowedURL, "\(QuotedInput.quoted(text)) contains spaces or control characters")
        }
        if !scan.isASCII, let hidden = text.unicodeScalars.first(where: Self.isHiddenOrDirectional) {
            throw CoreError(
                .disallowedURL,
                "\(QuotedInput.quoted(text)) contains an invisible or direction-changing character (U+\(hidden.code))")
        }
        guard let scheme = scan.scheme else {
            throw CoreError(.disallowedURL, "\(QuotedInput.quoted(text)) is not an absolute URL (it has no scheme)")
        }
        guard scan.schemeIsValid, !scheme.isEmpty else {
            throw CoreError(.disallowedURL, "\(QuotedInput.quoted(text)) does not start with a valid URL scheme")
        }
        guard policy.allows(scheme: scheme) else {
            let allowed = policy.allowedSchemes.sorted().joined(separator: ", ")
            throw CoreError(.disallowedURL, "the URL scheme \"\(scheme):\" is not allowed (allowed: \(allowed))")
        }
        switch scan.authorityProblem {
        case .noHost?: throw CoreError(.disallowedURL, "\(QuotedInput.quoted(text)) has no host")
        case .userInformation?:
            throw CoreError(
                .disallowedURL,
                "\(QuotedInput.quoted(text)) has a user name before its host, which hides where it leads")
        case .portOutOfRange?:
            throw CoreError(.disallowedURL, "\(QuotedInput.quoted(text)) has a port outside 1 to 65535")
        case nil: break
        }
        if scheme == "mailto" {
            try Self.checkMailFields(of: text, after: text.utf8.dropFirst(scheme.utf8.count + 1))
        }
        self.string = text
        self.scheme = scheme
    }

    /// A URL this type checked before, from its `string` alone (`PackedContent` keeps no more).
    init(checked string: String) {
        self.string = string
        scheme = String(decoding: string.utf8.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self).lowercased()
    }

    /// What one pass over a URL's UTF-8 bytes finds.
    private struct Scan {
        /// The scheme, lower-cased; nil when there is no colon.
        var scheme: String?
        var schemeIsValid = true
        var hasControl = false
        var isASCII = true
        /// What is wrong with an `http` or `https` URL's authority.
        var authorityProblem: AuthorityProblem?

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var schemeLength: Int?
            var schemeHasUpperCase = false
            for offset in bytes.indices {
                let byte = bytes[offset]
                if byte <= 0x20 || byte == 0x7F {
                    hasControl = true
                    return
                }
                if byte >= 0x80 { isASCII = false }
                guard schemeLength == nil else { continue }
                switch byte {
                case UInt8(ascii: ":"): schemeLength = offset
                case UInt8(ascii: "a")...UInt8(ascii: "z"): break
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): schemeHasUpperCase = true
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    schemeIsValid = schemeIsValid && offset > 0
                default: schemeIsValid = false
                }
            }
            guard let schemeLength else { return }
            let written = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<schemeLength]), as: UTF8.self)
            let scheme = schemeHasUpperCase ? written.lowercased() : written
            self.scheme = scheme
            if scheme == "http" || scheme == "https" {
                authorityProblem = AuthorityProblem.of(UnsafeBufferPointer(rebasing: bytes[(schemeLength + 1)...]))
            }
        }
    }

    /// What makes an `http` or `https` URL's authority unsafe to open: it must name a host,
    /// with no user information, and a valid port.
    private enum AuthorityProblem {
        case noHost, userInformation, portOutOfRange

        /// The problem of the URL whose text after the scheme's colon is `rest`, as a URL
        /// parser reads it.
        static func of(_ rest: UnsafeBufferPointer<UInt8>) -> AuthorityProblem? {
            guard rest.count >= 2, rest[0] == UInt8(ascii: "/"), rest[1] == UInt8(ascii: "/") else { return .noHost }
            let end =
                rest[2...].firstIndex {
                    $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                } ?? rest.count
            let authority = UnsafeBufferPointer(rebasing: rest[2..<end])
            if authority.contains(UInt8(ascii: "@")) { return .userInformation }
            // The port follows the last colon, unless that colon is inside an IPv6 literal.
            var host = authority[...]
            if let colon = authority.lastIndex(of: UInt8(ascii: ":")),
                !authority[colon...].contains(UInt8(ascii: "]"))
            {
                host = authority[..<colon]
                let port = authority[(colon + 1)...]
                let number =
                    port.count <= 5 && port.allSatisfy(\.isASCIIDigit)
                    ? port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : nil
                guard port.isEmpty || number.map({ (1...65535).contains($0) }) == true else { return .portOutOfRange }
            }
            return host.isEmpty || host.elementsEqual("[]".utf8) ? .noHost : nil
        }
    }

    /// Spaces that do not show as spaces, zero-width characters, the soft hyphen, the BOM, and
    /// the bidi marks, embeddings, overrides and isolates.
    static func isHiddenOrDirectional(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00A0, 0x00AD, 0x061C, 0x1680, 0x180E, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x2064,
            0x2066...0x206F, 0x3000, 0xFEFF:
            true
        default:
            false
        }
    }

    /// The header fields a `mailto` URL may fill in (RFC 6068 allows any; mail programs have
    /// attached local files for `attach`).
    static let mailFields: Set<String> = ["to", "cc", "bcc", "subject", "body"]

    /// `text` with its `%XX` escapes decoded, so that `%61ttach` is `attach`.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
                let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func checkMailFields(of text: String, after rest: Substring.UTF8View) throws(CoreError) {
        guard let question = rest.firstIndex(of: UInt8(ascii: "?")) else { return }
        let query = Substring(rest[rest.index(after: question)...]).prefix { $0 != "#" }
        for field in query.split(separator: "&") {
            let name = percentDecoded(field.prefix { $0 != "=" }).lowercased()
            guard mailFields.contains(name) else {
                throw CoreError(
                    .disallowedURL,
                    "\(QuotedInput.quoted(text)) sets the mail field \(QuotedInput.quoted(name)); "
                        + "only to, cc, bcc, subject and body may be set")
            }
        }
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
        // `init` never adds a forbidden scheme.
        allowedSchemes.contains(scheme)
    }
}
