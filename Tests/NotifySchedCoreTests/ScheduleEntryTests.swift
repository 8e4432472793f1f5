import NotifySchedCore
import Testing

@Suite struct ScheduleEntryTests {
    /// An entry keeps its content's title and body in line and the rest out of line only when
    /// there is any: whichever fields are set, it gives back the content it was made with.
    @Test func anEntryGivesBackTheContentItWasMadeWith() throws {
        let seed: UInt64 = 0xC0_17E7
        var random = SplitMix64(seed: seed)
        let url = try ActionURL("https://example.org/item", policy: URLPolicy())
        for index in 0..<200 {
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
            let content = NotificationContent(
                title: maybe("Title \(index)") ?? "", body: maybe(String(repeating: "body ", count: index % 7)) ?? "",
                icon: maybe("dialog-information"), urgency: Urgency.allCases.randomElement(using: &random)!,
                action: maybe(NotificationAction(label: maybe("Open"), url: url)), timeout: maybe(.seconds(5)),
                sound: maybe("message-new-instant"), image: maybe("/usr/share/pixmaps/debian-logo.png"),
                markup: Bool.random(using: &random))
            let entry = ScheduleEntry(id: "e\(index)", dialect: .native, content: content, trigger: .immediate)
            #expect(entry.content == content, "seed \(seed) case \(index)")
        }
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
