import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

/// The catalogs in `po/` against the code and iNotify's strings.
@Suite struct TranslationFilesTests {
    typealias Fixtures = TranslationFixtures

    @Test func theTemplateAndEveryCatalogAreUpToDateWithTheMarkedMessages() throws {
        let check = try Fixtures.script("update-translations", ["--check"])
        #expect(check.status == 0, "\(check.standardError)")
    }

    @Test(arguments: TranslationFixtures.languages)
    func everyMarkedMessageIsTranslated(language: String) throws {
        let statistics = try ExternalCommand.run(
            "/usr/bin/msgfmt", ["--check", "--statistics", "--output-file=/dev/null", "-"],
            environment: ["LC_ALL": "C"], input: String(decoding: try Fixtures.portableObject(language), as: UTF8.self))
        #expect(statistics.status == 0)
        #expect(
            statistics.standardError.wholeMatch(of: /\d+ translated messages\.\n/) != nil,
            "po/\(language).po has untranslated or fuzzy messages: \(statistics.standardError)")
    }

    /// iNotify's labels (seed semantics §1.8) and the usual words for Cancel and Open.
    @Test(arguments: [
        (
            "fr",
            ButtonLabels(
                ok: "OK", ignore: "Ignorer", remindMeLater: "Me rappeler ultérieurement", moreInfo: "Plus d'info",
                cancel: "Annuler", open: "Ouvrir")
        ),
        (
            "de",
            ButtonLabels(
                ok: "OK", ignore: "Ignorieren", remindMeLater: "Mich später erinnern", moreInfo: "Mehr info",
                cancel: "Abbrechen", open: "Öffnen")
        ),
        (
            "it",
            ButtonLabels(
                ok: "OK", ignore: "Ignora", remindMeLater: "Ricordamelo dopo", moreInfo: "Maggiori informazioni",
                cancel: "Annulla", open: "Apri")
        ),
        (
            "es",
            ButtonLabels(
                ok: "OK", ignore: "Pasar", remindMeLater: "Recordarme más tarde", moreInfo: "Más información",
                cancel: "Cancelar", open: "Abrir")
        ),
        (
            "ja",
            ButtonLabels(
                ok: "OK", ignore: "無視する", remindMeLater: "後で再度通知する。", moreInfo: "詳細を調べる", cancel: "キャンセル", open: "開く")
        ),
    ])
    func theButtonLabelsAreINotifysOwn(language: String, labels: ButtonLabels) throws {
        #expect(ButtonLabels(catalog: try MessageCatalog(portableObject: Fixtures.portableObject(language))) == labels)
    }

    @Test func englishLabelsAreTheMessagesThemselves() {
        #expect(
            ButtonLabels.english
                == ButtonLabels(
                    ok: "OK", ignore: "Ignore", remindMeLater: "Remind Me Later", moreInfo: "More Info",
                    cancel: "Cancel", open: "Open"))
    }
}
