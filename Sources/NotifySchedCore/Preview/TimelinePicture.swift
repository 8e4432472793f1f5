/// Timelines drawn for a person to read at a glance (`preview --out`): `svg` draws each zone's
/// timeline as a panel, the entries as rows and the days as columns (weekends shaded), each
/// occurrence a mark where it is due, coloured by its outcome, and each change of the zone's
/// offset a dashed line; `html` holds the picture with the tables.
public struct TimelinePicture: Sendable {
    public let listing: TimelineListing

    public init(_ listing: TimelineListing) {
        self.listing = listing
    }

    /// The colour of each outcome's marks: green, amber and red; the legend names each.
    static func colour(of outcome: TimelineOutcome) -> String {
        switch outcome {
        case .shows: "#2e7d32"
        case .folded: "#f9a825"
        case .suppressed: "#c62828"
        }
    }

    /// Marks carry a tooltip (`<title>`) only up to this many, so that a picture of a hundred
    /// thousand occurrences stays a few megabytes.
    static let tooltipLimit = 5_000

    private static let margin = 16
    private static let labelWidth = 210
    private static let rowHeight = 16
    private static let panelHeader = 56
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    /// By `CivilDateTime.weekday`, Sunday first.
    private static let weekdayInitials = ["S", "M", "T", "W", "T", "F", "S"]

    /// The width of the plot: 28 points a day, within bounds that keep a year readable.
    private func plotWidth(of window: Range<Instant>) -> Int {
        let days = Int((window.upperBound - window.lowerBound).microseconds / TimeSpan.days(1).microseconds)
        return min(max(days * 28, 560), 1_460)
    }

    /// The picture as an SVG document.
    public var svg: String {
        let width =
            Self.margin * 2 + Self.labelWidth + (listing.timelines.map { plotWidth(of: $0.window) }.max() ?? 560)
        let panelHeight = Self.panelHeader + listing.entries.count * Self.rowHeight + Self.margin
        let height = 48 + panelHeight * listing.timelines.count
        let marks = listing.timelines.reduce(0) { $0 + $1.occurrences.count }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">
            <rect width="\(width)" height="\(height)" fill="#ffffff"/>
            <text x="\(Self.margin)" y="22" font-size="15" font-weight="bold">notify-sched preview</text>

            """
        var x = Self.margin + 200
        for outcome in TimelineOutcome.allCases {
            let count = listing.timelines.reduce(0) { $0 + $1.occurrences.count { $0.outcome == outcome } }
            svg += """
                <rect x="\(x)" y="12" width="4" height="12" fill="\(Self.colour(of: outcome))"/>\
                <text x="\(x + 8)" y="22">\(outcome.rawValue) \(count)</text>

                """
            x += 110
        }
        svg += """
            <line x1="\(x)" y1="12" x2="\(x)" y2="24" stroke="#6a1b9a" stroke-dasharray="3 2"/>\
            <text x="\(x + 6)" y="22">change of UTC offset</text>

            """
        var top = 48
        for timeline in listing.timelines {
            svg += panel(timeline, top: top, tooltips: marks <= Self.tooltipLimit)
            top += panelHeight
        }
        return svg + "</svg>\n"
    }

    /// One zone's panel, its top at `top`.
    private func panel(_ timeline: Timeline, top: Int, tooltips: Bool) -> String {
        let zone = timeline.zone
        let window = timeline.window
        let plot = plotWidth(of: window)
        let left = Self.margin + Self.labelWidth
        let length = Double((window.upperBound - window.lowerBound).microseconds)
        func x(_ instant: Instant) -> Double {
            let clamped = min(max(instant, window.lowerBound), window.upperBound)
            return Double(left) + Double((clamped - window.lowerBound).microseconds) / length * Double(plot)
        }
        let rows = listing.entries
        let plotTop = top + Self.panelHeader - 8
        let plotBottom = plotTop + rows.count * Self.rowHeight
        let offsets = [zone.offset(at: window.lowerBound), zone.offset(at: window.upperBound.previousMicrosecond)]
        let caption =
            "\(zone.identifier): \(zone.tableMinute(at: window.lowerBound)) to \(zone.tableMinute(at: window.upperBound))"
            + ", UTC\(ZoneOffset.hoursAndMinutes(offsets[0].seconds))"
            + (offsets[0] == offsets[1] ? "" : " then UTC\(ZoneOffset.hoursAndMinutes(offsets[1].seconds))")
        var svg = """
            <g>
            <text x="\(Self.margin)" y="\(top + 12)" font-size="13" font-weight="bold">\(Self.escaped(caption))</text>

            """
        // The days, from local midnight to local midnight: weekends shaded, a line and a label each.
        let firstDay = zone.civil(at: window.lowerBound).daysSinceEpoch
        let lastDay = zone.civil(at: window.upperBound.previousMicrosecond).daysSinceEpoch
        let perDay = Double(plot) * Double(TimeSpan.days(1).microseconds) / length
        for day in firstDay...lastDay {
            let midnight = CivilDateTime(midnightOfDay: day)
            let start = x(zone.instant(forFloating: midnight))
            let end = x(zone.instant(forFloating: CivilDateTime(midnightOfDay: day + 1)))
            if midnight.weekday == 0 || midnight.weekday == 6 {
                svg += rectangle(
                    x: start, y: Double(plotTop), width: end - start, height: Double(plotBottom - plotTop),
                    fill: "#f1f1f1")
            }
            svg +=
                "<line x1=\"\(Self.number(start))\" y1=\"\(plotTop - 22)\" x2=\"\(Self.number(start))\" y2=\"\(plotBottom)\" stroke=\"#dddddd\"/>\n"
            let labelled = perDay >= 16 || midnight.day == 1 || midnight.weekday == 1
            guard labelled, end - start >= 8 else { continue }
            let centre = Self.number((start + end) / 2)
            let dayLabel =
                midnight.day == 1 || day == firstDay
                ? "\(midnight.day) \(Self.monthNames[midnight.month - 1])" : "\(midnight.day)"
            let initial = perDay >= 16 ? Self.weekdayInitials[midnight.weekday] : ""
            svg += """
                <text x="\(centre)" y="\(plotTop - 14)" text-anchor="middle" fill="#666666">\(initial)</text>\
                <text x="\(centre)" y="\(plotTop - 3)" text-anchor="middle">\(dayLabel)</text>

                """
        }
        for change in zone.offsetChanges(in: window) {
            let at = Self.number(x(change.at))
            let jump = change.jump
            let words = (jump > .zero ? "+" : "−") + TimeSpan.seconds(abs(jump.seconds)).rough
            svg += """
                <line x1="\(at)" y1="\(plotTop - 24)" x2="\(at)" y2="\(plotBottom)" stroke="#6a1b9a" stroke-width="1.5" \
                stroke-dasharray="4 3"><title>\(Self.escaped(Self.changeWords(change, zone: zone)))</title></line>\
                <text x="\(at)" y="\(plotTop - 26)" text-anchor="middle" fill="#6a1b9a">\(words)</text>

                """
        }
        var marks: [String: [TimelineOccurrence]] = [:]
        for occurrence in timeline.occurrences {
            marks[occurrence.source + "\n" + occurrence.entryID, default: []].append(occurrence)
        }
        var quiet: [String: QuietEntry] = [:]
        for entry in timeline.quietEntries { quiet[entry.source + "\n" + entry.entryID] = entry }
        for (index, entry) in rows.enumerated() {
            let rowTop = plotTop + index * Self.rowHeight
            let key = entry.source + "\n" + entry.id
            if index % 2 == 1 {
                svg += rectangle(
                    x: Double(Self.margin), y: Double(rowTop), width: Double(Self.labelWidth + plot),
                    height: Double(Self.rowHeight), fill: "#000000", opacity: 0.035)
            }
            let label = Self.escaped(TextTable.cut(entry.id, to: 30, at: .end))
            let quietEntry = quiet[key]
            svg +=
                "<text x=\"\(Self.margin + 4)\" y=\"\(rowTop + 12)\"\(quietEntry == nil ? "" : " fill=\"#888888\"")>\(label)<title>\(Self.escaped(entry.title))</title></text>\n"
            if let quietEntry {
                svg +=
                    "<text x=\"\(left + 6)\" y=\"\(rowTop + 12)\" fill=\"#888888\" font-style=\"italic\">no occurrence: \(Self.escaped(quietEntry.words))</text>\n"
            }
            for occurrence in marks[key] ?? [] {
                let tooltip =
                    tooltips
                    ? "<title>\(Self.escaped("\(entry.id) due \(zone.tableMinute(at: occurrence.due)): \(occurrence.outcome.rawValue)" + (occurrence.reason.map { ", \($0.words)" } ?? "")))</title>"
                    : ""
                svg +=
                    "<rect x=\"\(Self.number(x(occurrence.due) - 1.5))\" y=\"\(rowTop + 3)\" width=\"3\" height=\"10\" fill=\"\(Self.colour(of: occurrence.outcome))\">\(tooltip)</rect>\n"
            }
        }
        if let cut = timeline.cutShortAt {
            let at = x(cut)
            svg += rectangle(
                x: at, y: Double(plotTop), width: Double(left + plot) - at, height: Double(plotBottom - plotTop),
                fill: "#ffffff", opacity: 0.8)
            svg +=
                "<text x=\"\(Self.number(at + 6))\" y=\"\(plotTop + 12)\" fill=\"#c62828\">stopped at the limit of \(PreviewRun.occurrenceLimit) occurrences</text>\n"
        }
        return svg + "</g>\n"
    }

    private func rectangle(x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1)
        -> String
    {
        let faded = opacity < 1 ? " fill-opacity=\"\(Self.number(opacity))\"" : ""
        return
            "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" fill=\"\(fill)\"\(faded)/>\n"
    }

    /// A coordinate to a tenth of a point: `12.5`, `300`.
    private static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// `2026-03-29 02:00 → 03:00 in Europe/Berlin (UTC+02:00)`.
    static func changeWords(_ change: OffsetChange, zone: ZoneRules) -> String {
        "\(change.wallClockBefore.isoDate) \(change.wallClockBefore.clockTime) → \(change.wallClockAfter.clockTime) "
            + "in \(zone.identifier) (UTC\(ZoneOffset.hoursAndMinutes(change.after.seconds)))"
    }

    /// `text` as XML and HTML character data: markup characters as entities, and the control
    /// characters XML has no place for (a hostile feed's) as U+FFFD.
    static func escaped(_ text: String) -> String {
        let marked = MarkupText.escaped(text)
        guard marked.unicodeScalars.contains(where: isForbidden) else { return marked }
        return String(String.UnicodeScalarView(marked.unicodeScalars.map { isForbidden($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF || (0x7F...0x9F).contains(scalar.value)
    }
}

extension TimelinePicture {
    /// A page holding the picture, then each zone's table: when each popup shows or the
    /// occurrence is decided, the outcome, the entry, its title or why it does not show, and when
    /// it was due; then the entries without an occurrence.
    public var html: String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>notify-sched preview</title>
            <style>
            body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.5em; color: #222222; }
            table { border-collapse: collapse; font-size: 13px; margin-bottom: 1em; }
            th, td { padding: 2px 10px; border-bottom: 1px solid #eeeeee; text-align: left; white-space: nowrap; }
            td.why { white-space: normal; }
            .shows { color: \(Self.colour(of: .shows)); }
            .folded { color: #a07800; }
            .suppressed { color: \(Self.colour(of: .suppressed)); }
            </style>
            </head>
            <body>
            <h1>notify-sched preview</h1>
            <p>\(Self.escaped(Set(listing.entries.map(\.source)).sorted().joined(separator: ", ")))</p>

            """
        page += svg
        for timeline in listing.timelines {
            let zone = timeline.zone
            page += """
                <h2>\(Self.escaped(zone.identifier))</h2>
                <table>
                <thead><tr><th>At</th><th>Outcome</th><th>Entry</th><th>Title or reason</th><th>Due</th></tr></thead>
                <tbody>

                """
            for occurrence in timeline.occurrences {
                let why = occurrence.reason?.words ?? listing.title(occurrence.entryID, of: occurrence.source)
                let due = occurrence.due == occurrence.at ? "" : zone.tableMinute(at: occurrence.due)
                page += """
                    <tr class="\(occurrence.outcome.rawValue)"><td>\(zone.tableMinute(at: occurrence.at))</td>\
                    <td>\(occurrence.outcome.rawValue)</td><td>\(Self.escaped(occurrence.entryID))</td>\
                    <td class="why">\(Self.escaped(why))</td><td>\(due)</td></tr>

                    """
            }
            page += "</tbody>\n</table>\n"
            if !timeline.quietEntries.isEmpty {
                page += "<ul>\n"
                for quiet in timeline.quietEntries {
                    page +=
                        "<li>\(Self.escaped(quiet.entryID)): no occurrence in the window: \(Self.escaped(quiet.words))</li>\n"
                }
                page += "</ul>\n"
            }
        }
        return page + "</body>\n</html>\n"
    }
}
