/// The user's language and country, for localized feed keys (`text_fr`, `text_fr_fr`) and labels.
public struct LanguagePreference: Sendable, Equatable {
    /// Lower-case ISO 639 language code (`fr`), or nil for none.
    public var language: String?
    /// Lower-case ISO 3166 country code (`fr`), or nil for none.
    public var country: String?

    public init(language: String?, country: String? = nil) {
        self.language = language?.lowercased()
        self.country = country?.lowercased()
    }

    /// No language preference: only unsuffixed keys and English labels.
    public static let none = LanguagePreference(language: nil)

    /// Reads a POSIX locale name: `fr_FR.UTF-8`, `de_DE@euro`, `ja`, `pt-BR`.
    ///
    /// `C` and `POSIX` mean no preference.
    public init(localeName: String) {
        let base = localeName.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let language = parts.first, !["c", "posix"].contains(language.lowercased()) else {
            self = .none
            return
        }
        self.init(language: language, country: parts.count > 1 ? parts[1] : nil)
    }

    /// The translation catalogs to try, most specific first: `de_DE`, then `de`; none for no language.
    public var catalogNames: [String] {
        guard let language else { return [] }
        return (country.map { ["\(language)_\($0.uppercased())"] } ?? []) + [language]
    }

    /// The keys to try for `key`, most specific first: `text_fr_fr`, `text_fr`, `text`.
    public func localizedKeys(for key: String) -> [String] {
        var keys: [String] = []
        if let language {
            if let country { keys.append("\(key)_\(language)_\(country)") }
            keys.append("\(key)_\(language)")
        }
        keys.append(key)
        return keys
    }
}
