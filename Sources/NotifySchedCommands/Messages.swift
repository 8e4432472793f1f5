import NotifySchedCore
import NotifySchedPlatform

/// The translations of what the commands print, in the user's language (docs/development.md "Translations").
enum Messages {
    /// The catalog `TranslationCatalogs` finds for this process's environment, read on first use.
    static let catalog = TranslationCatalogs.catalog()
}
