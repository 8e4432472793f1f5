import ArgumentParser
import NotifySchedCore

/// The `notify-sched` command and its subcommands.
public struct NotifySched: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "notify-sched",
        abstract: "Schedule desktop notifications from portal feeds.",
        discussion: """
            Exit status: 0 on success, 1 on bad input or a failed operation, 2 on a usage error, \
            3 when `handle` is given an id notify-sched did not schedule.
            """,
        // Every subcommand takes `--version` too, as the command stack defines one.
        version: "notify-sched \(ProductVersion.current)",
        subcommands: [
            ValidateCommand.self, ListCommand.self, TestCommand.self, HandleCommand.self, DaemonCommand.self,
            EventCommand.self, StatusCommand.self, HistoryCommand.self, KeygenCommand.self, SignCommand.self,
            SyncCommand.self, PreviewCommand.self, ReceiptsCommand.self, ShowPopupCommand.self,
        ]
    )

    public init() {}
}
