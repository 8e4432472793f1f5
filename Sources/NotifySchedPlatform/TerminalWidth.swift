import Glibc

/// How wide the tables of `list` and `history` may be.
public enum TerminalWidth {
    /// `COLUMNS` when it is a positive number, else the terminal's width when standard output is
    /// one; nil when the output goes to a pipe or a file, where a script wants whole cells.
    public static func ofStandardOutput(environment: [String: String]) -> Int? {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
