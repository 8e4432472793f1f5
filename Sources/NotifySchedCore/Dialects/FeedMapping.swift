/// The shared state of turning one feed document into a `Schedule`: settings and the
/// problems found so far.
final class FeedMapping {
    /// How a feed is mapped: what a piece of it mapped on another thread needs to map as the
    /// rest is mapped.
    struct Settings: Sendable {
        let zones: any ZoneProvider
        let urlPolicy: URLPolicy
        let language: LanguagePreference
        let userZone: ZoneRules?
    }

    /// The problems found in a feed, or in a piece of it.
    struct Problems: Sendable {
        /// In document order.
        var diagnostics: [Diagnostic] = []
        var errorCount = 0
    }

    let settings: Settings
    var zones: any ZoneProvider { settings.zones }
    var urlPolicy: URLPolicy { settings.urlPolicy }
    var language: LanguagePreference { settings.language }
    var userZone: ZoneRules? { settings.userZone }
    private(set) var problems = Problems()
    var diagnostics: [Diagnostic] { problems.diagnostics }
    /// The number of errors so far; an entry compares it before and after reading itself.
    var errorCount: Int { problems.errorCount }

    init(_ settings: Settings) {
        self.settings = settings
    }

    private struct CalendarText: Hashable {
        let text: String
        let localZone: ZoneRules?
    }

    /// Calendar expressions already parsed, by their text: a feed's entries repeat a few
    /// expressions, and parsing one costs more than a lookup. At most `calendarLimit` are kept.
    private var calendars: [CalendarText: CalendarExpression] = [:]
    private static let calendarLimit = 256

    /// `CalendarExpression.parse(text, zones:localZone:)`, parsed once per text.
    func calendarExpression(_ text: String, localZone: ZoneRules?) throws(CoreError) -> CalendarExpression {
        let key = CalendarText(text: text, localZone: localZone)
        if let known = calendars[key] { return known }
        let expression = try CalendarExpression.parse(text, zones: zones, localZone: localZone)
        if calendars.count < Self.calendarLimit { calendars[key] = expression }
        return expression
    }

    func error(_ code: CoreError.Code, _ message: String, at location: FeedLocation) {
        problems.diagnostics.append(Diagnostic(.error, CoreError(code, message, at: location)))
        problems.errorCount += 1
    }

    func warning(_ code: CoreError.Code, _ message: String, at location: FeedLocation) {
        problems.diagnostics.append(Diagnostic(.warning, CoreError(code, message, at: location)))
    }

    /// Takes in the problems of a piece of the feed mapped on its own, after those found so far.
    func append(_ piece: Problems) {
        problems.diagnostics += piece.diagnostics
        problems.errorCount += piece.errorCount
    }
}
