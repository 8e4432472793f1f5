import ArgumentParser
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform

/// `notify-sched keygen`: a new Ed25519 key pair for a portal author (DESIGN §6).
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 key pair for signing feeds.",
        discussion: """
            Writes the private key (base64 of the raw 32 bytes) to the output file with mode 0600, refusing to \
            overwrite an existing file, and prints the public key (base64 of the raw 32 bytes) to standard output: \
            give it to users as --public-key. Sign feeds with `notify-sched sign FEED --key FILE`.
            """
    )

    @Option(help: ArgumentHelp("Where to write the private key.", valueName: "file"))
    var output = "notify-sched.key"

    func run() throws {
        let (privateKey, publicKey) = Ed25519.generateKeyPair()
        do {
            try AtomicFile.create(Array((Base64.encode(privateKey) + "\n").utf8), at: output, permissions: 0o600)
        } catch  where error.code == .alreadyExists {
            throw CommandError(
                .failure, "\(output): already exists; remove it first or name another file with --output")
        } catch {
            throw CommandError(.failure, error.message)
        }
        Output.standardOutput.write(publicKey.base64)
    }
}
