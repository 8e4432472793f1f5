import ArgumentParser
import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched test`: a popup through the same path as a scheduled one.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Show a test popup the way a scheduled notification is shown.",
        discussion: """
            Prints `delivered: ID`; `notify-sched handle ID` acts on it later. With --wait it stays \
            until the popup is clicked or closed and prints `action: KEY` or `closed: REASON`; a click \
            on the popup or its action button opens the action URL before it exits. A running daemon \
            shows the popup and hears its buttons after the command exits; without a daemon and \
            without --wait nothing would, so the popup has no buttons and says to run \
            `notify-sched handle ID --no-alert` instead. Exit status 1 when \
            the URL's scheme is not allowed, no notification server answers, or the URL cannot be opened. \
            It takes notify-send's SUMMARY [BODY], -u, -t, -i, -h and -w with their meanings (so -h is a \
            hint here, and -? or --help the help); -a, -A and --timeout, which would mean something \
            else, say what to use instead.
            """,
        // -h is notify-send's --hint; notify-send's help is -?.
        helpNames: [.long, .customShort("?")])

    @Argument(help: ArgumentHelp("The popup's title, as notify-send's SUMMARY (or --title).", valueName: "summary"))
    var summary: String?

    @Argument(help: ArgumentHelp("The popup's body, as notify-send's BODY (or --body).", valueName: "body"))
    var bodyText: String?

    @Option(help: "The popup's title (default: a title that says it is a test).")
    var title: String?

    @Option(help: "The popup's body: plain text, or markup with --markup.")
    var body: String?

    @Flag(
        help:
            "The body is markup (<b>, <i>, <u>, <a href>), cleaned to that and shown as text where the server reads none."
    )
    var markup = false

    @Option(name: .customLong("action-label"), help: "The action button's label (default: \"More Info\", translated).")
    var actionLabel: String?

    @Option(name: .customLong("action-url"), help: "The URL the action button and a click on the popup open.")
    var actionURL: String?

    @Option(name: [.customShort("u"), .long], help: "low, normal or critical.")
    var urgency: Urgency = .normal

    @Option(
        name: [.customShort("t"), .customLong("expire-time")],
        help: ArgumentHelp(
            "How long the popup stays, in milliseconds as notify-send takes it (0: until it is closed; "
                + "default: as the server likes).",
            valueName: "milliseconds"))
    var expireTime: UInt32?

    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp("An icon name from the icon theme, or a file path.", valueName: "icon"))
    var icon: String?

    @Option(
        name: [.customShort("h"), .customLong("hint")],
        help: ArgumentHelp(
            "A hint as notify-send takes it: string:sound-name:NAME (a sound-theme sound, for a server that plays "
                + "them) or string:image-path:PATH (a picture's absolute path or file:// URI); repeatable.",
            valueName: "type:name:value"))
    var hints: [String] = []

    @Option(
        name: .customLong("in"), help: ArgumentHelp("Show it after this long (90s, 5min, 1h).", valueName: "duration"))
    var delay: String?

    @Flag(
        name: [.customShort("w"), .long], help: "Stay until the popup is acted on or closed, and print what happened.")
    var wait = false

    @OptionGroup var schemes: SchemeOptions
    private var allowedSchemes: [String] { schemes.allowedSchemes }

    // notify-send's options that mean something else here, and the fetch time-out other
    // commands take: each says what to use instead rather than being taken for something else.
    @Option(name: [.customShort("a"), .customLong("app-name")], help: .hidden)
    var appName: String?

    @Option(name: [.customShort("A"), .customLong("action")], help: .hidden)
    var actions: [String] = []

    @Option(name: .customLong("timeout"), help: .hidden)
    var fetchTimeout: String?

    func validate() throws {
        if appName != nil {
            throw ValidationError(
                "-a/--app-name: popups always come from notify-sched (their desktop-entry hint names it)")
        }
        if !actions.isEmpty {
            throw ValidationError(
                "-A/--action: a notify-sched popup has one action, which opens a URL: use --action-label LABEL "
                    + "--action-url URL (and --wait to see it clicked)")
        }
        if fetchTimeout != nil {
            throw ValidationError(
                "--timeout is how long other commands wait for a portal; for how long the popup stays, use "
                    + "-t/--expire-time MILLISECONDS")
        }
        if summary != nil, title != nil { throw ValidationError("give the title once: as SUMMARY or with --title") }
        if bodyText != nil, body != nil { throw ValidationError("give the body once: as BODY or with --body") }
        if let delay, TimeSpan.parse(delay) == nil {
            throw ValidationError("--in: \"\(delay)\" is not a duration (such as 90s, 5min, 1h)")
        }
        if actionLabel != nil, actionURL == nil {
            throw ValidationError("--action-label needs --action-url")
        }
        _ = try popupHints()
    }

    /// The sound and the image the `--hint`s name.
    ///
    /// - Throws: `ValidationError` naming a hint that is malformed or not one of those two.
    private func popupHints() throws -> (sound: String?, image: String?) {
        var (sound, image): (String?, String?) = (nil, nil)
        for hint in hints {
            let parts = hint.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0] == "string", !parts[2].isEmpty else {
                throw ValidationError(
                    "--hint \"\(hint)\": give string:sound-name:NAME or string:image-path:PATH")
            }
            switch parts[1] {
            case "sound-name":
                sound = parts[2]
            case "image-path", "image_path":
                guard NotificationContent.isImageLocation(parts[2]) else {
                    throw ValidationError("--hint \"\(hint)\": the image must be an absolute path or a file:// URI")
                }
                image = parts[2]
            default:
                throw ValidationError(
                    "--hint \"\(hint)\": notify-sched popups take the sound-name and image-path hints only")
            }
        }
        return (sound, image)
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var action: NotificationAction?
        if let actionURL {
            do {
                action = NotificationAction(
                    label: actionLabel,
                    url: try ActionURL(actionURL, policy: URLPolicy(extraSchemes: allowedSchemes)))
            } catch {
                throw CommandError(.failure, "--action-url: \(error.message)")
            }
        }
        let title = title ?? summary
        let (sound, image) = try popupHints()
        let content = NotificationContent(
            title: title ?? Messages.catalog.translated("notify-sched test"),
            body: body ?? bodyText
                ?? (title == nil ? Messages.catalog.translated("This is a test notification from notify-sched.") : ""),
            icon: icon, urgency: urgency, action: action,
            timeout: expireTime.map { .milliseconds(Int64($0)) }, sound: sound, image: image, markup: markup)
        if allowedSchemes.isEmpty, try testThroughDaemon(content) { return }
        let session = try HandlingSession(schemes: allowedSchemes, environment: environment)
        let id = "test-" + String(format: "%08x", UInt32.random(in: .min ... .max))
        var failure: CommandError?
        let deliver = {
            let occurrence = DeliveredOccurrence(
                id: id, source: DeliveredOccurrence.testSource, entryID: id, dialect: .native, content: content,
                deliveredAt: WallClock.now())
            do {
                // Without --wait nothing hears a click once this command exits.
                try session.popups.deliver(occurrence, answerable: wait)
                // Recorded for `handle ID`; no server instance, so no daemon ever shows it again.
                try session.store.recordDelivery(
                    LedgerRecord(
                        occurrenceID: id, source: occurrence.source, entryID: id, occurrence: occurrence.deliveredAt,
                        popupID: session.notifier.popupID(of: .scheduled(id)), outcome: .delivered,
                        recordedAt: occurrence.deliveredAt),
                    of: occurrence, server: nil)
                Output.standardOutput.write("delivered: \(id)")
                if wait, let server = try? session.notifier.currentServer(), !server.showsButtons {
                    Output.standardError.write(
                        Messages.catalog.translated(
                            "notify-sched: the notification server ({server}) shows no buttons; waiting for the popup "
                                + "to close (or run: {command})",
                            ["server": server.name, "command": "notify-sched handle \(id) --no-alert"]))
                }
            } catch let error as CoreError {
                failure = CommandError(.failure, "notify-sched: \(error.message)")
            } catch let error as StoreError {
                failure = CommandError(.failure, "notify-sched: \(error.message)")
            } catch {
                failure = CommandError(.failure, "notify-sched: \(error)")
            }
        }
        if let delay = delay.flatMap(TimeSpan.parse) {
            session.loop.after(delay) {
                deliver()
                if failure != nil || !wait { session.loop.stop() }
            }
            session.loop.run()
        } else {
            deliver()
        }
        if let failure { throw failure }
        if wait {
            session.waitForOutcome()
            try session.finish()
        }
    }

    /// Has the running daemon show the popup, so that its buttons keep working after this
    /// command exits; false when no daemon runs. The title, body and button label are sent as
    /// this command made them, in the caller's language.
    private func testThroughDaemon(_ content: NotificationContent) throws(CommandError) -> Bool {
        let delay = delay.flatMap(TimeSpan.parse) ?? .zero
        var content = content
        if let action = content.action {
            content.action?.label = HandlingPolicy(catalog: Messages.catalog).actionLabel(of: action)
        }
        let call = ControlCall.test(content: content, delay: delay, wait: wait)
        guard let reply = try RunningDaemon.call(call, waits: wait || delay > .zero) else { return false }
        guard case .tested(let id, let status, let report) = reply else {
            throw CommandError(.failure, "notify-sched: the daemon's answer to Test is malformed")
        }
        if !id.isEmpty { Output.standardOutput.write("delivered: \(id)") }
        if status == "failed", id.isEmpty { throw CommandError(.failure, "notify-sched: \(report)") }
        try HandleCommand.finish(status: status, report: report, id: id)
        return true
    }
}

extension Urgency: ExpressibleByArgument {}
