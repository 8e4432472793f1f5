import NotifySchedCore
import Testing

/// A portal feed's `frequency`, `groups` and `priority`, as read and as `validate` reports them.
@Suite struct DeliveryRulesFeedTests {
    @Test func anEntrysRulesAndTheFeedsGroupsAreRead() throws {
        let result = parse(
            #"""
            {"groups": [{"id": "promo", "frequency": {"custom": [{"period": "1d", "cap": 1}]}},
                        {"id": "quiet", "enabled": false}],
             "notifications": [
               {"id": "a", "title": "A", "priority": 5, "groups": ["promo", "quiet"],
                "frequency": {"lifetime": 3, "custom": [{"period": 3600, "cap": 2}, {"period": "7d", "cap": 4}]}},
               {"id": "b", "title": "B"}]}
            """#)
        #expect(errors(result) == [])
        let schedule = try #require(result.schedule)
        #expect(
            schedule.groups == [
                MessageGroup(id: "promo", frequency: FrequencyCap(windows: [.init(period: .days(1), cap: 1)])),
                MessageGroup(id: "quiet", enabled: false),
            ])
        #expect(
            schedule.entries[0].deliveryRules
                == DeliveryRules(
                    frequency: FrequencyCap(
                        lifetime: 3, windows: [.init(period: .hours(1), cap: 2), .init(period: .days(7), cap: 4)]),
                    groups: ["promo", "quiet"], priority: 5))
        #expect(schedule.entries[1].deliveryRules == nil)
        #expect(schedule.entries[1].priority == 0)
    }

    @Test func aRolloutIsRead() throws {
        let result = parse(
            nativeFeed(#""rollout": {"namespace": "spring/2027 é", "start": 9500, "count": 1000, "total": 10000}"#))
        #expect(errors(result) == [])
        #expect(
            result.schedule?.entries.first?.deliveryRules?.rollout
                == Rollout(namespace: "spring/2027 é", start: 9500, count: 1000, total: 10000))
    }

    @Test(arguments: [
        (#""rollout": "10%""#, "notifications[0].rollout: `rollout` must be a dictionary, not a string"),
        (
            #""rollout": {"start": 0, "count": 1, "total": 10}"#,
            "notifications[0].rollout.namespace: `namespace` is required"
        ),
        (
            #""rollout": {"namespace": "a", "start": 0, "count": 1, "total": 0}"#,
            "notifications[0].rollout.total: `total` must be a whole number from 1 to 2147483648, not 0"
        ),
        (
            #""rollout": {"namespace": "a", "start": 0, "count": 11, "total": 10}"#,
            "notifications[0].rollout.count: `count` must be a whole number from 0 to `total` (10), not 11"
        ),
        (
            #""rollout": {"namespace": "a", "start": -1, "count": 1, "total": 10}"#,
            "notifications[0].rollout.start: `start` must be a whole number from 0 (it wraps at `total`), not -1"
        ),
        (
            #""rollout": {"namespace": 7, "start": 0, "count": 1, "total": 10}"#,
            "notifications[0].rollout.namespace: `namespace` must be a string, not an integer"
        ),
    ])
    func aMalformedRolloutIsAnErrorAtItsKeyPath(_ members: String, _ message: String) {
        #expect(errors(parse(nativeFeed(members))) == ["line 1: " + message])
    }

    @Test func aZBiMRowTakesTheSameRules() throws {
        let result = parse(
            #"""
            {"notifications": [{"uuid": "u1", "uri": "https://example.org/", "year": 2027, "month": 1, "day": 2,
              "hour": 9, "minute": 0, "frequency": {"lifetime": 1}, "priority": 2}]}
            """#)
        #expect(errors(result) == [])
        #expect(
            result.schedule?.entries.first?.deliveryRules
                == DeliveryRules(frequency: FrequencyCap(lifetime: 1), priority: 2))
    }

    @Test func aLifetimeAboveAHundredIsAWarningAndReadAsAHundred() {
        let result = parse(nativeFeed(#""frequency": {"lifetime": 250}"#))
        #expect(errors(result) == [])
        #expect(
            warnings(result) == [
                "line 1: notifications[0].frequency.lifetime: `lifetime` 250 is read as 100, the highest"
            ])
        #expect(result.schedule?.entries.first?.deliveryRules?.frequency?.lifetime == 100)
    }

    @Test(arguments: [
        (#""frequency": 3"#, "notifications[0].frequency: `frequency` must be a dictionary, not an integer"),
        (#""frequency": {}"#, "notifications[0].frequency: `frequency` must set `lifetime` or `custom`"),
        (
            #""frequency": {"lifetime": 0}"#,
            "notifications[0].frequency.lifetime: `lifetime` must be a whole number from 1 to 2147483647, not 0"
        ),
        (
            #""frequency": {"lifetime": "x"}"#,
            "notifications[0].frequency.lifetime: `lifetime` must be an integer, not a string"
        ),
        (
            #""frequency": {"custom": [{"period": "1d"}]}"#,
            "notifications[0].frequency.custom[0].cap: `cap` is required"
        ),
        (
            #""frequency": {"custom": [{"period": "soon", "cap": 1}]}"#,
            #"notifications[0].frequency.custom[0].period: `period` is not a duration (e.g. 90, "15min", "1h 30min", "2d"): "soon""#
        ),
        (
            #""frequency": {"custom": [{"period": "91d", "cap": 1}]}"#,
            "notifications[0].frequency.custom[0].period: `period` must be from 1s to 90d, the longest an impression is kept"
        ),
        (
            #""frequency": {"custom": [{"period": 0, "cap": 1}]}"#,
            "notifications[0].frequency.custom[0].period: `period` must be from 1s to 90d, the longest an impression is kept"
        ),
        (
            #""frequency": {"custom": [{"period": 60, "cap": 0}]}"#,
            "notifications[0].frequency.custom[0].cap: `cap` must be a whole number from 1 to 2147483647, not 0"
        ),
        (
            #""frequency": {"custom": [7]}"#,
            "notifications[0].frequency.custom[0]: a window must be a dictionary with `period` and `cap`"
        ),
        (#""groups": "promo""#, "notifications[0].groups: `groups` must be an array, not a string"),
        (
            #""groups": [""]"#,
            "notifications[0].groups[0]: a group is named by a non-empty string without control characters"
        ),
        (
            #""groups": ["nowhere"]"#,
            #"notifications[0].groups[0]: group "nowhere" is not defined in the feed's `groups`"#
        ),
        (#""priority": "high""#, "notifications[0].priority: `priority` must be an integer, not a string"),
    ])
    func aMalformedRuleIsAnErrorAtItsKeyPath(_ members: String, _ message: String) {
        let result = parse(nativeFeed(members))
        #expect(errors(result) == ["line 1: " + message])
    }

    @Test(arguments: [
        (#"[{"frequency": {"lifetime": 1}}]"#, "groups[0].id: `id` is required"),
        (#"[{"id": "a"}, {"id": "a"}]"#, #"groups[1].id: group "a" is defined twice"#),
        (#"[{"id": "a\nb"}]"#, "groups[0].id: a group's `id` must have no control characters"),
        (#"[{"id": "a", "enabled": "no"}]"#, "groups[0].enabled: `enabled` must be a boolean, not a string"),
        (#"["a"]"#, "groups[0]: a group must be a dictionary with `id`, `frequency` and `enabled`"),
        (
            #"[{"id": "a", "frequency": {"custom": [{"period": "1d", "cap": -1}]}}]"#,
            "groups[0].frequency.custom[0].cap: `cap` must be a whole number from 1 to 2147483647, not -1"
        ),
    ])
    func aMalformedGroupIsAnErrorAtItsKeyPath(_ groups: String, _ message: String) {
        let result = parse(#"{"groups": \#(groups), "notifications": []}"#)
        #expect(errors(result) == ["line 1: " + message])
    }
}
