import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// A source's identity in the state database: one feed named two ways is one source.
@Suite struct SourceLocationTests {
    @Test(arguments: [
        ("HTTPS://Portal.Example.ORG/Feeds/Team.json", "https://portal.example.org/Feeds/Team.json"),
        ("https://portal.example.org:443/feed?v=2#top", "https://portal.example.org/feed?v=2"),
        ("http://portal.example.org:80", "http://portal.example.org/"),
        ("http://portal.example.org:8080/a", "http://portal.example.org:8080/a"),
        ("https://portal.example.org:/a", "https://portal.example.org/a"),
        ("https://portal.example.org?q=A", "https://portal.example.org/?q=A"),
        ("https://User@Portal.example.org/a", "https://User@portal.example.org/a"),
        ("https://[FE80::1]:443/a", "https://[fe80::1]/a"),
        ("https://[fe80::1]:8443/a", "https://[fe80::1]:8443/a"),
        ("webcal://Cal.Example.ORG/team.ics", "https://cal.example.org/team.ics"),
        ("webcals://cal.example.org:443/team.ics", "https://cal.example.org/team.ics"),
    ])
    func urlsThatNameTheSameFeedNormalizeAlike(url: String, normalized: String) {
        #expect(SourceLocation.normalizedURL(url) == normalized)
        #expect(SourceLocation.canonical(url) == normalized)
    }

    @Test func whatIsNotAnHTTPURLWithAHostHasNoNormalForm() {
        #expect(SourceLocation.normalizedURL("https://") == nil)
        #expect(SourceLocation.normalizedURL("ftp://example.org/feed") == nil)
        #expect(SourceLocation.normalizedURL("feeds/team.json") == nil)
    }

    @Test func aPathIsMadeAbsoluteWithItsSymlinksResolved() throws {
        let folder = try TestFolder.make("feed-location")
        let feeds = folder.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let real = feeds.appendingPathComponent("team.json")
        try Data("{}".utf8).write(to: real)
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "feeds")
        let resolved = SourceLocation.canonical(real.path)
        #expect(resolved.hasPrefix("/") && resolved.hasSuffix("/feeds/team.json"))
        #expect(SourceLocation.canonical(link + "/team.json") == resolved)
        #expect(SourceLocation.canonical(folder.path + "/feeds/./../feeds//team.json") == resolved)
        // Relative to the working directory, whichever it is: up to the root, then down.
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + real.path.dropFirst()
        #expect(SourceLocation.canonical(relative) == resolved)
        // A missing file resolves by its text.
        #expect(
            SourceLocation.canonical(folder.path + "/missing/../feeds/gone.json") == folder.path + "/feeds/gone.json")
        #expect(SourceLocation.canonical("-") == "-")
    }
}
