import NotifySchedCore

/// `ids` followed at positions 0, 1, … of their schedule, in order.
func followed(_ ids: [String]) -> [FollowedEntry] {
    ids.enumerated().map { FollowedEntry(id: $1, position: $0) }
}
