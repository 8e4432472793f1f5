import Foundation

/// The order in which iNotify offers its messages: by key with `caseInsensitiveCompare`
/// (case-folded, not numeric), newest = greatest first unless oldest-first is configured.
///
/// This is string order, not date order: `2011/9/30` is newer than `2011/10/01`.
public enum INotifyOrder {
    /// The key iNotify shows next from `keys`, or nil when there are none.
    ///
    /// Keys equal under case folding keep their given order, so the choice is deterministic.
    public static func next(in keys: [String], oldestFirst: Bool) -> String? {
        let sorted = keys.enumerated().sorted { lhs, rhs in
            switch lhs.element.caseInsensitiveCompare(rhs.element) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs.offset < rhs.offset
            }
        }.map(\.element)
        return oldestFirst ? sorted.first : sorted.last
    }
}
