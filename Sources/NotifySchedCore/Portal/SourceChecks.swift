/// Which sources' checks run, which start next, and which `notify-sched sync` calls their
/// results answer.
///
/// Checks run side by side, at most `limit` at a time, so that one slow portal delays neither
/// the other sources nor a `sync` beyond its own check. A source is checked once at a time. A
/// `sync` is answered when every source it asked for has been checked by a check that started
/// after it asked: a check already under way when it came is followed by a fresh one.
///
/// Pure and deterministic, like the planner: the daemon says which sources are due and what
/// each check found, and carries out the starts and the answers it is given. `Report` is what
/// one check found, as `sync` reports it.
public struct SourceChecks<Report: Sendable>: Sendable {
    /// How many checks run at once unless told otherwise: a few slow portals leave the others
    /// their turn, and a desktop with dozens of feeds does not open dozens of connections.
    public static var defaultLimit: Int { 4 }

    /// What a `sync` call waits for.
    private struct Sync: Sendable {
        var id: Int
        /// Sources whose check for it has not started yet.
        var toStart: Set<Int>
        /// Sources whose check for it runs.
        var running: Set<Int> = []
        /// What the finished checks found, by source.
        var reports: [Int: Report]
    }

    /// The most checks that run at once.
    public let limit: Int
    /// The sources whose check runs.
    public private(set) var running: Set<Int> = []
    private var syncs: [Sync] = []
    private var nextSyncID = 0

    /// Whether a `sync` call waits for checks to start or finish.
    public var hasSyncsWaiting: Bool { !syncs.isEmpty }

    public init(limit: Int = SourceChecks.defaultLimit) {
        self.limit = max(1, limit)
    }

    /// A `sync` call asks for `sources` to be checked now, whatever their periods.
    ///
    /// - Parameters:
    ///   - sources: The sources to check.
    ///   - known: What it reports, without a check, of sources it does not check (a refused key).
    /// - Returns: The call's id, which `start(due:)` and `finished(_:_:)` give back with its
    ///   reports once all are in.
    public mutating func requestSync(of sources: [Int], known: [Int: Report] = [:]) -> Int {
        let id = nextSyncID
        nextSyncID += 1
        syncs.append(Sync(id: id, toStart: Set(sources), reports: known))
        return id
    }

    /// Chooses the checks to start now: the `due` sources and those a `sync` waits for, each
    /// not running already, in the order of their index, up to `limit` running.
    ///
    /// - Returns: The sources to check now, and the `sync` calls to answer (those with nothing
    ///   to check), each with its reports in the order of their sources.
    public mutating func start(due: some Sequence<Int>) -> (check: [Int], answered: [(sync: Int, reports: [Report])]) {
        let wanted = Set(due).union(syncs.lazy.flatMap(\.toStart)).subtracting(running)
        let started = Array(wanted.sorted().prefix(max(0, limit - running.count)))
        running.formUnion(started)
        for index in syncs.indices {
            let now = syncs[index].toStart.intersection(started)
            syncs[index].toStart.subtract(now)
            syncs[index].running.formUnion(now)
        }
        return (started, takeAnswered())
    }

    /// The check of `source` finished with `report`.
    ///
    /// - Returns: The `sync` calls it completes, each with its reports in the order of their
    ///   sources. Call `start(due:)` next: a check it held back may start now.
    public mutating func finished(_ source: Int, _ report: Report) -> [(sync: Int, reports: [Report])] {
        running.remove(source)
        for index in syncs.indices where syncs[index].running.remove(source) != nil {
            syncs[index].reports[source] = report
        }
        return takeAnswered()
    }

    private mutating func takeAnswered() -> [(sync: Int, reports: [Report])] {
        let done = syncs.filter { $0.toStart.isEmpty && $0.running.isEmpty }
        syncs.removeAll { $0.toStart.isEmpty && $0.running.isEmpty }
        return done.map { sync in (sync.id, sync.reports.sorted { $0.key < $1.key }.map(\.value)) }
    }
}
