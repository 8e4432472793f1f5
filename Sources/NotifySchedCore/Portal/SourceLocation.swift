/// Where a source's feed is read from: a file path or folder, or an `http(s)://` URL (a
/// calendar's `webcal://` is an `https://` one). Its canonical form
/// (`canonical(_:)` in NotifySchedPlatform) is the source's identity in the state database, so
/// that the same feed named two ways (a relative path and an absolute one, a symlink, `HTTPS://`
/// and `https://…:443/`) has one ledger, one handling state and one first start.
public enum SourceLocation {
    /// Whether `location` names a feed over HTTP(S): `http://`, `https://`, or a calendar
    /// subscription's `webcal://` or `webcals://`.
    public static func isURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("webcal://")
            || lower.hasPrefix("webcals://")
    }

    /// The URL to fetch `url` at: a calendar subscription (`webcal://`, `webcals://`) over
    /// HTTPS, as calendar programs fetch it; any other URL as it is.
    public static func transportURL(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return url }
        let scheme = url[..<colon].lowercased()
        return scheme == "webcal" || scheme == "webcals" ? "https" + url[colon...] : url
    }

    /// `url` with what does not change the resource it names made canonical: the scheme and
    /// host lower-cased, the scheme's default port dropped (and an empty one), an empty path
    /// written `/`, the fragment (which never reaches the server) dropped. The path, the query
    /// and any user name keep their case.
    ///
    /// - Returns: nil when `url` is not an `http(s)://` URL with a host.
    public static func normalizedURL(_ url: String) -> String? {
        let url = transportURL(url)
        guard isURL(url), let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        // `isURL` saw "://" right after the scheme.
        var rest = url[url.index(colon, offsetBy: 3)...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var tail = String(rest[authorityEnd...])
        var userInfo = ""
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            authority = authority[authority.index(after: at)...]
        }
        // The port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        var host = authority
        var port = ""
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = authority[..<colon]
            port = String(authority[authority.index(after: colon)...])
        }
        guard !host.isEmpty else { return nil }
        let defaultPort = scheme == "https" ? "443" : "80"
        if port == defaultPort { port = "" }
        if !tail.hasPrefix("/") { tail = "/" + tail }
        return scheme + "://" + userInfo + host.lowercased() + (port.isEmpty ? "" : ":" + port) + tail
    }
}
