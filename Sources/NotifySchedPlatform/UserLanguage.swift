import NotifySchedCore

extension LanguagePreference {
    /// The user's language as gettext chooses it: the first entry of `LANGUAGE`, else `LC_ALL`,
    /// else `LC_MESSAGES`, else `LANG`. `LANGUAGE` counts only when the locale is not `C`,
    /// as in gettext. It does not matter whether the locale is generated on the machine.
    public static func fromEnvironment(_ environment: [String: String]) -> LanguagePreference {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let base = locale.map(LanguagePreference.init(localeName:)) ?? .none
        if base != .none, let list = environment["LANGUAGE"], let first = list.split(separator: ":").first {
            return LanguagePreference(localeName: String(first))
        }
        return base
    }
}
