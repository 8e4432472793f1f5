import CLinux

/// Memory the process freed but still holds.
public enum FreedMemory {
    /// Returns freed heap pages to the system (`malloc_trim`): after parsing a big feed, the
    /// daemon keeps far less than the parse needed at its peak.
    public static func release() {
        malloc_trim(0)
    }
}
