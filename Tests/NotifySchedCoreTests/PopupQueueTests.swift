import NotifySchedCore
import Testing

/// When the popups chosen by events and checks go out, in virtual time.
@Suite struct PopupQueueTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    /// Native entries of a feed, by id; `critical` ones pass quiet hours.
    private func entries(_ ids: [String], critical: Set<String> = []) throws -> [ScheduleEntry] {
        let members = ids.map {
            #"{"id": "\#($0)", "title": "\#($0)"\#(critical.contains($0) ? #", "urgency": "critical""# : "")}"#
        }
        let result = parse(#"{"notifications": [\#(members.joined(separator: ","))]}"#)
        return try #require(result.schedule?.entries)
    }

    /// What `takeReady` decided, as "show id" and "drop id".
    private func take(
        _ queue: inout PopupQueue, at now: Instant, quietHours: QuietHours? = nil,
        lookup: [ScheduleEntry] = []
    ) -> [String] {
        queue.takeReady(at: now, quietHours: quietHours, userZone: .utc) { popup in
            lookup.first { $0.id == popup.entryID }
        }.map {
            switch $0 {
            case .show(let item, _): "show \(item.popup.entryID)"
            case .drop(let popup): "drop \(popup.entryID)"
            }
        }
    }

    @Test func popupsGoOutAtTheirOccurrenceInTheOrderTheyWereChosen() throws {
        let chosen = try entries(["a", "b", "later", "c"])
        var queue = PopupQueue()
        queue.add(queue.popups(for: [chosen[0], chosen[1]], of: "feed", at: noon))
        queue.add(queue.popups(for: [chosen[2]], of: "feed", at: noon + .seconds(30)))
        queue.add(queue.popups(for: [chosen[3]], of: "feed", at: noon))
        #expect(queue.nextDeadline == noon)
        #expect(take(&queue, at: noon - .seconds(1)) == [], "nothing before its time")
        #expect(take(&queue, at: noon) == ["show a", "show b", "show c"])
        #expect(queue.nextDeadline == noon + .seconds(30))
        #expect(take(&queue, at: noon + .seconds(30)) == ["show later"])
        #expect(queue.nextDeadline == nil)
    }

    @Test func anEntryAlreadyWaitingIsNotChosenTwice() throws {
        let chosen = try entries(["a", "b"])
        var queue = PopupQueue()
        queue.add(queue.popups(for: [chosen[0]], of: "feed", at: noon))
        #expect(queue.popups(for: chosen, of: "feed", at: noon).map(\.popup.entryID) == ["b"])
        #expect(queue.popups(for: chosen, of: "other", at: noon).count == 2, "another source's entry is its own")
        #expect(queue.hasPopup(of: "feed") && !queue.hasPopup(of: "other"))
    }

    @Test func quietHoursHoldAPopupUntilTheyEndButNotACriticalOne() throws {
        let chosen = try entries(["calm", "urgent"], critical: ["urgent"])
        let quiet = try #require(QuietHours(parsing: "11:00-13:00"))
        var queue = PopupQueue()
        queue.add(queue.popups(for: chosen, of: "feed", at: noon))
        #expect(take(&queue, at: noon, quietHours: quiet) == ["show urgent"])
        #expect(queue.nextDeadline == instant("2026-06-01T13:00:00Z"))
        #expect(take(&queue, at: instant("2026-06-01T13:00:00Z"), quietHours: quiet) == ["show calm"])
    }

    @Test func popupsTheServerDidNotTakeWaitForTheRetryOrForAServer() throws {
        let chosen = try entries(["a", "b"])
        var queue = PopupQueue()
        queue.add(queue.popups(for: chosen, of: "feed", at: noon))
        let ready = queue.takeReady(at: noon, quietHours: nil, userZone: .utc) { _ in nil }
        let items = ready.compactMap { if case .show(let item, _) = $0 { item } else { nil } }
        queue.putBack(items, heldUntil: noon + .seconds(30))
        #expect(queue.nextDeadline == noon + .seconds(30))
        #expect(take(&queue, at: noon + .seconds(29)) == [])
        queue.releaseHeld()
        #expect(take(&queue, at: noon + .seconds(1)) == ["show a", "show b"], "a server appeared: at once, in order")
    }

    @Test func afterARestartOrAFeedChangeEachEntryIsLookedUpAgainAndAGoneOneDropped() throws {
        let chosen = try entries(["kept", "gone"])
        var queue = PopupQueue(
            chosen.map { WaitingPopup(source: "feed", entryID: $0.id, occurrence: noon) })
        #expect(take(&queue, at: noon, lookup: [chosen[0]]) == ["show kept", "drop gone"])
        queue.add(queue.popups(for: chosen, of: "feed", at: noon))
        queue.forgetEntries(of: "feed")
        #expect(queue.items.allSatisfy { $0.entry == nil })
        #expect(take(&queue, at: noon, lookup: chosen) == ["show kept", "show gone"])
    }
}
