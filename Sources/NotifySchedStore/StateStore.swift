import Foundation
import GRDB
import NotifySchedCore

/// The daemon's durable state in one SQLite database (DESIGN §7): the firing ledger, each
/// source's check times, and iSmartNews's run counter, queues and pattern progress.
///
/// Every write is one transaction in WAL mode with `synchronous=FULL`: a crash, `kill -9` or a
/// power loss loses nothing that was committed and never corrupts the file. The schema is
/// created and upgraded by numbered migrations.
public final class StateStore: Sendable {
    private let database: DatabaseQueue
    /// Runs `writeInBackground`'s writes; every other access waits for them first.
    private let writer = BackgroundWriter()
    /// The database file.
    public let path: String

    /// Opens (or creates) the database at `path`, creating its folder, and migrates its schema.
    ///
    /// - Throws: `StoreError` with `.unavailable` when the file cannot be opened or created,
    ///   or `.newerSchema` when a newer notify-sched wrote it.
    public init(path: String) throws(StoreError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(
                .unavailable, "\(folder): cannot create the state folder: \(StateStore.describe(error))",
                underlyingError: error)
        }
        do {
            var configuration = GRDB.Configuration()
            configuration.journalMode = .wal
            configuration.busyMode = .timeout(5)
            database = try DatabaseQueue(path: path, configuration: configuration)
            // Set after opening: GRDB's own setup would otherwise run before it.
            try database.writeWithoutTransaction { try $0.cachedStatement(sql: "PRAGMA synchronous = FULL").execute() }
        } catch {
            throw StoreError(
                .unavailable, "\(path): cannot open the state database: \(StateStore.describe(error))",
                underlyingError: error)
        }
        let migrator = StateStore.migrator
        do {
            let known = Set(migrator.migrations)
            let applied = try database.read { try migrator.appliedIdentifiers($0) }
            if let unknown = applied.first(where: { !known.contains($0) }) {
                throw StoreError(
                    .newerSchema,
                    "\(path): written by a newer notify-sched (schema \"\(unknown)\"); upgrade notify-sched")
            }
            try migrator.migrate(database)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(
                .unavailable, "\(path): cannot prepare the state database: \(StateStore.describe(error))",
                underlyingError: error)
        }
    }

    deinit {
        writer.close()
    }

    /// Runs `body` in one write transaction.
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        writer.waitUntilDone()
        do {
            return try database.writeWithoutTransaction { try Self.transaction(.immediate, in: $0, body) }
        } catch {
            throw Self.failure(at: path, what, error)
        }
    }

    /// Runs `body` in one write transaction after those asked before, without waiting for it
    /// (on `BackgroundWriter`'s thread); every later read and write of this store waits for it.
    ///
    /// - Parameter failed: Gets the error, on another thread, when the transaction fails.
    func writeInBackground(
        _ what: String, _ body: @escaping @Sendable (Database) throws -> Void,
        failed: @escaping @Sendable (StoreError) -> Void
    ) {
        let write: @Sendable () -> Void = { [database, path] in
            do {
                try database.writeWithoutTransaction { try StateStore.transaction(.immediate, in: $0, body) }
            } catch {
                failed(StateStore.failure(at: path, what, error))
            }
        }
        afterBackgroundWrites(write)
    }

    /// Runs `work` on the background writes' thread once those asked before it are done, such
    /// as giving back the memory they held.
    public func afterBackgroundWrites(_ work: @escaping @Sendable () -> Void) {
        if !writer.add(work) { work() }
    }

    /// Waits until the writes made in the background are done.
    public func finishBackgroundWrites() {
        writer.waitUntilDone()
    }

    /// Runs `body` in one read transaction.
    ///
    /// A plain deferred transaction, not GRDB's `read`: that one sets `PRAGMA query_only` on
    /// and off around each read, and every such pragma expires the connection's prepared
    /// statements, so each query was compiled again (a third of a source event's time).
    func read<T>(_ what: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        writer.waitUntilDone()
        do {
            return try database.writeWithoutTransaction { try Self.transaction(.deferred, in: $0, body) }
        } catch {
            throw Self.failure(at: path, what, error)
        }
    }

    /// Runs `body` in a transaction of `kind` that commits when it returns and rolls back when
    /// it throws: reads begin deferred; writes begin immediate, taking the write lock first, so
    /// a `handle` writing in another process makes them wait (the busy timeout) rather than fail.
    ///
    /// Its own `BEGIN` and `COMMIT`, compiled once per connection, rather than GRDB's
    /// `inTransaction`, which compiles both again for every transaction.
    private static func transaction<T>(
        _ kind: Database.TransactionKind, in database: Database, _ body: (Database) throws -> T
    ) throws -> T {
        try database.cachedStatement(sql: "BEGIN \(kind.rawValue)").execute()
        do {
            let result = try body(database)
            try database.cachedStatement(sql: "COMMIT").execute()
            return result
        } catch {
            // Some errors end the transaction themselves; GRDB's rollback allows for that.
            try? database.rollback()
            throw error
        }
    }

    /// Whether SQLite's `integrity_check` finds the file sound.
    public func isIntact() throws(StoreError) -> Bool {
        try read("check the database") {
            try String.fetchOne($0.cachedStatement(sql: "PRAGMA integrity_check")) == "ok"
        }
    }

    /// The error of an access to the database at `path` that failed doing `what`.
    private static func failure(at path: String, _ what: String, _ error: any Error) -> StoreError {
        StoreError(.failed, "\(path): cannot \(what): \(describe(error))", underlyingError: error)
    }

    /// The cause of `error` in words: SQLite's message, or the system's for a file error
    /// (Foundation's own description is a dump of its user info).
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        let cocoa = error as NSError
        let underlying = (cocoa.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let posix = [cocoa, underlying].compactMap { $0 }.first {
            $0.domain == NSPOSIXErrorDomain
        }
        if let posix { return String(cString: strerror(Int32(posix.code))) }
        return cocoa.domain == NSCocoaErrorDomain ? cocoa.localizedDescription : String(describing: error)
    }
}
