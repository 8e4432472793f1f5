import Crypto
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// The last good feed of each portal URL, under `$XDG_CACHE_HOME/notify-sched/feeds/`, so the
/// schedule keeps working offline and across restarts.
///
/// One file per URL, named by the first 128 bits of the URL's SHA-256 in hex plus `.feed`,
/// holds everything about that copy, so that one atomic rename replaces it whole (a feed with
/// the validators or signature of another can never be read back):
///
/// ```
/// notify-sched feed cache 1
/// {"url":"https://…","etag":"…","lastModified":"…","signature":"<.sig text>","storedAt":<µs>,"length":<n>}
/// <n bytes: the feed exactly as fetched>
/// ```
///
/// Only the caller decides what is good: `PortalFeedLoader` stores a feed only after it parsed
/// without errors and, with a key, verified; a failed or refused fetch never calls `store`.
///
/// A copy can be *set aside*: an empty file beside it, named like it plus `.set-aside`. The
/// daemon sets a copy aside while it starts from it and restores it once the start went
/// through, so a copy that crashed a start stays set aside: the next start does not read it,
/// and a fetch asks for the whole feed again. Storing a fresh copy ends it.
public struct FeedCache: Sendable {
    /// The folder of the cache files.
    public var folder: String
    /// The largest feed the cache holds (the fetch size cap).
    public var maxBytes: Int

    private static let magic = "notify-sched feed cache 1"

    public init(directories: UserDirectories, maxBytes: Int = FeedReadLimits().maxBytes) {
        self.folder = directories.cache + "/feeds"
        self.maxBytes = maxBytes
    }

    /// The cache file of `url`.
    public func path(for url: String) -> String {
        let digest = SHA256.hash(data: Array(url.utf8))
        return folder + "/" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + ".feed"
    }

    private struct Header: Codable {
        var url: String
        var etag: String?
        var lastModified: String?
        var signature: String?
        var storedAt: Int64
        var length: Int
    }

    /// The cached copy of `url`, or nil when there is none.
    ///
    /// - Throws: `NetworkError` `.storage` when a cache file exists but cannot be read or is damaged.
    public func load(_ url: String) throws(NetworkError) -> CachedFeed? {
        let path = path(for: url)
        let content: [UInt8]
        do {
            content = try FeedFile.read(path, maxBytes: maxBytes + 64 * 1024)
        } catch {
            if error.code == .notFound { return nil }
            throw NetworkError(.storage, "cache \(path): \(error.message)", underlyingError: error)
        }
        let newline = UInt8(ascii: "\n")
        guard let first = content.firstIndex(of: newline),
            String(decoding: content[..<first], as: UTF8.self) == Self.magic,
            let second = content[(first + 1)...].firstIndex(of: newline),
            let header = try? JSONDecoder().decode(Header.self, from: Data(content[(first + 1)..<second])),
            header.length == content.count - second - 1
        else {
            throw NetworkError(.storage, "cache \(path): damaged; delete it and fetch again")
        }
        // Two URLs whose digests collide in 128 bits are not worth more than a refusal.
        guard header.url == url else { return nil }
        return CachedFeed(
            url: url, bytes: Array(content[(second + 1)...]), signature: header.signature.map { Array($0.utf8) },
            validators: HTTPValidators(etag: header.etag, lastModified: header.lastModified),
            storedAt: Instant(microseconds: header.storedAt))
    }

    /// Whether the copy of `url` is set aside.
    public func isSetAside(_ url: String) -> Bool {
        access(path(for: url) + Self.setAsideSuffix, F_OK) == 0
    }

    /// Sets the copy of `url` aside, durably, until `restore(_:)` or a fresh copy.
    ///
    /// - Throws: `NetworkError` `.storage` when the marker cannot be written.
    public func setAside(_ url: String) throws(NetworkError) {
        let marker = path(for: url) + Self.setAsideSuffix
        do {
            try AtomicFile.createFolder(folder)
            try AtomicFile.write([], to: marker)
        } catch {
            throw NetworkError(.storage, "cache \(marker): \(error.message)", underlyingError: error)
        }
    }

    /// Takes the copy of `url` back from aside.
    public func restore(_ url: String) {
        unlink(path(for: url) + Self.setAsideSuffix)
    }

    private static let setAsideSuffix = ".set-aside"

    /// Replaces the cached copy of `feed.url` atomically and durably; a copy set aside is
    /// restored by it.
    ///
    /// - Throws: `NetworkError` `.storage` when the folder or the file cannot be written.
    public func store(_ feed: CachedFeed) throws(NetworkError) {
        let header = Header(
            url: feed.url, etag: feed.validators.etag, lastModified: feed.validators.lastModified,
            signature: feed.signature.map { String(decoding: $0, as: UTF8.self) }, storedAt: feed.storedAt.microseconds,
            length: feed.bytes.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let path = path(for: feed.url)
        do {
            var content = Array((Self.magic + "\n").utf8)
            content += Array(try encoder.encode(header))
            content.append(UInt8(ascii: "\n"))
            content += feed.bytes
            try AtomicFile.createFolder(folder)
            try AtomicFile.write(content, to: path)
            restore(feed.url)
        } catch let error as PlatformError {
            throw NetworkError(.storage, "cache \(path): \(error.message)", underlyingError: error)
        } catch {
            throw NetworkError(.storage, "cache \(path): \(error)", underlyingError: error)
        }
    }
}
