import CLibnotify

/// Conversions of what GLib hands out, each freeing what it was given.
enum GLibValues {
    /// The message of `error`, which is freed; "unknown error" when there is none.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// The text of a newly allocated C string, which is freed.
    static func take(_ text: UnsafeMutablePointer<CChar>?) -> String {
        guard let text else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The strings of a `GList` of newly allocated C strings; the list and the strings are freed.
    static func takeStrings(_ list: UnsafeMutablePointer<GList>?) -> [String] {
        var strings: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                strings.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            node = current.pointee.next
        }
        g_list_free_full(list, g_free)
        return strings
    }
}
