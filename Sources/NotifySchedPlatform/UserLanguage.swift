import NotifySchedCore

extension LanguagePreference {
    /// The user's language as gettext chooses it: the first entry of `preferred(in:)`.
    public static func fromEnvironment(_ environment: [String: String]) -> LanguagePreference {
        preferred(in: environment).first ?? .none
    }

    /// The user's languages in gettext's order: each entry of the colon-separated `LANGUAGE`,
    /// then the locale, the first set of `LC_ALL`, `LC_MESSAGES` and `LANG`. `LANGUAGE` counts
    /// only when the locale is not `C`, as in gettext. Whether the locale is generated on the
    /// machine does not matter: only the names are read.
    ///
    /// `LANGUAGE=ja:fr LANG=de_DE.UTF-8` gives ja, fr, de_DE; `LANG=C` gives none.
    public static func preferred(in environment: [String: String]) -> [LanguagePreference] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let base = locale.map(LanguagePreference.init(localeName:)) ?? .none
        guard base != .none else { return [] }
        let listed = (environment["LANGUAGE"] ?? "").split(separator: ":").map {
            LanguagePreference(localeName: String($0))
        }
        return listed.filter { $0 != .none } + [base]
    }
}
