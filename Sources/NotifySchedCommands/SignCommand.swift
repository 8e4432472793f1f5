import ArgumentParser
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform

/// `notify-sched sign FEED --key FILE`: the detached signature `FEED.sig` (DESIGN §6).
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a feed: write FEED.sig.",
        discussion: """
            FEED.sig holds the base64 of the raw 64-byte Ed25519 signature over the feed's exact bytes; publish it \
            beside the feed (at the feed's URL plus .sig). Prints the public key the signature verifies with.
            """
    )

    @Argument(help: ArgumentHelp("The feed file to sign.", valueName: "feed"))
    var feed: String

    @Option(help: ArgumentHelp("The private key file written by `notify-sched keygen`.", valueName: "file"))
    var key: String

    func run() throws {
        do {
            let bytes = try FeedFile.read(feed)
            let keyText = try FeedFile.read(key, maxBytes: 4096)
            guard let privateKey = Base64.decode(keyText) else {
                throw CommandError(.failure, "\(key): not a private key (base64 of the raw 32 bytes)")
            }
            let signature: [UInt8]
            let publicKey: FeedPublicKey
            do {
                signature = try Ed25519.sign(bytes, privateKey: privateKey)
                publicKey = try Ed25519.publicKey(of: privateKey)
            } catch {
                throw CommandError(.failure, "\(key): \(error.message)")
            }
            try AtomicFile.write(Array((Base64.encode(signature) + "\n").utf8), to: feed + ".sig")
            Output.standardOutput.write("\(feed).sig: signed; verify with --public-key \(publicKey.base64)")
        } catch let error as PlatformError {
            throw CommandError(.failure, error.message)
        }
    }
}
