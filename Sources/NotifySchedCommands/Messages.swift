import NotifySchedCore
import NotifySchedPlatform

/// The translations of what the commands print, in the user's language (README "Translations").
enum Messages {
    /// The catalog `TranslationCatalogs` finds for this process's environment, read on first use.
    static let catalog = TranslationCatalogs.catalog()
}
