/// The button labels of prompts and popups, in the user's language.
///
/// The labels come from the translation catalog (`po/*.po`, context `button`): iNotify's own
/// strings (seed semantics §1.8) with its encoding slips repaired, for French, German, Italian,
/// Spanish and Japanese; English is the msgid. "Cancel" is not in iNotify; iSmartNews' Cancel
/// button uses the usual word of each language, and so does "Open", a calendar alarm's button.
public struct ButtonLabels: Sendable, Equatable {
    public var ok: String
    public var ignore: String
    public var remindMeLater: String
    public var moreInfo: String
    public var cancel: String
    /// The button that opens a calendar event's link.
    public var open: String

    public init(ok: String, ignore: String, remindMeLater: String, moreInfo: String, cancel: String, open: String) {
        self.ok = ok
        self.ignore = ignore
        self.remindMeLater = remindMeLater
        self.moreInfo = moreInfo
        self.cancel = cancel
        self.open = open
    }

    /// The labels in the language of `catalog`, English where it has no translation.
    public init(catalog: MessageCatalog) {
        self.init(
            ok: catalog.translated("OK", context: "button"),
            ignore: catalog.translated("Ignore", context: "button"),
            remindMeLater: catalog.translated("Remind Me Later", context: "button"),
            moreInfo: catalog.translated("More Info", context: "button"),
            cancel: catalog.translated("Cancel", context: "button"),
            open: catalog.translated("Open", context: "button"))
    }

    /// The English labels, iNotify's defaults.
    public static let english = ButtonLabels(catalog: .english)
}
