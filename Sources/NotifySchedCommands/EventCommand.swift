import ArgumentParser
import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop

/// `notify-sched event NAME`: post a named event to the running daemon.
struct EventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Post a named event to the running daemon.",
        discussion: """
            iSmartNews feeds, and native entries with `events`, show messages on events, filtered by \
            their ON=n|OFF=m patterns. The daemon posts session:start (also app:didfinishlaunching, or \
            app:didfinishlaunchingafterupgrade after the application version changed), session:resume and \
            session:unlock itself; anything else (app:activate, review:show_review_manually, your own \
            names) comes from here. Prints what the event showed; exits 1 when no daemon runs.
            """
    )

    @Argument(help: ArgumentHelp("The event's name (case does not matter).", valueName: "name"))
    var name: String

    func validate() throws {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("the event needs a name")
        }
    }

    func run() throws {
        guard case .posted(let result) = try RunningDaemon.call(.postEvent(name: name)) else {
            throw CommandError(.failure, RunningDaemon.notRunning)
        }
        Output.standardOutput.write(result)
    }
}
