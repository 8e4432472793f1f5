import Foundation
import Glibc
import NotifySchedControl
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedStore

// The control interface: what the CLI calls when a daemon runs (`ControlObject` on the bus).
extension DaemonDriver {
    /// Answers a call on the control interface, decoded and checked (`ControlCall`).
    ///
    /// - Returns: The reply, or nil when the call is answered later, with `reply`.
    /// - Throws: when the listing or the status cannot be made.
    public func answer(_ call: ControlCall, reply: @escaping (ControlReply) -> Void) throws -> ControlReply? {
        recordDeliveries()
        let now = clock()
        switch call {
        case .postEvent(let name):
            return .posted(postEvent(name, at: now))
        case .list(let upcoming, let offset, let limit, let filter):
            let page = try listing(upcoming: upcoming, rows: offset..<offset + limit, filter: filter, at: now)
            // The whole schedule's next occurrences were sorted for it: a page leaves no growth behind.
            FreedMemory.release()
            return .listed(json: page.json, total: page.total)
        case .status:
            return .status(json: try Self.json(status(at: now)))
        case .handle(let id, let showAlert):
            // Which server runs is data for the core: one without buttons cannot ask.
            let server = showAlert ? try? notifier.currentServer() : nil
            handle(id, reply, at: now) { .handleRequested($0, showAlert: showAlert, server: server) }
            return nil
        case .snooze(let id, let snooze):
            handle(id, reply, at: now) { .snoozeRequested($0, snooze) }
            return nil
        case .test(let content, let delay, let wait):
            test(content, after: delay, wait: wait, reply, at: now)
            return nil
        case .sync:
            syncSources(at: now) { reports in
                reply(
                    .synced(
                        status: reports.contains(where: \.failed) ? "failed" : "synced",
                        report: reports.flatMap(\.lines).joined(separator: "\n")))
            }
            return nil
        }
    }

    /// The schedules a listing lists, in source order, with the instant each entry is settled
    /// through.
    private func listedSchedules() -> (schedules: [Schedule], settled: [[Instant?]]) {
        let settled = core.planner.settledThrough()
        var schedules: [Schedule] = []
        var settledByListed: [[Instant?]] = []
        for index in sources.indices {
            guard let schedule = schedule(of: index) else { continue }
            schedules.append(schedule)
            settledByListed.append(settled[index])
        }
        return (schedules, settledByListed)
    }

    /// Sorts every entry for listings on a worker thread, once the start is done, when there
    /// are at least `preparedListingFrom`: the first `List` then brings that order forward like
    /// the calls after it, rather than taking the sort (190 ms at 10^6 entries), and the
    /// daemon's memory is the same before and after its first `List`. Below, the first `List`
    /// sorts in a few milliseconds, and a thread would cost more memory (its malloc arena)
    /// than the order. A thread that does not start leaves the sort to the first `List`.
    func prepareListingOrder(at now: Instant) {
        let entries = sources.indices.reduce(0) { $0 + (schedule(of: $1)?.entries.count ?? 0) }
        guard entries >= Self.preparedListingFrom else { return }
        let (schedules, settled) = listedSchedules()
        let revision = core.planner.revision
        let userZone = userZone
        let mailbox = preparedListingOrders
        try? WorkerThread.start {
            mailbox.post((ListingOrder(schedules: schedules, settled: settled, now: now, userZone: userZone), revision))
        }
    }

    static let preparedListingFrom = 100_000

    /// The loop's side of `prepareListingOrder(at:)`: keeps the order unless a `List` made one
    /// meanwhile or the schedules changed since.
    public func preparedListingOrderArrived() {
        for prepared in preparedListingOrders.take()
        where listingOrder == nil && prepared.revision == core.planner.revision {
            listingOrder = prepared
        }
        // What the sort held is given back off the loop, once the worker has let go of it.
        store.afterBackgroundWrites { FreedMemory.release() }
    }

    /// The `rows` of the schedule `filter` keeps, as of `now`, as a compact JSON array cut
    /// short once it passes `ControlCall.maximumListBytes`, and how many rows the filter keeps.
    /// Each entry's settled instant is the planner's; only the listed entries' ledger records
    /// are read, unless the filter names states.
    private func listing(
        upcoming: Int, rows: Range<Int>, filter: ListingFilter, at now: Instant
    ) throws -> (json: String, total: Int) {
        let (schedules, settledByListed) = listedSchedules()
        // The order of the last call, brought forward, while the planner has changed nothing it
        // depends on; taken out first, so that bringing it forward does not copy its keys.
        let order: ListingOrder
        if var kept = listingOrder.take(), kept.revision == core.planner.revision, kept.order.asOf <= now {
            kept.order.advance(to: now, schedules: schedules, settled: settledByListed, userZone: userZone)
            order = kept.order
        } else {
            order = ListingOrder(schedules: schedules, settled: settledByListed, now: now, userZone: userZone)
        }
        listingOrder = (order, core.planner.revision)
        let store = self.store
        let listing = try ScheduleListing(
            schedules: schedules, now: now, upcoming: upcoming, userZone: userZone, order: order, filter: filter,
            page: rows,
            settled: settledByListed,
            records: { (index, ids) throws(StoreError) in
                let source = schedules[index].source
                return filter.states.isEmpty
                    ? try store.latestRecords(source: source, entryIDs: ids) : try store.latestRecords(source: source)
            },
            health: Dictionary(core.polling.sources.map { ($0.location, $0.health) }, uniquingKeysWith: { $1 }),
            applicationVersions: core.planner.applicationVersions)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var encoded: [String] = []
        var bytes = 2
        for row in listing.rows {
            let text = String(decoding: try encoder.encode(row), as: UTF8.self)
            bytes += text.utf8.count + 1
            if !encoded.isEmpty, bytes > ControlCall.maximumListBytes { break }
            encoded.append(text)
        }
        return ("[" + encoded.joined(separator: ",") + "]", listing.total)
    }

    private func status(at now: Instant) -> DaemonStatus {
        let server = (try? notifier.currentServer()).map {
            DaemonStatus.Server(
                name: $0.name, vendor: $0.vendor, version: $0.version, specVersion: $0.specVersion,
                capabilities: $0.capabilities.sorted())
        }
        let receipts: [String: ReceiptQueueState]
        do {
            receipts = try store.receiptQueue()
        } catch {
            log.error(error.message)
            receipts = [:]
        }
        return DaemonStatus(
            pid: getpid(), version: ProductVersion.current, startedAt: startedAt.rfc3339, server: server,
            sources: sources.indices.map { index in
                DaemonStatus.Source(
                    location: sources[index].location, dialect: schedule(of: index)?.dialect.rawValue,
                    entries: schedule(of: index)?.entries.count ?? 0,
                    health: SourceHealthReport(core.polling.sources[index].health),
                    rollouts: schedule(of: index).map(core.capGate.rollouts(in:)),
                    receipts: ReceiptQueueState.summary(
                        mode: core.polling.sources[index].settings.receipts.mode,
                        destination: core.receiptDestination(of: index), receipts[sources[index].location]))
            },
            pending: core.planner.pendingCount, nextDeadline: core.planner.nextDeadline.map(\.rfc3339),
            onScreen: [PopupRole.scheduled, .prompt].flatMap { role in
                core.handling.onScreen(role).suffix(DaemonStatus.onScreenLimit).map {
                    DaemonStatus.OnScreen(
                        occurrenceID: $0.id, entryID: $0.entryID, source: $0.source, title: $0.content.title,
                        role: role)
                }
            }, timerWakeUps: timerWakeUps)
    }

    /// Hands the core the `request` (a `handle` or a snooze) for the occurrence `name` names (an
    /// occurrence id, or an entry id for its latest delivered occurrence), the call waiting for its
    /// outcome (`reply`); answers `unknown`, with the reason, when it names none. The call came at `now`.
    private func handle(
        _ name: String, _ reply: @escaping (ControlReply) -> Void, at now: Instant,
        _ request: (DeliveredOccurrence) -> HandlingEvent
    ) {
        let lookup: OccurrenceLookup
        do {
            lookup = OccurrenceLookup(name, candidates: try store.occurrences(named: name))
        } catch {
            reply(.handled(status: "failed", report: error.message))
            return
        }
        guard case .found(let id) = lookup else {
            let problem = lookup.problem(with: name, catalog: popups.policy.catalog) ?? ""
            reply(.handled(status: "unknown", report: problem))
            return
        }
        guard let occurrence = deliveredOccurrence(id: id) else {
            reply(.handled(status: "unknown", report: ""))
            return
        }
        let token = keepReply(to: reply) { ControlReply.handled(status: $1, report: $2) }
        perform(.handleCalled(token: token, request(occurrence)), at: now)
    }

    /// Has the core show a test popup of `content` after `delay` from `now`, on its own timer,
    /// and answer the call (`reply`) once it is shown (or, with `wait`, once it is acted on or closed).
    private func test(
        _ content: NotificationContent, after delay: TimeSpan, wait: Bool, _ reply: @escaping (ControlReply) -> Void,
        at now: Instant
    ) {
        let entryID = "test-" + String(UInt32.random(in: .min ... .max), radix: 16)
        let entry = ScheduleEntry(id: entryID, dialect: .native, content: content, trigger: .immediate)
        let token = keepReply(to: reply) { ControlReply.tested(id: $0, status: $1, report: $2) }
        if delay > .zero { log.info("a test popup is due at \((now + delay).rfc3339)") }
        perform(.testRequested(token: token, entry: entry, due: now + delay, wait: wait), at: now)
    }

    /// Keeps how to answer a call (`replies`, through `reply`) under a new token: with the reply
    /// `answer` makes of the occurrence id, the status and the report the core answers it with.
    ///
    /// - Returns: The call's token.
    private func keepReply(
        to reply: @escaping (ControlReply) -> Void,
        _ answer: @escaping (_ occurrenceID: String, _ status: String, _ report: String) -> ControlReply
    ) -> Int {
        let token = newCallToken()
        replies[token] = { reply(answer($0, $1, $2)) }
        return token
    }

    /// A token no control call kept waiting has had.
    func newCallToken() -> Int {
        defer { nextCallToken += 1 }
        return nextCallToken
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
