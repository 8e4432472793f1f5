/// Decides whether a feed from a portal with a public key may be used (DESIGN §6).
///
/// Pure: it is given the exact feed bytes, the `.sig` text, the highest `version` accepted
/// before under this key and `now`, and it answers accept or refuse with a reason. Nothing is
/// stored here: the caller records the accepted version only after this says yes.
///
/// The order is: signature first (over the exact bytes, before any parsing), then parse, then
/// rollback and freeze protection from the parsed feed's `version` and `expires`:
///
/// - a missing signature refuses (`feed.unsigned`); one that is not base64 of 64 bytes, or does
///   not verify, refuses (`feed.bad-signature`);
/// - `version` lower than the highest accepted refuses (`feed.rollback`); so does a feed with no
///   `version` once a version was accepted under the key, which would otherwise be a way around
///   rollback protection; an equal version is accepted (the same feed fetched again);
/// - `expires` at or before `now` refuses (`feed.expired`).
///
/// ```swift
/// let authenticator = FeedAuthenticator(publicKey: key, verifier: Ed25519())
/// switch authenticator.verify(bytes, signature: sigText, source: url, highestAcceptedVersion: stored, now: now,
///                             parse: { parser.parse($0, source: url) }) { … }
/// ```
public struct FeedAuthenticator: Sendable {
    /// The portal's key.
    public var publicKey: FeedPublicKey
    /// The Ed25519 primitive.
    public var verifier: any SignatureVerifying

    public init(publicKey: FeedPublicKey, verifier: any SignatureVerifying) {
        self.publicKey = publicKey
        self.verifier = verifier
    }

    /// The outcome of `verify`.
    public enum Verdict: Sendable {
        /// The feed is authentic and fresh; `version` is what to record as accepted (nil: none).
        case accepted(FeedParseResult, version: Int64?)
        /// The feed must not be used; the last good feed stays in force.
        case refused(CoreError)
    }

    /// Checks the signature over `feed`, parses it, and checks its `version` and `expires`.
    ///
    /// - Parameters:
    ///   - feed: The feed's exact bytes.
    ///   - signature: The `.sig` file's bytes (base64 text), or nil when there is none.
    ///   - source: The feed's URL or path, for messages.
    ///   - highestAcceptedVersion: The highest `version` accepted before under this key.
    ///   - now: The current time, for `expires`.
    ///   - parse: Parses the verified bytes; it is not called when the signature fails.
    /// - Returns: `.accepted` with the parse result, or `.refused` with the reason.
    public func verify(
        _ feed: [UInt8], signature: [UInt8]?, source: String, highestAcceptedVersion: Int64?, now: Instant,
        parse: ([UInt8]) -> FeedParseResult
    ) -> Verdict {
        if let error = checkSignature(signature, over: feed, source: source) { return .refused(error) }
        let parsed = parse(feed)
        guard let schedule = parsed.schedule else { return .accepted(parsed, version: nil) }
        if let error = Self.checkFreshness(
            version: schedule.version, expires: schedule.expires, highestAcceptedVersion: highestAcceptedVersion,
            now: now, source: source)
        {
            return .refused(error)
        }
        return .accepted(parsed, version: schedule.version)
    }

    /// Checks that `signature` is a valid signature by the key over exactly `feed`.
    ///
    /// - Returns: nil when it is, otherwise the reason to refuse.
    public func checkSignature(_ signature: [UInt8]?, over feed: [UInt8], source: String) -> CoreError? {
        guard let signature else {
            return CoreError(
                .unsigned,
                "\(source): refused: a public key is set but the feed has no signature (\(source).sig)")
        }
        guard let raw = Base64.decode(signature), raw.count == 64 else {
            return CoreError(
                .badSignature,
                "\(source): refused: \(source).sig is not the base64 of a 64-byte Ed25519 signature")
        }
        guard verifier.isValidSignature(raw, of: feed, publicKey: publicKey) else {
            return CoreError(
                .badSignature,
                "\(source): refused: the signature does not match the feed and the public key \(publicKey)")
        }
        return nil
    }

    /// Rollback and freeze protection for a feed whose signature verified.
    ///
    /// - Returns: nil when the feed is fresh, otherwise the reason to refuse.
    public static func checkFreshness(
        version: Int64?, expires: Instant?, highestAcceptedVersion: Int64?, now: Instant, source: String
    ) -> CoreError? {
        if let highest = highestAcceptedVersion {
            guard let version else {
                return CoreError(
                    .rollback, "\(source): refused: the feed has no version, but version \(highest) was accepted before"
                )
            }
            if version < highest {
                return CoreError(
                    .rollback,
                    "\(source): refused: version \(version) is older than version \(highest) accepted before (rollback)"
                )
            }
        }
        if let expires, expires <= now {
            return CoreError(
                .expired, "\(source): refused: the feed expired at \(expires.rfc3339) (now \(now.rfc3339))")
        }
        return nil
    }
}
