/// A table of text for a terminal: a header and aligned columns two spaces apart, each cell
/// escaped (`TerminalText.escaped`) before it is measured. When the table is wider than the
/// terminal, its optional columns are left out, the last first, until it fits or none is left
/// (whole titles matter more than extra columns), then its elastic columns are cut, widest
/// first, until it fits.
public struct TextTable: Sendable {
    /// One column: its title and how an over-long cell is cut to fit.
    public struct Column: Sendable {
        /// Where a cell too long for the terminal is cut, with `…` in its place.
        public enum Cut: Sendable {
            /// Keep the start (a title).
            case end
            /// Keep the end (a path or a URL, whose file name says the most).
            case start
        }

        public var title: String
        /// Nil for a column that keeps its width (times, ids, states).
        public var cut: Cut?
        /// An elastic column is never cut below this many characters (nor below its title).
        public var floor: Int
        /// Whether the column is left out when the table cannot fit with it.
        public var optional: Bool

        /// - Parameters:
        ///   - floor: How narrow an elastic column may get: the higher, the more it keeps while
        ///     the others are cut.
        ///   - optional: Leave the column out on a terminal too narrow for it.
        public init(_ title: String, cut: Cut? = nil, floor: Int = 12, optional: Bool = false) {
            self.title = title
            self.cut = cut
            self.floor = floor
            self.optional = optional
        }

        /// How narrow cutting may make it.
        var cutWidth: Int { max(title.count, floor) }
    }

    public var columns: [Column]
    /// The cells, a row each, as many as there are columns.
    public var rows: [[String]]

    public init(_ columns: [Column], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The table's lines, at most `width` characters wide where leaving out its optional
    /// columns and cutting its elastic ones gets it there (nil: as wide as the cells).
    public func lines(width: Int?) -> [String] {
        let cells = [columns.map(\.title)] + rows.map { $0.map(TerminalText.escaped) }
        var widths = columns.map(\.title.count)
        for row in cells.dropFirst() {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var shown = Array(columns.indices)
        if let width { fit(&widths, &shown, into: width) }
        return cells.map { row in
            shown.map { column in
                let fitted = Self.cut(row[column], to: widths[column], at: columns[column].cut ?? .end)
                let padding = column == shown.last ? 0 : widths[column] - fitted.count
                return fitted + String(repeating: " ", count: padding)
            }.joined(separator: "  ")
        }
    }

    /// Leaves out optional columns, the last first, while the table is wider than `width`, then
    /// narrows the elastic columns, the widest first, until it fits or each is at its narrowest.
    private func fit(_ widths: inout [Int], _ shown: inout [Int], into width: Int) {
        func total() -> Int { shown.map { widths[$0] }.reduce(2 * (shown.count - 1), +) }
        while total() > width, let dropped = shown.lastIndex(where: { columns[$0].optional }) {
            shown.remove(at: dropped)
        }
        var excess = total() - width
        while excess > 0 {
            let candidates = shown.filter { columns[$0].cut != nil && widths[$0] > columns[$0].cutWidth }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
            excess -= 1
        }
    }

    /// `text` cut to `width` characters where it is longer, with `…` in place of what is left out.
    static func cut(_ text: String, to width: Int, at cut: Column.Cut) -> String {
        guard text.count > width else { return text }
        return switch cut {
        case .end: String(text.prefix(width - 1)) + "…"
        case .start: "…" + String(text.suffix(width - 1))
        }
    }
}
