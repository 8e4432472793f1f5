import NotifySchedCore
import Testing

@Suite struct ScheduleEntryTests {
    /// An entry keeps its title and body in one string, and the rest of what it says out of line
    /// only when there is any: whichever fields are set, it gives back what it was made with.
    @Test func anEntryGivesBackWhatItWasMadeWith() throws {
        let seed: UInt64 = 0xC0_17E7
        var random = SplitMix64(seed: seed)
        // A scheme in capitals is given back lower-cased, as it was checked.
        let urls = try ["https://example.org/item", "MAILTO:team@example.org"].map {
            try ActionURL($0, policy: URLPolicy())
        }
        for index in 0..<200 {
            let url = urls[index % urls.count]
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
            let content = NotificationContent(
                // A title of 64 KiB or more is kept out of line.
                title: index % 50 == 0
                    ? String(repeating: "t", count: 65_535 + index % 3) : maybe("Title \(index)") ?? "",
                // A body that begins with a combining mark joins the title's last character.
                body: ["", String(repeating: "body ", count: index % 7), "\u{301} accent", "👍🏽 ok"][index % 4],
                icon: maybe("dialog-information"), urgency: Urgency.allCases.randomElement(using: &random)!,
                action: maybe(NotificationAction(label: maybe("Open"), url: url)), timeout: maybe(.seconds(5)),
                sound: maybe("message-new-instant"), image: maybe("/usr/share/pixmaps/debian-logo.png"),
                markup: Bool.random(using: &random))
            let versions = VersionRange(minimum: maybe("1.2"), maximum: maybe("3.0.1"))
            let category = maybe("im.received")
            let expires = maybe(Instant(secondsSinceEpoch: Int64(index) * 86_400))
            // Lateness that is not whole seconds in 32 bits is kept out of line.
            let maxLateness = [
                ScheduleEntry.defaultMaxLateness, .zero, .seconds(90), .milliseconds(1_500), .seconds(-(1 << 31)),
                .seconds(1 << 31), TimeSpan(microseconds: .max),
            ][index % 7]
            let entry = ScheduleEntry(
                id: "e\(index)", dialect: .native, content: content, trigger: .immediate, maxLateness: maxLateness,
                expires: expires, versions: versions, category: category)
            let place = "seed \(seed) case \(index)"
            #expect(entry.content == content, "\(place)")
            #expect(entry.versions == versions, "\(place)")
            #expect(entry.category == category, "\(place)")
            #expect(entry.expires == expires, "\(place)")
            #expect(entry.maxLateness == maxLateness, "\(place)")
        }
    }

    /// An entry keeps a time or a plain repeat from a time with no zone in 9 bytes, a floating
    /// time and a calendar expression with no bounds in a box of their parts, and any other
    /// trigger in a box: whichever it was made with, it gives it back, with the same meaning as
    /// an entry made with an equal trigger.
    @Test func anEntryGivesBackTheTriggerItWasMadeWith() throws {
        let seed: UInt64 = 0x7_1663
        var random = SplitMix64(seed: seed)
        let dublin = zone("Europe/Dublin")
        let expression = try CalendarExpression.parse("Mon..Fri 09:30", zones: systemZones, localZone: dublin)
        for index in 0..<400 {
            let instant = Instant(secondsSinceEpoch: Int64.random(in: 0...4_102_444_800, using: &random))
            let zone = Bool.random(using: &random) ? dublin : nil
            let time =
                Bool.random(using: &random)
                ? FireTime(.absolute(instant), zone: zone)
                : FireTime(.floating(CivilDateTime(instant, offset: 0)), zone: zone)
            let bounds =
                Bool.random(using: &random)
                ? RecurrenceBounds.unbounded
                : RecurrenceBounds(until: instant + .hours(240), count: Bool.random(using: &random) ? 5 : nil)
            let trigger: Trigger =
                switch index % 6 {
                case 0: .once(time)
                case 1, 2:
                    .repeating(
                        first: time, every: RepeatInterval.allCases.randomElement(using: &random)!, bounds: bounds)
                case 3:
                    .calendar(
                        expression, zone: zone, notBefore: Bool.random(using: &random) ? time : nil, bounds: bounds)
                case 4: .events(.local([EventRule(name: "app:activate", patternText: "ON=2")]))
                default: [.immediate, .check, .events(.global)].randomElement(using: &random)!
                }
            let content = NotificationContent(title: "Title", body: "")
            let entry = ScheduleEntry(id: "e\(index)", dialect: .native, content: content, trigger: trigger)
            let twin = ScheduleEntry(id: "e\(index)", dialect: .native, content: content, trigger: entry.trigger)
            #expect(entry.trigger == trigger, "seed \(seed) case \(index): \(trigger)")
            #expect(entry.hasSameMeaning(as: twin), "seed \(seed) case \(index): \(trigger)")
        }
    }

    /// A schedule read on one thread is copied into memory of its own on the thread that keeps
    /// it: the copy says the same, and its strings are not the reader's.
    @Test func aRelocatedScheduleSaysTheSameInStringsOfItsOwn() throws {
        let json = #"""
            {"notifications": [
              {"id": "one-shot-with-a-long-id", "title": "Standup", "body": "Review the weekly notes before standup.",
               "fireDate": "2027-03-04T09:00:00Z", "icon": "mail-unread-symbolic-icon",
               "action": {"label": "Open the notes now", "url": "https://example.org/notes/weekly"}},
              {"id": "floating-daily-in-berlin", "title": "Lunch", "fireDate": "2027-03-04T12:30:00",
               "timeZone": "Europe/Berlin", "repeatInterval": "day"},
              {"id": "calendar-expression-lists", "title": "Twice an hour",
               "calendar": "Mon..Fri *-*-* 08..18:00,30:00"},
              {"id": "calendar-expression-values", "title": "Once", "calendar": "2027-03-04 12:34:56 UTC"}
            ]}
            """#
        let schedule = try #require(FeedParser(zones: systemZones).parse(Array(json.utf8), source: "feed").schedule)
        let relocated = schedule.relocated()
        #expect(relocated == schedule)
        for (entry, copy) in zip(schedule.entries, relocated.entries) {
            #expect(copy.hasSameMeaning(as: entry))
            #expect(Self.storage(of: copy.id) != Self.storage(of: entry.id), "\(entry.id)")
        }
        let url = try #require(schedule.entries[0].content.action?.url.string)
        let copiedURL = try #require(relocated.entries[0].content.action?.url.string)
        #expect(Self.storage(of: copiedURL) != Self.storage(of: url))
    }

    /// Where a string's UTF-8 bytes are (nil for one kept in line).
    private static func storage(of text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    /// A daemon holds up to 10^6 entries within its memory target only if an entry takes 64
    /// bytes in line (and nothing on the heap for a plain one).
    @Test func anEntryTakesSixtyFourBytesInLine() {
        #expect(MemoryLayout<ScheduleEntry>.stride == 64)
    }

    /// A repeat's bounds are kept in 13 bytes (no end is a sentinel instant): they give back
    /// whatever they were made with, and compare and hash by it.
    @Test(
        arguments: [
            (nil, nil), (Instant(microseconds: 0), nil), (nil, 1),
            (Instant(microseconds: -1), RecurrenceBounds.maximumCount),
            (Instant(secondsSinceEpoch: 253_402_300_799), 7),
        ] as [(Instant?, Int?)])
    func boundsGiveBackTheirEndAndCount(until: Instant?, count: Int?) {
        let bounds = RecurrenceBounds(until: until, count: count)
        #expect(bounds.until == until)
        #expect(bounds.count == count)
        #expect((bounds == .unbounded) == (until == nil && count == nil))
    }
}
