/// A native feed of many varied entries, written as JSON or as an XML plist, for benchmarks.
///
/// The mix: absolute and floating one-shots in the future, daily/weekly/monthly repeats with and
/// without a zone, and calendar expressions, each with a title and a body, every other one with
/// an action. The JSON is compact, as a portal serves it: 10^5 entries take 15.7 MiB, under the
/// daemon's 16 MiB a feed.
struct GeneratedFeed {
    let entries: Int
    /// Every entry whose index is a multiple of this gets another title (a feed that changed);
    /// nil changes none.
    var retitledEvery: Int? = nil

    private static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"]
    private static let calendars = ["Mon..Fri *-*-* 09:00:00", "*-*-01 08:00:00", "*:0/15", "weekly", "Sat,Sun 10:30"]

    /// The members of entry `index`, as (key, value) pairs with JSON-ready values.
    private func members(_ index: Int) -> [(String, Value)] {
        var members: [(String, Value)] = [
            ("id", .string("e\(index)")),
            (
                "title",
                .string("Reminder \(index)" + (retitledEvery.map { index % $0 == 0 } == true ? ", revised" : ""))
            ),
            ("body", .string("Body of entry \(index), as long as most.")),
        ]
        if index.isMultiple(of: 2) {
            members.append(
                ("action", .dictionary([("label", .string("Open")), ("url", .string("https://example.org/\(index)"))])))
        }
        let year = 2030 + index % 5
        let date = "\(year)-0\(1 + index % 9)-1\(index % 9)T0\(index % 10):\(10 + index % 50):00"
        switch index % 5 {
        case 0:
            members.append(("fireDate", .string(date + "Z")))
        case 1:
            members.append(("fireDate", .string(date)))
            members.append(("timeZone", .string(Self.zones[index % Self.zones.count])))
        case 2:
            members.append(("fireDate", .string(date)))
            members.append(("repeatInterval", .string(["day", "week", "month"][index % 3])))
        case 3:
            members.append(("calendar", .string(Self.calendars[index % Self.calendars.count])))
        default:
            members.append(("fireDate", .string(date + "+02:00")))
            members.append(("urgency", .string("low")))
        }
        return members
    }

    indirect enum Value {
        case string(String)
        case dictionary([(String, Value)])
    }

    func json() -> String {
        var text = "{\"version\":1,\"notifications\":[\n"
        for index in 0..<entries {
            text += json(.dictionary(members(index))) + (index + 1 < entries ? ",\n" : "\n")
        }
        return text + "]}\n"
    }

    private func json(_ value: Value) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .dictionary(let members): "{" + members.map { "\"\($0.0)\":\(json($0.1))" }.joined(separator: ",") + "}"
        }
    }

    func xmlPropertyList() -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>version</key>
            \t<integer>1</integer>
            \t<key>notifications</key>
            \t<array>\n
            """
        for index in 0..<entries { text += xml(.dictionary(members(index)), indent: "\t\t") }
        return text + "\t</array>\n</dict>\n</plist>\n"
    }

    private func xml(_ value: Value, indent: String) -> String {
        switch value {
        case .string(let text):
            return "\(indent)<string>\(text)</string>\n"
        case .dictionary(let members):
            var text = "\(indent)<dict>\n"
            for (key, member) in members {
                text += "\(indent)\t<key>\(key)</key>\n" + xml(member, indent: indent + "\t")
            }
            return text + "\(indent)</dict>\n"
        }
    }
}
