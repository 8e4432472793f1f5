import ArgumentParser

/// The `notify-sched` command and its subcommands.
public struct NotifySched: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "notify-sched",
        abstract: "Schedule desktop notifications from portal feeds.",
        subcommands: []
    )

    public init() {}
}
