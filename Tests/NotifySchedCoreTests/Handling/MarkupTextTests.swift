import NotifySchedCore
import Testing

@Suite struct MarkupTextTests {
    @Test(arguments: [
        ("<b>bold</b> <i>it</i> <u>under</u>", "<b>bold</b> <i>it</i> <u>under</u>"),
        (#"<a href="https://example.org/?a=1&amp;b=2">go</a>"#, #"<a href="https://example.org/?a=1&amp;b=2">go</a>"#),
        (#"<a href='javascript:alert(1)'>x</a>"#, "x"),
        (#"<a href="file:///etc/passwd">x</a>"#, "x"),
        (#"<img src="https://tracker.example/p.gif" alt="logo"/> text"#, "logo text"),
        ("<span foreground='red'>red</span>", "red"),
        ("<b>open <i>nested</b> rest", "<b>open <i>nested rest</i></b>"),
        ("</b>stray", "stray"),
        ("a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"),
        ("&amp; &#38; &#x26; &nbsp; &bogus", "&amp; &#38; &#x26; &amp;nbsp; &amp;bogus"),
        ("<B>Upper</B>", "<b>Upper</b>"),
        (#"<a href="https://x.example" onclick="evil()">x</a>"#, #"<a href="https://x.example">x</a>"#),
        ("<b", "&lt;b"),
        ("", ""),
    ])
    func cleanedKeepsOnlyTheSpecsSubsetAndIsAlwaysWellFormed(markup: String, cleaned: String) {
        #expect(MarkupText.cleaned(markup) == cleaned)
    }

    @Test(arguments: [
        ("<b>bold</b> &amp; <i>it</i>", "bold & it"),
        (#"<img src="x.png" alt="logo"/>!"#, "logo!"),
        ("&lt;tag&gt; &#233;t&#xE9;", "<tag> été"),
        ("a < b", "a < b"),
    ])
    func textOfMarkupIsWhatItShows(markup: String, text: String) {
        #expect(MarkupText.text(of: markup) == text)
    }

    /// Seeded random markup, hostile by construction: whatever comes in, what goes out parses as
    /// balanced tags of the subset with valid entities.
    @Test func cleanedOutputIsBalancedForRandomInput() {
        var generator = SplitMix64(seed: 2026_11_26)
        let pieces = [
            "<b>", "</b>", "<i>", "</i>", "<a href=\"https://e.x\">", "</a>", "<", ">", "&", "&amp;", "x",
            "<img alt='y'>", "</u>", "<u>", "<script>", "\"", "'",
        ]
        for round in 0..<2000 {
            var markup = ""
            for _ in 0..<Int(generator.next() % 12) { markup += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let cleaned = MarkupText.cleaned(markup)
            var open: [String] = []
            var index = cleaned.startIndex
            var balanced = true
            while let tagStart = cleaned[index...].firstIndex(of: "<") {
                guard let tagEnd = cleaned[tagStart...].firstIndex(of: ">") else {
                    balanced = false
                    break
                }
                let tag = String(cleaned[cleaned.index(after: tagStart)..<tagEnd])
                if tag.hasPrefix("/") {
                    balanced = balanced && open.popLast() == String(tag.dropFirst())
                } else {
                    open.append(String(tag.prefix { $0 != " " }))
                }
                index = cleaned.index(after: tagEnd)
            }
            #expect(
                balanced && open.isEmpty,
                "seed 20261126 round \(round): \(markup.debugDescription) → \(cleaned.debugDescription)")
        }
    }
}
