import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `notify-sched show-popup FEED ENTRY`: the popup a daemon would show when the entry falls
/// due, laid out for the notification server that runs, with buttons that answer; it stays until
/// the popup is closed or this command is stopped, and nothing is recorded. `preview --servers`
/// renders each popup of a feed with it.
struct ShowPopupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-popup", abstract: "Show an entry's popup as the daemon would, recording nothing.",
        shouldDisplay: false)

    @Argument(help: ArgumentHelp("The feed file or URL.", valueName: "feed"))
    var feed: String

    @Argument(help: ArgumentHelp("The entry's id.", valueName: "entry"))
    var entry: String

    @Option(help: ArgumentHelp("The user's locale, such as fr_FR, for localized texts.", valueName: "locale"))
    var locale: String?

    @OptionGroup var options: FeedOptions

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var context = try options.context(for: [feed])
        if let locale { context.parser.language = LanguagePreference(localeName: locale) }
        let loaded = context.load(feed)
        context.close()
        for line in loaded.problemLines { Output.standardError.write(line) }
        guard let schedule = loaded.schedule else {
            throw CommandError(.failure, "notify-sched: \(feed) has errors: no popup to show")
        }
        guard let entry = schedule.entries.first(where: { $0.id == entry }) else {
            throw CommandError(.failure, "notify-sched: \(feed) has no entry \"\(self.entry)\"")
        }
        let session = try HandlingSession(schemes: options.allowedSchemes, environment: environment)
        let occurrence = DeliveredOccurrence(
            id: "preview-" + String(format: "%08x", UInt32.random(in: .min ... .max)), entry: entry,
            source: schedule.source, deliveredAt: WallClock.now())
        do {
            try session.popups.deliver(occurrence, answerable: true)
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        Output.standardOutput.write("delivered: \(occurrence.id)")
        session.waitForOutcome()
    }
}
