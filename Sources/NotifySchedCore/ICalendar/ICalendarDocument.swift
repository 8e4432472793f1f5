/// An iCalendar document (RFC 5545) read into its components, with the line each starts on.
///
/// Reading is bounded like every feed's (`ICalendarLimits`): content lines are unfolded, split
/// into name, parameters and value, and nested `BEGIN`/`END` blocks become components. Values stay
/// text; `ICalendarMapper` reads the ones it uses.
public struct ICalendarDocument: Sendable {
    /// The `VCALENDAR` component.
    public var calendar: ICalendarComponent

    /// Reads `bytes`.
    ///
    /// - Throws: `CoreError` with `.invalidUTF8`, `.syntax` (a line without a colon, an `END`
    ///   that closes nothing or the wrong component, a component left open, no `VCALENDAR`)
    ///   or `.limitExceeded` (nesting, properties, components), naming the line.
    public static func read(_ bytes: [UInt8], limits: ICalendarLimits = ICalendarLimits()) throws(CoreError)
        -> ICalendarDocument
    {
        let lines = try ContentLines(bytes, limits: limits)
        var reader = TreeBuilder(limits: limits)
        for line in lines.lines { try reader.take(try ICalendarProperty(parsing: line.text, line: line.number)) }
        return ICalendarDocument(calendar: try reader.finish())
    }
}

/// A component: `VCALENDAR`, `VEVENT`, `VALARM`, `VTIMEZONE`, …
public struct ICalendarComponent: Sendable {
    /// Its name, in upper case.
    public var name: String
    /// Its properties, in document order.
    public var properties: [ICalendarProperty]
    /// The components inside it, in document order.
    public var components: [ICalendarComponent]
    /// The line of its `BEGIN`.
    public var line: Int
    /// The file it is in, when a folder of calendar items was read as one calendar.
    public var file: String?

    /// The first property called `name`.
    public func property(_ name: String) -> ICalendarProperty? { properties.first { $0.name == name } }

    /// Every property called `name`.
    public func properties(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }

    /// This component and those inside it, marked as read from `file`.
    func inFile(_ file: String) -> ICalendarComponent {
        var marked = self
        marked.file = file
        marked.components = components.map { $0.inFile(file) }
        return marked
    }
}

/// One content line: `NAME;PARAM=value:VALUE`, unfolded.
public struct ICalendarProperty: Sendable {
    /// Its name, in upper case.
    public var name: String
    /// Its parameters by upper-case name, each with its value unquoted (a list stays as written,
    /// commas and all).
    public var parameters: [String: String]
    /// The value as written: text escapes are undone by `text`.
    public var value: String
    /// The line it starts on.
    public var line: Int

    /// The value as text, with RFC 5545's escapes (`\\`, `\;`, `\,`, `\n`) undone.
    public var text: String {
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Splits an unfolded content line; the name and parameter names are upper-cased.
    init(parsing text: Substring, line: Int) throws(CoreError) {
        self.line = line
        // Read as UTF-8: the delimiters are ASCII, and characters cost more than bytes.
        let bytes = text.utf8
        var index = bytes.startIndex
        func word() -> String {
            let start = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: ":"),
                bytes[index] != UInt8(ascii: "=")
            {
                bytes.formIndex(after: &index)
            }
            return Self.upperCased(text[start..<index])
        }
        name = word()
        guard !name.isEmpty else {
            throw CoreError(.syntax, "a content line has no property name", at: FeedLocation(line: line))
        }
        var parameters: [String: String] = [:]
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") {
            bytes.formIndex(after: &index)
            let parameter = word()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "="), !parameter.isEmpty else {
                throw CoreError(
                    .syntax, "a parameter of \(name) has no `=value`", at: FeedLocation(keyPath: name, line: line))
            }
            bytes.formIndex(after: &index)
            var value = ""
            var quoted = false
            var start = index
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    value += text[start..<index]
                    quoted.toggle()
                    bytes.formIndex(after: &index)
                    start = index
                    continue
                }
                if !quoted && (byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")) { break }
                bytes.formIndex(after: &index)
            }
            value += text[start..<index]
            guard !quoted else {
                throw CoreError(
                    .syntax, "a quoted value of \(name)'s \(parameter) is not closed",
                    at: FeedLocation(keyPath: name, line: line))
            }
            parameters[parameter] = value
        }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else {
            throw CoreError(
                .syntax, "the \(name) line has no `:` before its value", at: FeedLocation(keyPath: name, line: line))
        }
        self.parameters = parameters
        value = String(text[bytes.index(after: index)...])
    }

    /// `text` in upper case; most names already are, and are then taken as they are.
    private static func upperCased(_ text: Substring) -> String {
        text.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } ? text.uppercased() : String(text)
    }
}

/// How much of an iCalendar document is read before it is refused.
public struct ICalendarLimits: Sendable, Hashable {
    /// The largest document in bytes (the feed cap: 16 MiB).
    public var maxBytes: Int
    /// The deepest nesting of components; `VCALENDAR` is at depth 1 (a `VALARM` in a `VEVENT`
    /// is at 3).
    public var maxDepth: Int
    /// The most content lines.
    public var maxLines: Int
    /// The longest unfolded content line, in bytes.
    public var maxLineBytes: Int

    public init(maxBytes: Int = 16 << 20, maxDepth: Int = 8, maxLines: Int = 1_000_000, maxLineBytes: Int = 1 << 20) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxLines = maxLines
        self.maxLineBytes = maxLineBytes
    }
}

/// The document's unfolded content lines, each with the number of its first physical line.
private struct ContentLines {
    struct Line {
        var text: Substring
        var number: Int
    }

    var lines: [Line] = []

    init(_ bytes: [UInt8], limits: ICalendarLimits) throws(CoreError) {
        guard bytes.count <= limits.maxBytes else {
            throw CoreError(.tooLarge, "the calendar is \(bytes.count) bytes, more than the \(limits.maxBytes) allowed")
        }
        let invalid = bytes.withUnsafeBufferPointer { UTF8Validator.firstInvalidOffset(in: $0) }
        if let invalid {
            let line = 1 + bytes[..<invalid].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw CoreError(.invalidUTF8, "the calendar is not UTF-8 text", at: FeedLocation(line: line))
        }
        // Lines split on the bytes: as characters, "\r\n" is one, which no "\n" matches.
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var current: String?
        var currentNumber = 0
        var number = 0
        while start <= bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let physical = bytes[start..<end]
            start = newline + 1
            number += 1
            if let first = physical.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                guard current != nil else {
                    throw CoreError(
                        .syntax, "the calendar starts with a folded (indented) line", at: FeedLocation(line: number))
                }
                current! += String(decoding: physical.dropFirst(), as: UTF8.self)
                guard current!.utf8.count <= limits.maxLineBytes else {
                    throw CoreError(
                        .limitExceeded, "a content line is longer than \(limits.maxLineBytes) bytes",
                        at: FeedLocation(line: currentNumber))
                }
                continue
            }
            if let line = current { lines.append(Line(text: Substring(line), number: currentNumber)) }
            guard lines.count < limits.maxLines else {
                throw CoreError(
                    .limitExceeded, "the calendar has more than \(limits.maxLines) content lines",
                    at: FeedLocation(line: number))
            }
            current = physical.isEmpty ? nil : String(decoding: physical, as: UTF8.self)
            currentNumber = number
        }
        if let line = current { lines.append(Line(text: Substring(line), number: currentNumber)) }
    }
}

/// Builds the component tree from content lines.
private struct TreeBuilder {
    let limits: ICalendarLimits
    var open: [ICalendarComponent] = []
    var calendar: ICalendarComponent?

    init(limits: ICalendarLimits) {
        self.limits = limits
    }

    mutating func take(_ property: ICalendarProperty) throws(CoreError) {
        switch property.name {
        case "BEGIN":
            let name = property.value.uppercased()
            guard !name.isEmpty else {
                throw CoreError(.syntax, "BEGIN names no component", at: FeedLocation(line: property.line))
            }
            guard open.count < limits.maxDepth else {
                throw CoreError(
                    .limitExceeded, "components nest more than \(limits.maxDepth) deep",
                    at: FeedLocation(keyPath: name, line: property.line))
            }
            if open.isEmpty, calendar != nil {
                throw CoreError(
                    .syntax, "a second top-level component; a calendar file holds one VCALENDAR",
                    at: FeedLocation(keyPath: name, line: property.line))
            }
            open.append(ICalendarComponent(name: name, properties: [], components: [], line: property.line))
        case "END":
            let name = property.value.uppercased()
            guard let last = open.popLast() else {
                throw CoreError(
                    .syntax, "END:\(name) closes no component", at: FeedLocation(keyPath: name, line: property.line))
            }
            guard last.name == name else {
                throw CoreError(
                    .syntax, "END:\(name) where END:\(last.name) (opened on line \(last.line)) was expected",
                    at: FeedLocation(keyPath: name, line: property.line))
            }
            if open.isEmpty {
                calendar = last
            } else {
                open[open.count - 1].components.append(last)
            }
        default:
            guard !open.isEmpty else {
                throw CoreError(
                    .syntax, "\(property.name) is outside any component",
                    at: FeedLocation(keyPath: property.name, line: property.line))
            }
            open[open.count - 1].properties.append(property)
        }
    }

    func finish() throws(CoreError) -> ICalendarComponent {
        if let unclosed = open.last {
            throw CoreError(
                .syntax, "\(unclosed.name) is never closed (no END:\(unclosed.name))",
                at: FeedLocation(keyPath: unclosed.name, line: unclosed.line))
        }
        guard let calendar else { throw CoreError(.syntax, "the document holds no component") }
        guard calendar.name == "VCALENDAR" else {
            throw CoreError(
                .unknownFormat, "the document's component is \(calendar.name), not VCALENDAR",
                at: FeedLocation(keyPath: calendar.name, line: calendar.line))
        }
        return calendar
    }
}
