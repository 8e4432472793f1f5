import NotifySchedControl
import NotifySchedCore
import Testing

/// The wire both ways: what the CLI sends and the daemon answers reads back as it was made.
@Suite struct ControlReplyTests {
    @Test func everyCallReadsBackFromTheArgumentsItSends() throws {
        let policy = URLPolicy()
        let url = try ActionURL("https://example.org/a?b=1", policy: policy)
        var filter = ListingFilter()
        filter.sources = ["feed.json"]
        filter.ids = ["release-*"]
        let calls: [ControlCall] = [
            .postEvent(name: "deploy"),
            .list(upcoming: 3, offset: 20, limit: 50, filter: .all),
            .list(upcoming: 1, offset: 0, limit: 1000, filter: filter),
            .status,
            .handle(occurrenceID: "feed#a@1", showAlert: true),
            .snooze(occurrenceID: "feed#a@1", .after(.minutes(10))),
            .snooze(occurrenceID: "feed#a@1", .tomorrowMorning),
            .test(
                content: NotificationContent(
                    title: "Lunch", body: "Now & then", icon: "dialog-information", urgency: .critical,
                    action: NotificationAction(label: "Open", url: url), timeout: .milliseconds(1500),
                    sound: "bell", image: "/tmp/a.png", markup: true),
                delay: .seconds(90), wait: true),
            .test(content: NotificationContent(title: "Lunch", body: ""), delay: .zero, wait: false),
            .sync,
        ]
        let decoded = try calls.map {
            try ControlCall(method: $0.method.rawValue, arguments: $0.arguments, urlPolicy: policy)
        }
        #expect(decoded == calls)
    }

    @Test func everyReplyReadsBackForItsMethod() throws {
        let replies: [(ControlCall.Method, ControlReply)] = [
            (.postEvent, .posted("deploy: 1 shown")),
            (.list, .listed(json: "[]", total: 12)),
            (.status, .status(json: "{}")),
            (.handle, .handled(status: "handled", report: "opened: https://example.org")),
            (.snooze, .handled(status: "unknown", report: "")),
            (.test, .tested(id: "test-1", status: "delivered", report: "")),
            (.sync, .synced(status: "synced", report: "feed.json: 1 added, 0 changed, 0 withdrawn")),
        ]
        for (method, reply) in replies {
            #expect(try ControlReply(method, values: reply.values) == reply, "\(method.rawValue)")
        }
    }

    @Test func aReplyThatIsNotWhatItsMethodAnswersIsRefusedNamingTheMethod() {
        let wrong: [(ControlCall.Method, [ControlValue])] = [
            (.postEvent, []), (.list, [.string("[]"), .string("12")]), (.status, [.unsigned(1)]),
            (.handle, [.string("handled")]), (.test, [.string("id"), .string("delivered")]),
            (.sync, [.boolean(true), .string("")]),
        ]
        for (method, values) in wrong {
            #expect(throws: ControlError(.badReply, "the daemon's answer to \(method.rawValue) is malformed")) {
                try ControlReply(method, values: values)
            }
        }
    }
}
