import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched receipts`: what the sources whose receipts are on have counted, the exact
/// bodies that would be sent, and sending them now.
struct ReceiptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipts",
        abstract: "Show or send the counts that sources with receipts on report to their collector.",
        discussion: """
            Receipts are off unless the configuration says `receipts = counts` and names a \
            `receipts-endpoint` (globally or for a source). They are counts per entry and UTC day \
            (shown, acted on, dismissed, snoozed, expired unseen, withdrawn, missed, suppressed), \
            never events, and say nothing of who you are (see the receipts page of the manual). \
            With no option, says per source whether receipts are on, where they go, what waits \
            and when they last went. --pending seals what was counted into bodies and prints \
            each body exactly as it will be sent, one per line (where it goes on standard error). \
            --send sends every body waiting now, and exits 1 if a collector did not take one: it \
            stays queued and is tried again. The daemon sends on its own once a day, with a check \
            of each source's feed. What is queued for a source whose receipts are off is deleted, \
            unsent.
            """
    )

    @Flag(help: "Print the bodies that would be sent, one JSON object per line.")
    var pending = false

    @Flag(help: "Send the bodies waiting now.")
    var send = false

    @Option(
        help: ArgumentHelp(
            "The configuration file that names the sources (default: $XDG_CONFIG_HOME/notify-sched/config).",
            valueName: "file"))
    var config: String?

    func validate() throws {
        if pending && send { throw ValidationError("--pending and --send cannot be given together") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let configuration = try UserConfiguration.load(config, environment: environment)
        let store: StateStore
        let queue: [String: ReceiptQueueState]
        do {
            store = try StateStore(path: UserDirectories(environment: environment).stateDatabase)
            try store.discardReceipts(keeping: configuration.receiptSources)
            queue = try store.receiptQueue()
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        // The configured endpoint, else the one the daemon last sent to (a signed feed's).
        var endpoints = configuration.receiptEndpoints
        for source in configuration.receiptSources where endpoints[source] == nil {
            endpoints[source] = queue[source]?.endpoint
        }
        guard pending || send else {
            for source in configuration.sources {
                let destination = endpoints[source.feed].map { (endpoint: $0, purpose: String?.none) }
                Output.standardOutput.write(
                    "\(source.name): "
                        + ReceiptQueueState.summary(
                            mode: source.settings.receipts.mode, destination: destination, queue[source.feed]))
            }
            return
        }
        var ids = SystemRandomNumberGenerator()
        let batches: [ReceiptBatch]
        do {
            batches = try store.sealReceipts(endpoints: endpoints, at: WallClock.now(), using: &ids)
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        if pending {
            for batch in batches {
                Output.standardError.write(
                    "\(batch.source): \(batch.receipts) receipt\(batch.receipts == 1 ? "" : "s") to "
                        + (endpoints[batch.source] ?? batch.endpoint))
                Output.standardOutput.write(batch.body)
            }
            if batches.isEmpty { Output.standardError.write("notify-sched: no receipts waiting") }
            return
        }
        try Self.send(batches, endpoints: endpoints, store: store)
    }

    /// Posts each body to its source's endpoint, and records how it went.
    ///
    /// - Throws: `CommandError` naming each body a collector did not take.
    private static func send(_ batches: [ReceiptBatch], endpoints: [String: String], store: StateStore) throws {
        var generator = SystemRandomNumberGenerator()
        guard !batches.isEmpty else {
            Output.standardOutput.write("no receipts waiting")
            return
        }
        let fetcher: FeedFetcher
        do { fetcher = try FeedFetcher() } catch { throw CommandError(.failure, "notify-sched: \(error.message)") }
        defer { fetcher.shutdown() }
        var failures: [String] = []
        for batch in batches {
            let endpoint = endpoints[batch.source] ?? batch.endpoint
            do {
                try fetcher.post(batch.body, to: endpoint)
                try store.receiptsSent(batch.batchID, at: WallClock.now())
                Output.standardOutput.write(
                    "sent \(batch.receipts) receipt\(batch.receipts == 1 ? "" : "s") of \(batch.source) to \(endpoint)")
            } catch let error as NetworkError {
                let now = WallClock.now()
                let retryAt = ReceiptRetry.next(retryAfter: error.retryAfter, at: now, using: &generator)
                try? store.receiptsFailed(batch.batchID, error: error.message, retryAt: retryAt)
                failures.append("notify-sched: receipts of \(batch.source) not sent: \(error.message)")
            } catch {
                failures.append("notify-sched: \(error)")
            }
        }
        if !failures.isEmpty { throw CommandError(.failure, failures) }
    }
}
