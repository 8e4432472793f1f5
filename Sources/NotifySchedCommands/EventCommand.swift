import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedDaemon
import NotifySchedDesktop

/// `notify-sched event NAME`: post a named event to the running daemon.
struct EventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Post a named event to the running daemon.",
        discussion: """
            iSmartNews feeds show messages on events, filtered by their ON=n|OFF=m patterns. The daemon \
            posts session:start itself; anything else (app:activate, review:show_review_manually, your \
            own names) comes from here. Prints what the event showed; exits 1 when no daemon runs.
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
        do {
            let result = try BusService.call(
                Daemon.busName, path: Daemon.objectPath, interface: Daemon.interface, method: "PostEvent",
                arguments: [name], timeout: .seconds(10))
            for line in result { Output.standardOutput.write(line) }
        } catch let error as DesktopError where error.code == .noService {
            throw CommandError(
                .failure,
                Messages.catalog.translated(
                    "notify-sched: no notify-sched daemon is running (start one with `notify-sched daemon` or "
                        + "`systemctl --user start notify-sched`): {cause}", ["cause": error.message]))
        } catch {
            throw CommandError(.failure, "notify-sched: \(error)")
        }
    }
}
