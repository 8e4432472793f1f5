import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

@Suite struct MessageCatalogTests {
    typealias Fixtures = TranslationFixtures

    static let header = ("", "Content-Type: text/plain; charset=UTF-8\n")

    // MARK: .mo files

    @Test(arguments: [false, true])
    func aMachineObjectIsReadInEitherByteOrder(bigEndian: Bool) throws {
        let bytes = Fixtures.machineObject(
            [Self.header, ("Ignore", "Pasar"), ("button\u{4}OK", "Vale"), ("More Info", "Más información")],
            bigEndian: bigEndian)
        let catalog = try MessageCatalog(machineObject: bytes)
        #expect(
            catalog.translations == ["Ignore": "Pasar", "button\u{4}OK": "Vale", "More Info": "Más información"])
        #expect(catalog.translated("More Info") == "Más información")
    }

    @Test func aContextKeepsTheSameWordsApart() throws {
        let catalog = try MessageCatalog(machineObject: Fixtures.machineObject([("button\u{4}Open", "Öffnen")]))
        #expect(catalog.translated("Open", context: "button") == "Öffnen")
        #expect(catalog.translated("Open") == "Open", "without its context the message has no translation")
        #expect(catalog.translated("Open", context: "menu") == "Open")
    }

    @Test func aPluralEntryIsKeptUnderItsSingularWithItsFirstForm() throws {
        let catalog = try MessageCatalog(
            machineObject: Fixtures.machineObject([("one popup\0{n} popups", "une notification\0{n} notifications")]))
        #expect(catalog.translations == ["one popup": "une notification"])
    }

    @Test func entriesWithoutPluralFormsAndEmptyTranslationsAreReadAsGettextDoes() throws {
        let catalog = try MessageCatalog(
            machineObject: Fixtures.machineObject([Self.header, ("Cancel", ""), ("OK", "OK"), ("Later", "Plus tard")]))
        #expect(catalog.translations == ["OK": "OK", "Later": "Plus tard"])
        #expect(catalog.translated("Cancel") == "Cancel", "an empty translation leaves the message English")
    }

    @Test func whatMsgfmtCompilesReadsTheSameAsThePoFileItCameFrom() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-mo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = try Fixtures.script("build-translations", [folder.path])
        #expect(built.status == 0, "scripts/build-translations failed: \(built.standardError)")
        for language in Fixtures.languages {
            let compiled = try Data(
                contentsOf: folder.appendingPathComponent("\(language)/LC_MESSAGES/notify-sched.mo"))
            let fromMachineObject = try MessageCatalog(machineObject: [UInt8](compiled))
            #expect(!fromMachineObject.isEmpty)
            #expect(
                fromMachineObject == (try MessageCatalog(portableObject: Fixtures.portableObject(language))),
                "the \(language) catalog reads differently from its .mo and its .po")
        }
    }

    @Test func everyTruncationOfACompiledCatalogIsAnErrorNeverACrash() throws {
        let bytes = Fixtures.machineObject([
            Self.header, ("Ignore", "Ignorer"), ("button\u{4}More Info", "Plus d'info"),
        ])
        _ = try MessageCatalog(machineObject: bytes)
        for length in 0..<bytes.count {
            #expect(throws: CoreError.self, "a file cut to \(length) bytes") {
                try MessageCatalog(machineObject: Array(bytes.prefix(length)))
            }
        }
    }

    @Test func corruptOffsetsLengthsAndCountsAreErrors() throws {
        let valid = Fixtures.machineObject([("OK", "D'accord")])
        // Header words: 2 count, 3 originals table, 4 translations table; the table entries
        // at 28 (original length, offset) and 36 (translation length, offset).
        let corruptions: [(offset: Int, value: UInt32, why: String)] = [
            (0, 0x1234_5678, "a wrong magic number"),
            (4, 2 << 16, "an unknown major revision"),
            (8, 0xFFFF_FFFF, "a count larger than the file"),
            (12, 0xFFFF_FFF0, "an originals table past the end"),
            (16, UInt32(valid.count), "a translations table at the end"),
            (28, 0xFFFF_FFFF, "a string length past the end"),
            (32, 0xFFFF_FFFF, "a string offset past the end"),
            (36, 3, "a string without its NUL"),
        ]
        for corruption in corruptions {
            var bytes = valid
            Fixtures.patch(&bytes, at: corruption.offset, corruption.value)
            #expect(throws: CoreError.self, "\(corruption.why)") { try MessageCatalog(machineObject: bytes) }
        }
    }

    @Test func randomlyCorruptedCatalogsNeverCrash() throws {
        let valid = Fixtures.machineObject([Self.header, ("Ignore", "Ignorer"), ("Remind Me Later", "Plus tard")])
        var generator = SplitMix64(seed: 7)
        var rejected = 0
        for _ in 0..<5000 {
            var bytes = valid
            for _ in 0...Int.random(in: 0...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if (try? MessageCatalog(machineObject: bytes)) == nil { rejected += 1 }
        }
        #expect(rejected > 0, "some of the corrupted files must have been refused")
    }

    @Test func aCatalogThatIsNotUTF8OrTooLargeIsRefused() throws {
        let latin1 = Fixtures.machineObject([("", "Content-Type: text/plain; charset=ISO-8859-1\n"), ("OK", "Oui")])
        #expect(throws: CoreError(.invalidCatalog, "the catalog's charset is iso-8859-1, not UTF-8")) {
            try MessageCatalog(machineObject: latin1)
        }
        var invalidUTF8 = Fixtures.machineObject([("OK", "Ou")])
        invalidUTF8[invalidUTF8.count - 2] = 0xFF
        #expect(throws: CoreError.self) { try MessageCatalog(machineObject: invalidUTF8) }
        let huge = Fixtures.machineObject([("OK", String(repeating: "x", count: MessageCatalog.maxBytes))])
        #expect(throws: CoreError.self) { try MessageCatalog(machineObject: huge) }
    }

    // MARK: .po files

    @Test func aPortableObjectKeepsWhatMsgfmtWouldCompile() throws {
        let text = #"""
            # A comment.
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\n"

            #: Sources/A.swift
            #, python-brace-format
            msgid "opened: {url}"
            msgstr "ouvert : {url}"

            msgctxt "button"
            msgid "More Info"
            msgstr "Plus d'info"

            msgid ""
            "a long message "
            "on two lines"
            msgstr ""
            "un long message\n"
            "\tavec \"guillemets\" et \\"

            #, fuzzy
            msgid "Ignore"
            msgstr "Ignorer"

            msgid "Cancel"
            msgstr ""

            msgid "one popup"
            msgid_plural "{n} popups"
            msgstr[0] "une notification"
            msgstr[1] "{n} notifications"

            #~ msgid "Old"
            #~ msgstr "Vieux"
            """#
        let catalog = try MessageCatalog(portableObject: Array(text.utf8))
        #expect(
            catalog.translations == [
                "opened: {url}": "ouvert : {url}",
                "button\u{4}More Info": "Plus d'info",
                "a long message on two lines": "un long message\n\tavec \"guillemets\" et \\",
                "one popup": "une notification",
            ])
    }

    @Test(arguments: [
        ("msgstr \"x\"\n", 1, "a keyword out of place"),
        ("msgid \"a\"\nmsgstr \"b\n", 2, "a string must be one quoted string on its line"),
        ("msgid \"a\"\nmsgstr \"b\\q\"\n", 2, "unsupported escape \\q"),
        ("msgid \"a\"\nmsgstring \"b\"\n", 2, "unknown keyword \"msgstring\""),
        ("\"orphan\"\n", 1, "a string that continues no keyword"),
        ("msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"c\"\n", 1, "the entry has no msgid and msgstr (or msgstr[0])"),
        (
            "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n", 1,
            "the catalog's charset is iso-8859-1, not UTF-8"
        ),
    ])
    func aMalformedPortableObjectIsAnErrorNamingTheLine(text: String, line: Int, message: String) {
        #expect(throws: CoreError(.invalidCatalog, message, at: FeedLocation(line: line))) {
            try MessageCatalog(portableObject: Array(text.utf8))
        }
    }

    @Test func everyTruncationOfAPortableObjectReadsOrFailsWithoutCrashing() throws {
        let bytes = try Fixtures.portableObject("ja")
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? MessageCatalog(portableObject: Array(bytes.prefix(length)))
        }
    }

    // MARK: Lookup

    @Test func placeholdersAreFilledInOnePassAndUnknownOnesStay() {
        let catalog = MessageCatalog(translations: ["delivered: {id}": "envoyée : {id} ({other})"])
        #expect(catalog.translated("delivered: {id}", ["id": "{id}-1"]) == "envoyée : {id}-1 ({other})")
        #expect(MessageCatalog.english.translated("closed: {reason}", ["reason": "expired"]) == "closed: expired")
        #expect(MessageCatalog.english.translated("{unclosed", ["unclosed": "x"]) == "{unclosed")
    }
}
