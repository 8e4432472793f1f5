import NotifySchedControl
import NotifySchedCore
import Testing

@Suite struct ControlCallTests {
    /// A `Test` call's twelve arguments: `texts` by name over empty strings, then markup, delay and wait.
    private func test(
        _ texts: [String: String], markup: Bool = false, delay: UInt32 = 0, wait: Bool = false
    ) -> [ControlValue] {
        ["title", "body", "label", "url", "urgency", "icon", "sound", "image", "timeout"].map {
            .string(texts[$0] ?? "")
        } + [.boolean(markup), .unsigned(delay), .boolean(wait)]
    }

    private func decode(_ method: String, _ arguments: [ControlValue]) -> Result<ControlCall, ControlError> {
        Result { () throws(ControlError) in
            try ControlCall(method: method, arguments: arguments, urlPolicy: URLPolicy())
        }
    }

    private func refusal(_ method: String, _ arguments: [ControlValue]) -> String? {
        guard case .failure(let error) = decode(method, arguments) else { return nil }
        #expect(error.code == .badCall)
        return error.message
    }

    @Test func everyMethodDecodesWithItsArguments() throws {
        #expect(try decode("PostEvent", [.string("deploy")]).get() == .postEvent(name: "deploy"))
        #expect(
            try decode("List", [.unsigned(10), .unsigned(0), .unsigned(50), .string("")]).get()
                == .list(upcoming: 10, offset: 0, limit: 50, filter: .all))
        #expect(
            try decode(
                "List", [.unsigned(1), .unsigned(7), .unsigned(1), .string(#"{"ids":["news-*"],"states":["acted"]}"#)]
            )
            .get() == .list(upcoming: 1, offset: 7, limit: 1, filter: ListingFilter(states: ["acted"], ids: ["news-*"]))
        )
        #expect(try decode("Status", []).get() == .status)
        #expect(
            try decode("Handle", [.string("0123"), .boolean(true)]).get()
                == .handle(occurrenceID: "0123", showAlert: true))
        #expect(try decode("Sync", []).get() == .sync)
        #expect(
            try decode("Snooze", [.string("0123"), .string("1h 30min")]).get()
                == .snooze(occurrenceID: "0123", .after(.minutes(90))))
        #expect(
            try decode("Snooze", [.string("0123"), .string("Tomorrow")]).get()
                == .snooze(occurrenceID: "0123", .tomorrowMorning))
        let call = try decode(
            "Test", test(["title": "Hi", "body": "Body", "url": "https://example.org"], delay: 5)
        ).get()
        guard case .test(let content, let delay, let wait) = call else {
            Issue.record("a test popup: \(call)")
            return
        }
        #expect(content.title == "Hi" && content.body == "Body" && content.urgency == .normal)
        #expect(content.action?.url.string == "https://example.org" && content.action?.label == nil)
        #expect(content.icon == nil && content.sound == nil && content.image == nil && content.timeout == nil)
        #expect(delay == .seconds(5) && !wait)
        let full = try decode(
            "Test",
            test(
                ["title": "Hi", "icon": "dialog-information", "sound": "bell", "image": "/tmp/a.png", "timeout": "0"],
                markup: true, wait: true)
        ).get()
        #expect(
            full
                == .test(
                    content: NotificationContent(
                        title: "Hi", body: "", icon: "dialog-information", timeout: .zero, sound: "bell",
                        image: "/tmp/a.png", markup: true),
                    delay: .zero, wait: true))
    }

    @Test func valuesPastTheirBoundsAreRefusedSayingWhich() {
        #expect(
            refusal("List", [.unsigned(4_294_967_295), .unsigned(0), .unsigned(10), .string("")])
                == "List: upcoming must be between 1 and 1000")
        #expect(refusal("List", [.unsigned(0), .unsigned(0), .unsigned(10), .string("")]) != nil)
        #expect(
            refusal("List", [.unsigned(1), .unsigned(0), .unsigned(1001), .string("")])
                == "List: limit must be between 1 and 1000", "a page is bounded")
        #expect(
            refusal("List", [.unsigned(1), .unsigned(0), .unsigned(0), .string("")])
                == "List: limit must be between 1 and 1000")
        #expect(
            refusal("List", [.unsigned(1), .unsigned(0), .unsigned(10), .string("[1]")])
                == "List: the filter is not a JSON object of sources, states and ids")
        let manyIDs = "{\"ids\":[" + Array(repeating: "\"a\"", count: 65).joined(separator: ",") + "]}"
        #expect(
            refusal("List", [.unsigned(1), .unsigned(0), .unsigned(10), .string(manyIDs)])
                == "List: the filter names more than 64 ids")
        #expect(
            refusal("List", [.unsigned(1), .unsigned(0), .unsigned(10), .string(#"{"ids":[""]}"#)])
                == "List: the filter's ids must be 1 to 256 bytes long each")
        #expect(refusal("PostEvent", [.string("")]) == "PostEvent: the event name is empty")
        #expect(
            refusal("PostEvent", [.string(String(repeating: "e", count: 257))])
                == "PostEvent: the event name is longer than 256 bytes")
        #expect(refusal("Handle", [.string(String(repeating: "0", count: 10_000)), .boolean(false)]) != nil)
        #expect(
            refusal("Snooze", [.string("0123"), .string("367d")])
                == #"Snooze: "367d" is neither tomorrow nor a duration from 1s to 366d (such as 10min, 1h, 2d)"#)
        #expect(refusal("Snooze", [.string("0123"), .string("500ms")]) != nil, "less than a second")
        let long = String(repeating: "x", count: 64 * 1024 + 1)
        #expect(refusal("Test", test(["title": long])) == "Test: the title is longer than 65536 bytes")
        #expect(refusal("Test", test(["sound": long])) == "Test: the sound is longer than 65536 bytes")
        #expect(
            refusal("Test", test(["title": "Hi"], delay: 86_401)) == "Test: delay_seconds must be at most 86400 (a day)"
        )
        #expect(
            refusal("Test", test(["title": "Hi", "urgency": "loud"]))
                == #"Test: urgency "loud" is not low, normal or critical"#)
        #expect(
            refusal("Test", test(["title": "Hi", "timeout": "25d"]))
                == #"Test: timeout "25d" is not a duration of at most 24 days"#)
        #expect(
            refusal("Test", test(["title": "Hi", "image": "https://example.org/a.png"]))
                == #"Test: image "https://example.org/a.png" is not an absolute path or a file:// URI"#)
    }

    @Test func aTestPopupsURLFollowsTheURLRules() {
        let arguments = test(["title": "Hi", "url": "https://bank.example@evil.example/"])
        #expect(refusal("Test", arguments)?.hasPrefix("Test: ") == true)
        #expect(refusal("Test", arguments)?.contains("user name") == true)
    }

    @Test func wrongArgumentsAndUnknownMethodsAreRefused() {
        #expect(refusal("List", [.string("10")]) == "List: wrong arguments (see the introspection data)")
        #expect(refusal("List", [.unsigned(10)]) == "List: wrong arguments (see the introspection data)")
        #expect(refusal("Status", [.boolean(true)]) != nil)
        #expect(refusal("Test", [.string("Hi")]) != nil)
        #expect(refusal("Reboot", []) == #"the control interface has no method "Reboot""#)
    }
}
