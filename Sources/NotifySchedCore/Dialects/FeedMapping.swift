/// The shared state of turning one feed document into a `Schedule`: settings and the
/// problems found so far.
final class FeedMapping {
    let zones: any ZoneProvider
    let urlPolicy: URLPolicy
    let language: LanguagePreference
    let userZone: ZoneRules?
    private(set) var diagnostics: [Diagnostic] = []
    /// The number of errors so far; an entry compares it before and after reading itself.
    private(set) var errorCount = 0

    init(zones: any ZoneProvider, urlPolicy: URLPolicy, language: LanguagePreference, userZone: ZoneRules?) {
        self.zones = zones
        self.userZone = userZone
        self.urlPolicy = urlPolicy
        self.language = language
    }

    func error(_ code: CoreError.Code, _ message: String, at location: FeedLocation) {
        diagnostics.append(Diagnostic(.error, CoreError(code, message, at: location)))
        errorCount += 1
    }

    func warning(_ code: CoreError.Code, _ message: String, at location: FeedLocation) {
        diagnostics.append(Diagnostic(.warning, CoreError(code, message, at: location)))
    }
}

/// Key paths as messages print them: `notifications[3].fireDate`, `["2011/02/01"].Title`.
enum KeyPath {
    /// The path of the value under `key` in the dictionary at `parent`, written as the
    /// readers write theirs (`FeedKeyPath`): bare identifiers, anything else quoted in brackets.
    static func child(_ parent: String, key: String) -> String {
        let component = FeedKeyPath.component(key: key)
        if parent.isEmpty || component.hasPrefix("[") { return parent + component }
        return parent + "." + component
    }

    /// The path of the element at `index` of the array at `parent`.
    static func element(_ parent: String, index: Int) -> String {
        parent + FeedKeyPath.component(index: index)
    }
}
