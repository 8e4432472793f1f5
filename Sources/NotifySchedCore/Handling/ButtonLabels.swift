/// The button labels of prompts and popups, in the user's language.
///
/// The strings are iNotify's own (seed semantics §1.8) with its encoding slips repaired, for
/// English, French, German, Italian, Spanish and Japanese; any other language gets English.
/// "Cancel" is not in iNotify; iSmartNews' Cancel button uses the usual word of each language.
public struct ButtonLabels: Sendable, Equatable {
    public var ok: String
    public var ignore: String
    public var remindMeLater: String
    public var moreInfo: String
    public var cancel: String

    public init(ok: String, ignore: String, remindMeLater: String, moreInfo: String, cancel: String) {
        self.ok = ok
        self.ignore = ignore
        self.remindMeLater = remindMeLater
        self.moreInfo = moreInfo
        self.cancel = cancel
    }

    /// The labels for `language`, English when it is none of the six.
    public init(language: LanguagePreference) {
        self = language.language.flatMap { ButtonLabels.translations[$0] } ?? .english
    }

    /// The languages with their own labels.
    public static var languages: [String] { translations.keys.sorted() }

    public static let english = ButtonLabels(
        ok: "OK", ignore: "Ignore", remindMeLater: "Remind Me Later", moreInfo: "More Info", cancel: "Cancel")

    private static let translations: [String: ButtonLabels] = [
        "en": .english,
        "fr": ButtonLabels(
            ok: "OK", ignore: "Ignorer", remindMeLater: "Me rappeler ultérieurement", moreInfo: "Plus d'info",
            cancel: "Annuler"),
        "de": ButtonLabels(
            ok: "OK", ignore: "Ignorieren", remindMeLater: "Mich später erinnern", moreInfo: "Mehr info",
            cancel: "Abbrechen"),
        "it": ButtonLabels(
            ok: "OK", ignore: "Ignora", remindMeLater: "Ricordamelo dopo", moreInfo: "Maggiori informazioni",
            cancel: "Annulla"),
        "es": ButtonLabels(
            ok: "OK", ignore: "Pasar", remindMeLater: "Recordarme más tarde", moreInfo: "Más información",
            cancel: "Cancelar"),
        "ja": ButtonLabels(
            ok: "OK", ignore: "無視する", remindMeLater: "後で再度通知する。", moreInfo: "詳細を調べる", cancel: "キャンセル"),
    ]
}
