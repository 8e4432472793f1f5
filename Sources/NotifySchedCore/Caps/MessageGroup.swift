/// A feed-level group of entries (`groups` of a portal feed): its caps count the impressions
/// of every member, and a disabled group shows none of them. Firefox's Messaging System's
/// message groups.
public struct MessageGroup: Sendable, Hashable {
    /// The name entries give in their `groups`.
    public var id: String
    /// The caps on the members' impressions together; nil for none.
    public var frequency: FrequencyCap?
    /// False silences every member.
    public var enabled: Bool

    /// Whether `id` may name a group: not empty, and no control characters (a line break
    /// would split it where the state database lists an impression's groups).
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    public init(id: String, frequency: FrequencyCap? = nil, enabled: Bool = true) {
        self.id = id
        self.frequency = frequency
        self.enabled = enabled
    }
}
