import Crypto
import NotifySchedCore

/// Ed25519 from swift-crypto (`Curve25519.Signing`), for portal feed signatures (DESIGN §6).
///
/// Keys and signatures are raw bytes written as base64: a 32-byte public key, a 32-byte private
/// key (the seed, as `Curve25519.Signing.PrivateKey.rawRepresentation` holds it) and a 64-byte
/// detached signature over the exact feed bytes.
public struct Ed25519: SignatureVerifying {
    public init() {}

    /// A new key pair from the system's random source.
    ///
    /// - Returns: The private key (keep it secret) and the public key (publish it).
    public static func generateKeyPair() -> (privateKey: [UInt8], publicKey: FeedPublicKey) {
        let key = Curve25519.Signing.PrivateKey()
        return (
            Array(key.rawRepresentation),
            try! FeedPublicKey(base64: Base64.encode(Array(key.publicKey.rawRepresentation)))
        )
    }

    /// The public key of `privateKey`.
    ///
    /// - Throws: `CoreError` `.invalidKey` when it is not a raw 32-byte Ed25519 private key.
    public static func publicKey(of privateKey: [UInt8]) throws(CoreError) -> FeedPublicKey {
        let key = try signingKey(privateKey)
        return try FeedPublicKey(base64: Base64.encode(Array(key.publicKey.rawRepresentation)))
    }

    /// The 64-byte signature of `message` by `privateKey`.
    ///
    /// - Throws: `CoreError` `.invalidKey` when the key is not a raw 32-byte Ed25519 private key.
    public static func sign(_ message: [UInt8], privateKey: [UInt8]) throws(CoreError) -> [UInt8] {
        let key = try signingKey(privateKey)
        do {
            return Array(try key.signature(for: message))
        } catch {
            throw CoreError(.invalidKey, "cannot sign with this key: \(error)", underlyingError: error)
        }
    }

    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: FeedPublicKey) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey.bytes) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    private static func signingKey(_ bytes: [UInt8]) throws(CoreError) -> Curve25519.Signing.PrivateKey {
        guard bytes.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes) else {
            throw CoreError(
                .invalidKey, "a private key is the raw 32-byte Ed25519 key in base64; this one is \(bytes.count) bytes")
        }
        return key
    }
}
