import NotifySchedCore

/// What the daemon answers a call on the control interface (`ControlCall`), typed by its
/// method: the daemon makes one, the bus carries its `values`, and the CLI reads it back with
/// `init(_:values:)`.
public enum ControlReply: Sendable, Equatable {
    /// `PostEvent`: what the event showed, in words.
    case posted(String)
    /// `List`: a page of the listing as a JSON array (`ScheduleListing`), and how many entries
    /// the filter keeps.
    case listed(json: String, total: Int)
    /// `Status`: the daemon's status as a JSON object (`DaemonStatus`).
    case status(json: String)
    /// `Handle` and `Snooze`: `handled`, `failed` or `unknown`, and what happened, a line each.
    case handled(status: String, report: String)
    /// `Test`: the occurrence id (empty when nothing was shown), `delivered`, `handled` or
    /// `failed`, and what happened.
    case tested(id: String, status: String, report: String)
    /// `Sync`: `synced`, or `failed` when a source failed, and what changed, a line each.
    case synced(status: String, report: String)

    /// The reply's out arguments, as the introspection data declares them for its method.
    public var values: [ControlValue] {
        switch self {
        case .posted(let result): [.string(result)]
        case .listed(let json, let total): [.string(json), .unsigned(UInt32(clamping: total))]
        case .status(let json): [.string(json)]
        case .handled(let status, let report), .synced(let status, let report): [.string(status), .string(report)]
        case .tested(let id, let status, let report): [.string(id), .string(status), .string(report)]
        }
    }

    /// Reads the reply to a call of `method` from its out arguments.
    ///
    /// - Throws: `ControlError` with `.badReply` when they are not what `method` answers.
    public init(_ method: ControlCall.Method, values: [ControlValue]) throws(ControlError) {
        let texts = values.compactMap(\.string)
        switch (method, values.count, texts.count) {
        case (.postEvent, 1, 1):
            self = .posted(texts[0])
        case (.list, 2, 1):
            guard let total = values[1].unsigned else { throw Self.malformed(method) }
            self = .listed(json: texts[0], total: Int(total))
        case (.status, 1, 1):
            self = .status(json: texts[0])
        case (.handle, 2, 2), (.snooze, 2, 2):
            self = .handled(status: texts[0], report: texts[1])
        case (.test, 3, 3):
            self = .tested(id: texts[0], status: texts[1], report: texts[2])
        case (.sync, 2, 2):
            self = .synced(status: texts[0], report: texts[1])
        default:
            throw Self.malformed(method)
        }
    }

    private static func malformed(_ method: ControlCall.Method) -> ControlError {
        ControlError(.badReply, "the daemon's answer to \(method.rawValue) is malformed")
    }
}
