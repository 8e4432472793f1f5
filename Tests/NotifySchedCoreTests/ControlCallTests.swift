import NotifySchedCore
import Testing

@Suite struct ControlCallTests {
    private func decode(_ method: String, _ arguments: [ControlCall.Argument]) -> Result<ControlCall, CoreError> {
        Result { () throws(CoreError) in try ControlCall(method: method, arguments: arguments, urlPolicy: URLPolicy()) }
    }

    private func refusal(_ method: String, _ arguments: [ControlCall.Argument]) -> String? {
        guard case .failure(let error) = decode(method, arguments) else { return nil }
        #expect(error.code == .badCall)
        return error.message
    }

    @Test func everyMethodDecodesWithItsArguments() throws {
        #expect(try decode("PostEvent", [.string("deploy")]).get() == .postEvent(name: "deploy"))
        #expect(try decode("List", [.unsigned(10)]).get() == .list(upcoming: 10))
        #expect(try decode("Status", []).get() == .status)
        #expect(
            try decode("Handle", [.string("0123"), .boolean(true)]).get()
                == .handle(occurrenceID: "0123", showAlert: true))
        #expect(try decode("Sync", []).get() == .sync)
        let test = try decode(
            "Test",
            [
                .string("Hi"), .string("Body"), .string(""), .string("https://example.org"), .string(""), .unsigned(5),
                .boolean(false),
            ]
        ).get()
        guard case .test(let content, let delay, let wait) = test else {
            Issue.record("a test popup: \(test)")
            return
        }
        #expect(content.title == "Hi" && content.body == "Body" && content.urgency == .normal)
        #expect(content.action?.url.string == "https://example.org" && content.action?.label == nil)
        #expect(delay == .seconds(5) && !wait)
    }

    @Test func valuesPastTheirBoundsAreRefusedSayingWhich() {
        #expect(refusal("List", [.unsigned(4_294_967_295)]) == "List: upcoming must be between 1 and 1000")
        #expect(refusal("List", [.unsigned(0)]) != nil)
        #expect(refusal("PostEvent", [.string("")]) == "PostEvent: the event name is empty")
        #expect(
            refusal("PostEvent", [.string(String(repeating: "e", count: 257))])
                == "PostEvent: the event name is longer than 256 bytes")
        #expect(refusal("Handle", [.string(String(repeating: "0", count: 10_000)), .boolean(false)]) != nil)
        let long = String(repeating: "x", count: 64 * 1024 + 1)
        let test: (String, UInt32, String) -> [ControlCall.Argument] = { title, delay, urgency in
            [
                .string(title), .string(""), .string(""), .string(""), .string(urgency), .unsigned(delay),
                .boolean(false),
            ]
        }
        #expect(refusal("Test", test(long, 0, "")) == "Test: the title is longer than 65536 bytes")
        #expect(refusal("Test", test("Hi", 86_401, "")) == "Test: delay_seconds must be at most 86400 (a day)")
        #expect(refusal("Test", test("Hi", 0, "loud")) == #"Test: urgency "loud" is not low, normal or critical"#)
    }

    @Test func aTestPopupsURLFollowsTheURLRules() {
        let arguments: [ControlCall.Argument] = [
            .string("Hi"), .string(""), .string(""), .string("https://bank.example@evil.example/"), .string(""),
            .unsigned(0), .boolean(false),
        ]
        #expect(refusal("Test", arguments)?.hasPrefix("Test: ") == true)
        #expect(refusal("Test", arguments)?.contains("user name") == true)
    }

    @Test func wrongArgumentsAndUnknownMethodsAreRefused() {
        #expect(refusal("List", [.string("10")]) == "List: wrong arguments (see the introspection data)")
        #expect(refusal("Status", [.boolean(true)]) != nil)
        #expect(refusal("Test", [.string("Hi")]) != nil)
        #expect(refusal("Reboot", []) == #"the control interface has no method "Reboot""#)
    }
}
