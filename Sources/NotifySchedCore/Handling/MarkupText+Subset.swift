extension MarkupText {
    /// `markup` cleaned to the notification spec's subset, for a server that reads markup:
    /// `<b>`, `<i>`, `<u>` and `<a href>` to an `http`, `https` or `mailto` URL are kept, balanced
    /// (a stray closing tag dropped, what is left open closed at the end); an `<img>` becomes its
    /// `alt` text (a feed's picture goes in `image`, where no server fetches a URL); every other
    /// tag is dropped and its text kept; a `&` that starts no entity, and a stray `<` or `>`, are
    /// escaped. What comes out is well-formed, so no server shows it raw or blank.
    public static func cleaned(_ markup: String) -> String {
        var output = ""
        var open: [String] = []
        for token in tokens(of: markup) {
            switch token {
            case .text(let text):
                output += text
            case .tag(let name, let closing, let attributes):
                switch (name, closing) {
                case ("b", false), ("i", false), ("u", false):
                    open.append(name)
                    output += "<\(name)>"
                case ("a", false):
                    guard let href = attributes["href"], isLinkable(href) else { continue }
                    open.append(name)
                    output += "<a href=\"\(escaped(href))\">"
                case ("b", true), ("i", true), ("u", true), ("a", true):
                    guard open.last == name else { continue }
                    open.removeLast()
                    output += "</\(name)>"
                case ("img", _):
                    output += escaped(attributes["alt"] ?? "")
                default:
                    continue
                }
            }
        }
        for name in open.reversed() { output += "</\(name)>" }
        return output
    }

    /// The text `markup` shows, for a server that reads none: its tags dropped (an `<img>` as its
    /// `alt` text) and its entities read.
    public static func text(of markup: String) -> String {
        var output = ""
        for token in tokens(of: markup) {
            switch token {
            case .text(let text): output += unescaped(text)
            case .tag("img", _, let attributes): output += attributes["alt"] ?? ""
            case .tag: continue
            }
        }
        return output
    }

    /// A piece of markup: text (its entities valid, its stray `&`, `<` and `>` escaped) or a tag.
    private enum Token {
        case text(String)
        /// A tag's lowercased name, whether it closes, and its attributes (values unescaped).
        case tag(String, closing: Bool, attributes: [String: String])
    }

    private static func tokens(of markup: String) -> [Token] {
        var tokens: [Token] = []
        var text = ""
        let scalars = Array(markup.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", let (tag, end) = tag(in: scalars, at: index) {
                if !text.isEmpty { tokens.append(.text(text)) }
                text = ""
                tokens.append(tag)
                index = end
                continue
            }
            switch scalar {
            case "&": text += entity(in: scalars, at: index) ?? "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            default: text.unicodeScalars.append(scalar)
            }
            index += entity(in: scalars, at: index).map { $0.unicodeScalars.count } ?? 1
        }
        if !text.isEmpty { tokens.append(.text(text)) }
        return tokens
    }

    /// The entity at `index` (`&amp;`, `&#38;`, `&#x26;`) as written; nil when none starts there.
    private static func entity(in scalars: [Unicode.Scalar], at index: Int) -> String? {
        guard scalars[index] == "&" else { return nil }
        var end = index + 1
        while end < scalars.count, end - index <= 10, scalars[end] != ";" { end += 1 }
        guard end < scalars.count, scalars[end] == ";" else { return nil }
        let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
        guard namedEntities[name] != nil || numericEntity(name) != nil else { return nil }
        return "&\(name);"
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
    ]

    /// The character `#38` or `#x26` names; nil when it names none.
    private static func numericEntity(_ name: String) -> Unicode.Scalar? {
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value =
            digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init).flatMap { $0.value == 0 ? nil : $0 }
    }

    /// `text` with its entities read.
    private static func unescaped(_ text: String) -> String {
        var output = ""
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if let entity = entity(in: scalars, at: index) {
                let name = String(entity.dropFirst().dropLast())
                if let named = namedEntities[name] {
                    output += named
                } else if let scalar = numericEntity(name) {
                    output.unicodeScalars.append(scalar)
                }
                index += entity.unicodeScalars.count
            } else {
                output.unicodeScalars.append(scalars[index])
                index += 1
            }
        }
        return output
    }

    /// The tag that starts at `index` (a `<`) and the index after its `>`; nil when what follows
    /// is no tag (`a < b`), which is then text.
    private static func tag(in scalars: [Unicode.Scalar], at index: Int) -> (Token, Int)? {
        var cursor = index + 1
        let closing = cursor < scalars.count && scalars[cursor] == "/"
        if closing { cursor += 1 }
        let nameStart = cursor
        while cursor < scalars.count, scalars[cursor].properties.isAlphabetic { cursor += 1 }
        guard cursor > nameStart else { return nil }
        let name = String(String.UnicodeScalarView(scalars[nameStart..<cursor])).lowercased()
        var attributes: [String: String] = [:]
        while cursor < scalars.count {
            let scalar = scalars[cursor]
            if scalar == ">" { return (.tag(name, closing: closing, attributes: attributes), cursor + 1) }
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "/" {
                cursor += 1
                continue
            }
            // An attribute: name="value", name='value' or a bare name.
            let keyStart = cursor
            while cursor < scalars.count, scalars[cursor].properties.isAlphabetic || scalars[cursor] == "-" {
                cursor += 1
            }
            guard cursor > keyStart else { return nil }
            let key = String(String.UnicodeScalarView(scalars[keyStart..<cursor])).lowercased()
            guard cursor < scalars.count, scalars[cursor] == "=" else {
                attributes[key] = ""
                continue
            }
            cursor += 1
            guard cursor < scalars.count, scalars[cursor] == "\"" || scalars[cursor] == "'" else { return nil }
            let quote = scalars[cursor]
            let valueStart = cursor + 1
            guard let valueEnd = scalars[valueStart...].firstIndex(of: quote) else { return nil }
            attributes[key] = unescaped(String(String.UnicodeScalarView(scalars[valueStart..<valueEnd])))
            cursor = valueEnd + 1
        }
        return nil
    }

    /// Whether a link may go to `url`: the schemes a feed's action may always open.
    private static func isLinkable(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return ["http://", "https://", "mailto:"].contains { lowered.hasPrefix($0) }
    }
}
