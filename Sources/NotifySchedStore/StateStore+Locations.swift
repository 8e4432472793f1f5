import GRDB
import NotifySchedCore

// Sources are identified by their canonical location (`SourceLocation`); state written under
// another spelling of the same location (by a version that kept the path as typed) moves to it.
extension StateStore {
    /// The tables that keep state by source, and whether a source may have several rows in
    /// each without a conflict: where the key includes the source, a row that the canonical
    /// location already has wins over the one moved.
    private static let tablesBySource: [(table: String, conflicts: Bool)] = [
        ("ledger", false), ("waiting_popup", false), ("handling_mark", false), ("source_state", true),
        ("reminder", true), ("news_shown", true), ("queue_index", true), ("event_progress", true),
        ("meta_rotation", true), ("followed_batch", false), ("meta_shown", true), ("range_shown", true),
        ("meta_closing", true), ("impression", false),
    ]

    /// Moves the state of every source whose stored name is not its canonical location to that
    /// location, in one transaction: its ledger, handling state, event progress, queue indexes,
    /// health and followed entries. Where both names have the same row (the state of one iNotify
    /// source, a reminder of one entry), the canonical location's stays.
    ///
    /// - Parameter canonical: The canonical form of a stored source name
    ///   (`SourceLocation.canonical(_:)`).
    /// - Returns: What moved, as (stored name, canonical location) pairs.
    /// - Complexity: one read of each table's sources, then a write per moved source and table.
    @discardableResult
    public func moveSources(
        toCanonical canonical: (String) -> String
    ) throws(StoreError) -> [(from: String, to: String)] {
        try write("move sources to their canonical locations") { database in
            var names: Set<String> = []
            for (table, _) in Self.tablesBySource {
                names.formUnion(
                    try String.fetchAll(database.cachedStatement(sql: "SELECT DISTINCT source FROM \(table)")))
            }
            var moved: [(from: String, to: String)] = []
            for name in names.sorted() {
                let target = canonical(name)
                guard target != name else { continue }
                for (table, conflicts) in Self.tablesBySource {
                    try database.cachedStatement(
                        sql: "UPDATE \(conflicts ? "OR IGNORE " : "")\(table) SET source = ? WHERE source = ?"
                    ).execute(arguments: [target, name])
                    if conflicts {
                        try database.cachedStatement(sql: "DELETE FROM \(table) WHERE source = ?").execute(arguments: [
                            name
                        ])
                    }
                }
                moved.append((name, target))
            }
            return moved
        }
    }
}
