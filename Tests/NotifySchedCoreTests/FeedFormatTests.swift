import NotifySchedCore
import Testing

@Suite struct FeedFormatTests {
    @Test func sniffsEachFormatFromItsFirstBytes() throws {
        #expect(try FeedFormat.detect(in: Array("bplist00rest".utf8)) == .binaryPropertyList)
        #expect(try FeedFormat.detect(in: Array("<?xml version=\"1.0\"?>".utf8)) == .xmlPropertyList)
        #expect(try FeedFormat.detect(in: Array(" \n\t{\"a\": 1}".utf8)) == .json)
        #expect(try FeedFormat.detect(in: Array("[1]".utf8)) == .json)
        #expect(try FeedFormat.detect(in: [0xEF, 0xBB, 0xBF] + Array("\n<plist>".utf8)) == .xmlPropertyList)
    }

    @Test func rawValuesAreTheNamesUsersSee() {
        #expect(FeedFormat.allCases.map(\.rawValue) == ["json", "xml-plist", "binary-plist", "icalendar"])
    }

    @Test func refusesWhatIsNoneOfTheThreeFormats() {
        for text in ["", "   \n", "hello", "42", "\"text\"", "true", "bplist15xxxxxxxx"] {
            #expect(readError(text)?.code == .unknownFormat, "\(text.debugDescription) should be an unknown format")
        }
    }

    @Test func refusesUTF16AndUTF32WithAClearMessage() {
        let wide: [[UInt8]] = [
            [0xFE, 0xFF, 0x00, 0x7B], [0xFF, 0xFE, 0x7B, 0x00], [0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x7B],
            [0x7B, 0x00, 0x7D, 0x00], [0x00, 0x3C, 0x00, 0x70],
        ]
        for bytes in wide {
            let error = readError(bytes)
            #expect(error?.code == .unknownFormat)
            #expect(error?.message.contains("UTF-16") == true, "the message should name the encoding problem")
        }
    }

    @Test func refusesOpenStepPlistsAsUnknownFormat() {
        for text in ["{ title = Hello; }", "{\"title\" = \"Hello\";}", "(one, two)", "<0fbd7764>"] {
            #expect(readError(text)?.code == .unknownFormat, "\(text) is an OpenStep plist, not JSON or XML")
        }
    }

    @Test func refusesXMLThatIsNotAPlist() {
        #expect(readError("<html><body/></html>")?.code == .unknownFormat)
        #expect(readError("<?xml version=\"1.0\"?>\n<!DOCTYPE html>\n<html/>")?.code == .unknownFormat)
    }

    @Test func checksTheSizeCapBeforeAnythingElse() {
        let error = readError(Array(repeating: 0xFF, count: 101), limits: FeedReadLimits(maxBytes: 100))
        #expect(error?.code == .tooLarge)
    }
}
