import Foundation
import NotifySchedCore
import Testing

/// What a feed says reaches a terminal as text, never as a command to it.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "\\u001B[31mred\\u001B[0m"),
        ("\u{1B}]0;owned\u{07}", "\\u001B]0;owned\\u0007"),
        ("over\rwrite\u{08}", "over\\u000Dwrite\\u0008"),
        ("del\u{7F} c1\u{9B}2J", "del\\u007F c1\\u009B2J"),
        ("evil\u{202E}txt.exe", "evil\\u202Etxt.exe"),
        ("\u{2066}isolated\u{2069} \u{200F}mark \u{061C}", "\\u2066isolated\\u2069 \\u200Fmark \\u061C"),
    ])
    func whatATerminalWouldObeyIsWrittenAsAnEscape(text: String, shown: String) {
        #expect(TerminalText.escaped(text) == shown)
    }

    @Test func ordinaryTextTabsAndLinesPassAsTheyAre() {
        let text = "Stand-up\tat 09:30\nRéunion, 会議, اجتماع, 🚀"
        #expect(TerminalText.escaped(text) == text)
    }

    @Test func escapedJSONStaysValidAndMeansTheSame() throws {
        let title = "a\u{202E}b\u{7F}c\u{85}"
        let json = String(decoding: try JSONEncoder().encode(["title": title]), as: UTF8.self)
        let escaped = TerminalText.escaped(json)
        #expect(!escaped.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x7F || $0.value == 0x85 })
        #expect(try JSONDecoder().decode([String: String].self, from: Data(escaped.utf8)) == ["title": title])
    }
}
