/// Checks an Ed25519 signature: the one primitive feed authentication needs from outside the core.
///
/// The core holds the policy (what a missing, malformed or wrong signature, a lower `version` or
/// a past `expires` means); the arithmetic comes from swift-crypto through
/// `NotifySchedNetwork.Ed25519`, which keeps C out of the core.
public protocol SignatureVerifying: Sendable {
    /// Whether `signature` is a valid Ed25519 signature by `publicKey` over exactly `message`.
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: FeedPublicKey) -> Bool
}
