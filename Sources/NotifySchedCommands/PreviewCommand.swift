import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `notify-sched preview FEED…`: what a feed will do on a desktop before it is published: the
/// validate report, then every occurrence of a window as the daemon's own core decides it, in
/// each zone asked for.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show when, for whom and how a feed's popups will show, before publishing it.",
        discussion: """
            Checks the feeds as validate does (an error stops the preview; warnings are shown), then runs \
            the daemon's own decisions in virtual time over the window, as a daemon started at --from on a \
            desktop with the zone, locale, tags, application version and install id given would take them, \
            every popup shown and left unanswered. Prints each occurrence with its outcome: shows, folded \
            (a later popup stands for it) or suppressed, with the reason; and each entry with no \
            occurrence in the window, with why. The validate report goes to standard error with --json.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Feed files or http(s):// URLs to preview (JSON, XML or binary plist, or iCalendar).", valueName: "feed"))
    var feeds: [String]

    @Option(
        help: ArgumentHelp(
            "When the daemon starts, and the window with it: RFC 3339 (2026-03-29T09:00:00Z; without an offset, "
                + "local time in the zone TZ names, whatever --zone says) or @SECONDS (default: now).",
            valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("How many days the window lasts (1 to 366).", valueName: "n"))
    var days = 30

    @Option(
        name: .customLong("zone"),
        help: ArgumentHelp(
            "A time zone to preview in, an IANA name such as Pacific/Auckland (repeatable; default: TZ, else the "
                + "system zone).",
            valueName: "zone"))
    var zoneNames: [String] = []

    @Option(
        help: ArgumentHelp(
            "The user's locale, such as fr_FR: the language of localized texts and targeting's locale "
                + "(default: the environment's).",
            valueName: "locale"))
    var locale: String?

    @Option(
        help: ArgumentHelp("The user's tags, comma-separated, which targeting reads.", valueName: "tags"))
    var tags: String?

    @Option(
        name: .customLong("version"),
        help: ArgumentHelp(
            "The application version the feeds are read for: minVersion/maxVersion and targeting's app.version.",
            valueName: "version"))
    var applicationVersion: String?

    @Option(
        name: .customLong("install-id"),
        help: ArgumentHelp(
            "The desktop's install id, which places it in rollouts (default: none, which no rollout takes).",
            valueName: "id"))
    var installID: String?

    @Option(
        name: .customLong("max-popups"),
        help: ArgumentHelp(
            "The user's bound on popups, as max-popups in the configuration, such as 8/1d (default: none).",
            valueName: "n/span"))
    var maxPopups: String?

    @Option(
        name: .customLong("quiet-hours"),
        help: ArgumentHelp(
            "The user's quiet hours, as quiet-hours in the configuration, such as 22:00-07:00 (default: none).",
            valueName: "hh:mm-hh:mm"))
    var quietHours: String?

    @Option(
        help: ArgumentHelp(
            "Also write timeline.svg (entries as rows, days as columns, each occurrence a mark coloured by its "
                + "outcome, changes of UTC offset drawn) and timeline.html (the picture with the tables) to this "
                + "folder, made if missing.",
            valueName: "dir"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "With --out, also show each distinct popup of the feeds on these notification servers, each in a "
                + "private Xvfb and D-Bus session, as the daemon would show it: comma-separated names "
                + "(notification-daemon, dunst, xfce4-notifyd, mate-notification-daemon, lxqt-notificationd, "
                + "gnome-shell, plasma-workspace) or \"installed\" for every one installed here. Writes "
                + "DIR/popups/SERVER/NAME.png, a contact sheet DIR/popups/SERVER.png and what each server left out.",
            valueName: "names"))
    var servers: String?

    @Flag(help: "Print a JSON array instead of tables.")
    var json = false

    @OptionGroup var options: FeedOptions

    func validate() throws {
        guard !feeds.isEmpty else { throw ValidationError("name at least one feed to preview") }
        guard (1...366).contains(days) else { throw ValidationError("--days must be between 1 and 366") }
        if let from, ListCommand.instant(from, userZone: .utc) == nil {
            throw ValidationError(
                "--from \"\(from)\" is not a time (RFC 3339 such as 2026-03-29T09:00:00Z, or @SECONDS)")
        }
        if let servers {
            guard out != nil else { throw ValidationError("--servers needs --out DIR for the pictures") }
            let names = PopupRendering.serverNames(servers)
            if let unknown = names.first(where: { !PopupRendering.knownServers.contains($0) }) {
                throw ValidationError(
                    "--servers: \"\(unknown)\" is not a server notify-sched knows: installed, or some of "
                        + PopupRendering.knownServers.joined(separator: ", "))
            }
        }
        if let quietHours, QuietHours(parsing: quietHours) == nil {
            throw ValidationError("--quiet-hours \"\(quietHours)\" is not two times such as 22:00-07:00")
        }
        if let maxPopups, PopupBound(parsing: maxPopups) == nil {
            throw ValidationError("--max-popups \"\(maxPopups)\" is not a count and a span such as 8/1d")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let locations = feeds.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var context = try options.context(for: locations)
        defer { context.close() }
        if let locale { context.parser.language = LanguagePreference(localeName: locale) }
        let zones =
            try zoneNames.isEmpty
            ? [context.userZone]
            : zoneNames.map { name in
                guard let zone = context.parser.zones.zone(named: name) else {
                    throw CommandError(
                        .failure,
                        "notify-sched: --zone \"\(name)\" is not a zone of the tz database (such as Europe/Berlin)")
                }
                return zone
            }
        let start =
            from.flatMap { ListCommand.instant($0, userZone: context.userZone) }
            ?? Instant(secondsSinceEpoch: WallClock.now().secondsSinceEpoch)
        let report = json ? Output.standardError : Output.standardOutput
        var timelines: [Timeline] = []
        var named: [Schedule] = []
        for (index, zone) in zones.enumerated() {
            // The first zone's reading gives the validate report; the others read the feeds again.
            let schedules = try schedules(
                of: locations, in: zone, context: &context, reportingTo: index == 0 ? report : nil)
            if index == 0 { named = schedules }
            let profile = PreviewProfile(
                zone: zone, applicationVersion: applicationVersion, tags: Configuration.tags(tags ?? ""),
                language: context.parser.language, installID: installID,
                maxPopups: maxPopups.flatMap(PopupBound.init(parsing:)),
                quietHours: quietHours.flatMap(QuietHours.init(parsing:)))
            timelines.append(
                PreviewRun.timeline(of: schedules, for: profile, in: start..<(start + .days(Int64(days)))))
        }
        let listing = TimelineListing(timelines, schedules: named)
        if let out { try write(TimelinePicture(listing), to: out) }
        if let out, let servers {
            try PopupRendering(
                schedules: named, servers: servers,
                arguments: options.arguments + (locale.map { ["--locale", $0] } ?? [])
            ).run(into: out)
        }
        if json {
            for timeline in timelines {
                guard let cut = timeline.cutShortAt else { continue }
                Output.standardError.write(
                    "notify-sched: the timeline in \(timeline.zone.identifier) stops at \(cut.rfc3339), at the limit of "
                        + "\(PreviewRun.occurrenceLimit) occurrences")
            }
            Output.standardOutput.write(try listing.json())
        } else {
            report.write("")
            Output.standardOutput.write(listing.table(width: TerminalWidth.ofStandardOutput(environment: environment)))
        }
    }

    /// The feeds at `locations` parsed in `zone`. With `report`, every feed's validate report
    /// first, before an error stops the preview; without, only the problems of a feed that a
    /// portal failed or changed to since the first reading.
    private func schedules(
        of locations: [String], in zone: ZoneRules, context: inout FeedContext, reportingTo report: Output?
    ) throws(CommandError) -> [Schedule] {
        context.userZone = zone
        context.parser.userZone = zone
        var schedules: [Schedule] = []
        var failed: [String] = []
        for location in locations {
            let feed = context.load(location)
            if report != nil || feed.hasErrors {
                for line in feed.problemLines { Output.standardError.write(line) }
            }
            if let schedule = feed.schedule, !feed.hasErrors {
                if let report {
                    for line in ValidateCommand.report(schedule, path: location) { report.write(line) }
                }
                schedules.append(schedule)
            } else {
                failed.append(location)
            }
        }
        guard failed.isEmpty else {
            let feeds = failed.joined(separator: ", ")
            throw CommandError(
                .failure,
                report == nil
                    ? "notify-sched: \(feeds) could not be read again for --zone \(zone.identifier)"
                    : "notify-sched: \(feeds) \(failed.count == 1 ? "has" : "have") errors: nothing to preview")
        }
        return schedules
    }

    /// Writes the picture and the page into `folder`, made if missing, and says where on
    /// standard error.
    private func write(_ picture: TimelinePicture, to folder: String) throws(CommandError) {
        do {
            try AtomicFile.createFolder(folder)
            for (name, text) in [("timeline.svg", picture.svg), ("timeline.html", picture.html)] {
                let path = (folder as NSString).appendingPathComponent(name)
                try AtomicFile.write(Array(text.utf8), to: path)
                Output.standardError.write("notify-sched: wrote \(path)")
            }
        } catch {
            throw CommandError(.failure, "notify-sched: --out: \(error.message)")
        }
    }
}
