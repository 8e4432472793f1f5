import Foundation
import NotifySchedTesting
import Testing

/// The built `notify-sched` in the user's language, on a private bus against dbusmock's
/// notification server: from its build folder it reads the source tree's `po/*.po`; installed,
/// the compiled catalogs (`scripts/build-translations`, which `make install` runs).
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct TranslationTests {
    typealias CLI = CommandLineHarness

    /// Runs `test --action-url https://example.org --wait` with `environment`, dismisses its
    /// popup, and returns what it printed and the `Notify` call the server received.
    func testPopup(
        _ environment: [String: String], capabilities: [String] = ["actions", "body"]
    ) throws -> (CLI.Outcome, PrivateSessionBus.NotifyCall) {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: capabilities)
        let running = try CLI.start(
            ["test", "--action-url", "https://example.org", "--wait"],
            environment: bus.environment.merging(environment) { $1 })
        let call = try #require(try bus.waitForNotifyCalls(1).first)
        try bus.closePopup(1, reason: 2)
        return (running.finish(), call)
    }

    @Test func inFrenchTheActionButtonSaysPlusDInfoAndTheTestPopupIsFrench() throws {
        let (outcome, call) = try testPopup(["LANG": "fr_FR.UTF-8"])
        #expect(outcome.status == 0)
        #expect(call.actions == ["open", "Plus d'info", "default", "Test de notify-sched"])
        #expect(call.summary == "Test de notify-sched")
        #expect(call.body == "Ceci est une notification de test de notify-sched.")
        #expect(outcome.standardOutput.hasPrefix("delivered: test-"), "result lines stay English for scripts")
    }

    @Test func germanWorksWhetherOrNotTheLocaleIsGeneratedOnTheMachine() throws {
        let (_, call) = try testPopup(["LANG": "de_DE.UTF-8"])
        #expect(call.actions.prefix(2) == ["open", "Mehr info"])
    }

    @Test func theLanguageListComesFirst() throws {
        let (_, call) = try testPopup(["LANGUAGE": "ja:fr", "LANG": "fr_FR.UTF-8"])
        #expect(call.actions.prefix(2) == ["open", "詳細を調べる"])
    }

    @Test func theCLocaleAndUnknownLanguagesAreEnglish() throws {
        #expect(try testPopup(["LANG": "C", "LANGUAGE": "fr"]).1.actions.prefix(2) == ["open", "More Info"])
        #expect(try testPopup(["LANG": "pt_BR.UTF-8"]).1.actions.prefix(2) == ["open", "More Info"])
    }

    @Test func theCompiledCatalogsOfAnInstallationAreReadToo() throws {
        let locale = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-locale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: locale) }
        let built = try ExternalProgram.run(
            CLI.repository.appendingPathComponent("scripts/build-translations").path, [locale.path])
        #expect(built == 0)
        // A catalog of its own, so that the labels cannot have come from po/.
        let po = try CLI.temporaryFile(
            "msgctxt \"button\"\nmsgid \"More Info\"\nmsgstr \"En savoir plus (installé)\"\n", name: "fr.po")
        #expect(
            try ExternalProgram.run(
                "/usr/bin/msgfmt", ["--output-file=\(locale.path)/fr/LC_MESSAGES/notify-sched.mo", po]) == 0)
        let (_, call) = try testPopup(["LANG": "fr_FR.UTF-8", "NOTIFY_SCHED_LOCALEDIR": locale.path])
        #expect(call.actions.prefix(2) == ["open", "En savoir plus (installé)"])
        let (_, german) = try testPopup(["LANG": "de_DE.UTF-8", "NOTIFY_SCHED_LOCALEDIR": locale.path])
        #expect(german.actions.prefix(2) == ["open", "Mehr info"])
    }

    @Test func theLineThatSaysHowToActIsTranslatedForAServerWithoutButtons() throws {
        let (outcome, call) = try testPopup(["LANG": "es_ES.UTF-8"], capabilities: ["body"])
        let firstLine = outcome.standardOutput.split(separator: "\n").first ?? ""
        let id = String(firstLine.dropFirst("entregada: ".count))
        #expect(call.body.hasSuffix("\n\nPara responder, ejecute: notify-sched handle \(id) --no-alert"))
    }

    @Test func handleSaysInTheUsersLanguageThatAnIdIsNotOurs() throws {
        let bus = try PrivateSessionBus()
        let outcome = try CLI.run(
            ["handle", "nope"], environment: bus.environment.merging(["LANG": "it_IT.UTF-8"]) { $1 })
        #expect(
            outcome
                == .init(
                    status: 3, standardOutput: "",
                    standardError:
                        "notify-sched: nope: non è una notifica consegnata da notify-sched; non è stato fatto nulla\n"
                        + "`notify-sched list` mostra l'ultimo id di occorrenza di ogni voce; "
                        + "`notify-sched handle` lo accetta, oppure l'id della voce\n"))
    }

    @Test func theDaemonsPopupsAreInTheUsersLanguage() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try CLI.temporaryFile(
            #"{"notifications": [{"id": "go", "title": "Go", "action": {"url": "https://example.org/go"}}]}"#)
        let daemon = try CLI.start(
            ["daemon", "--feed", path], environment: bus.environment.merging(["LANG": "de_DE.UTF-8"]) { $1 })
        #expect(
            try bus.waitForNotifyCalls(1).first?.actions == [
                "open", "Mehr info", "snooze-600", "In 10min", "snooze-3600", "In 1h", "default", "Go",
            ])
        kill(daemon.process.processIdentifier, SIGTERM)
        #expect(daemon.finish().status == 0)
    }
}

/// Runs a helper program to completion, its output discarded, and returns its exit status.
enum ExternalProgram {
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
