import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

@Suite struct TranslationCatalogsTests {
    typealias Fixtures = TranslationFixtures

    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], ["de_DE", "de"]),
        (["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "it_IT", "LC_ALL": "es_ES.UTF-8"], ["es_ES", "es"]),
        (["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "it_IT"], ["it_IT", "it"]),
        (["LANG": "de_DE.UTF-8", "LC_ALL": ""], ["de_DE", "de"]),
        (["LANGUAGE": "ja:fr", "LANG": "de_DE.UTF-8"], ["ja", "fr", "de_DE", "de"]),
        (["LANGUAGE": "pt_BR::fr", "LANG": "de_DE@euro"], ["pt_BR", "pt", "fr", "de_DE", "de"]),
        (["LANGUAGE": "ja:fr", "LANG": "C"], []),
        (["LANGUAGE": "ja:fr"], []),
        (["LANG": "POSIX"], []),
        ([:], []),
    ])
    func catalogsAreTriedInGettextsOrder(environment: [String: String], names: [String]) {
        #expect(LanguagePreference.preferred(in: environment).flatMap(\.catalogNames) == names)
    }

    @Test func theFeedLanguageIsTheFirstPreferredOne() {
        #expect(
            LanguagePreference.fromEnvironment(["LANGUAGE": "ja:fr", "LANG": "de_DE.UTF-8"])
                == LanguagePreference(language: "ja"))
        #expect(LanguagePreference.fromEnvironment(["LANG": "fr_CA.UTF-8"]) == LanguagePreference(localeName: "fr_CA"))
    }

    /// A `<prefix>` with `bin/notify-sched` (a plain file) and the catalogs compiled into `share/locale`.
    func installedPrefix() throws -> URL {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-prefix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try Data().write(to: prefix.appendingPathComponent("bin/notify-sched"))
        let built = try Fixtures.script("build-translations", [prefix.appendingPathComponent("share/locale").path])
        #expect(built.status == 0, "scripts/build-translations failed: \(built.standardError)")
        return prefix
    }

    @Test(arguments: [
        (["LANG": "fr_FR.UTF-8"], "Plus d'info"),
        (["LANG": "de_DE.UTF-8"], "Mehr info"),
        (["LANGUAGE": "ja:fr", "LANG": "fr_FR.UTF-8"], "詳細を調べる"),
        (["LANGUAGE": "pt:it", "LANG": "fr_FR.UTF-8"], "Maggiori informazioni"),
        (["LANGUAGE": "en:fr", "LANG": "fr_FR.UTF-8"], "More Info"),
        (["LANG": "pt_BR.UTF-8"], "More Info"),
        (["LANG": "C", "LANGUAGE": "fr"], "More Info"),
    ])
    func anInstalledExecutableReadsTheCatalogsBesideIt(environment: [String: String], moreInfo: String) throws {
        let prefix = try installedPrefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let catalog = TranslationCatalogs.catalog(
            environment: environment, executable: prefix.appendingPathComponent("bin/notify-sched").path)
        #expect(ButtonLabels(catalog: catalog).moreInfo == moreInfo)
    }

    @Test func theLocaleFolderVariableComesFirst() throws {
        let prefix = try installedPrefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let folder = prefix.appendingPathComponent("share/locale").path
        let environment = ["NOTIFY_SCHED_LOCALEDIR": folder, "LANG": "es_ES.UTF-8"]
        #expect(
            TranslationCatalogs.location(environment: environment, executable: "/usr/bin/notify-sched")
                == .compiled(folder))
        #expect(
            ButtonLabels(catalog: TranslationCatalogs.catalog(environment: environment, executable: nil)).ignore
                == "Pasar")
    }

    @Test func anExecutableInItsBuildFolderReadsTheSourceTreesPoFiles() {
        let executable = Fixtures.repository.appendingPathComponent(
            ".build/x86_64-unknown-linux-gnu/debug/notify-sched"
        ).path
        #expect(
            TranslationCatalogs.location(environment: [:], executable: executable)
                == .sources(Fixtures.repository.appendingPathComponent("po").path))
        let catalog = TranslationCatalogs.catalog(environment: ["LANG": "it_IT.UTF-8"], executable: executable)
        #expect(ButtonLabels(catalog: catalog).remindMeLater == "Ricordamelo dopo")
    }

    @Test func withNoCatalogAnywhereEverythingIsEnglish() {
        let environment = ["LANG": "fr_FR.UTF-8"]
        #expect(
            TranslationCatalogs.location(environment: environment, executable: "/nonexistent/bin/notify-sched") == nil)
        #expect(
            TranslationCatalogs.catalog(environment: environment, executable: "/nonexistent/bin/notify-sched")
                == .english)
        #expect(TranslationCatalogs.catalog(environment: environment, executable: nil) == .english)
    }

    @Test func aBrokenCatalogIsPassedOverForTheNextLanguage() throws {
        let prefix = try installedPrefix()
        defer { try? FileManager.default.removeItem(at: prefix) }
        try Data("not a catalog".utf8).write(
            to: prefix.appendingPathComponent("share/locale/ja/LC_MESSAGES/notify-sched.mo"))
        let catalog = TranslationCatalogs.catalog(
            environment: ["LANGUAGE": "ja:de", "LANG": "fr_FR.UTF-8"],
            executable: prefix.appendingPathComponent("bin/notify-sched").path)
        #expect(ButtonLabels(catalog: catalog).moreInfo == "Mehr info")
    }
}
