import ArgumentParser

/// A failed command: what to tell the user and which exit status to leave with.
///
/// The messages are already complete lines (one per problem); the runner prints them to
/// standard error and exits with `exitCode`.
public struct CommandError: Error, Sendable {
    /// The exit statuses of DESIGN §2.
    public enum Status: Int32, Sendable {
        /// Bad input or a failed operation.
        case failure = 1
        /// The command line itself is wrong.
        case usage = 2
        /// `handle` was given an id notify-sched did not schedule.
        case notOurs = 3
    }

    public var status: Status
    /// Lines for standard error; may be empty when the command already printed its problems.
    public var lines: [String]

    public init(_ status: Status, _ lines: [String]) {
        self.status = status
        self.lines = lines
    }

    public init(_ status: Status, _ line: String) {
        self.init(status, [line])
    }
}
