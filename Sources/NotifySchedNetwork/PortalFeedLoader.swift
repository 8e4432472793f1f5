import NotifySchedCore
import NotifySchedPlatform

/// Loads feeds from files and portals: fetch with a conditional GET, check the signature and
/// freshness when a key is set, keep the last good copy, and fall back to it when a fetch fails.
///
/// The rules, in order, for a URL:
/// 1. The cached copy's validators make the request conditional; 304 uses the cached copy.
/// 2. A 200's body, with a key, needs `<url>.sig`; `FeedAuthenticator` checks the signature,
///    then `version` against the highest accepted under the key, then `expires`.
/// 3. A feed that verified and parsed without errors replaces the cached copy (atomically)
///    and raises the accepted version; one with errors is reported but never cached.
/// 4. A fetch that failed or was refused leaves the cache alone; with `allowCacheFallback`
///    the cached copy, checked again the same way, is used with a warning.
///
/// A local file with a key needs `<path>.sig` beside it and gets the same checks.
public struct PortalFeedLoader: Sendable {
    /// The fetcher for URLs; nil refuses URLs.
    public var fetcher: FeedFetcher?
    /// The last good feed per URL.
    public var cache: FeedCache
    /// The highest accepted versions per key.
    public var versions: AcceptedVersionStore
    /// The Ed25519 primitive.
    public var verifier: any SignatureVerifying

    /// The size cap of a `.sig` file: base64 of 64 bytes is 88 characters, plus a newline.
    static let signatureMaxBytes = 4096

    public init(
        fetcher: FeedFetcher?, directories: UserDirectories, verifier: any SignatureVerifying = Ed25519()
    ) {
        self.fetcher = fetcher
        self.cache = FeedCache(
            directories: directories, maxBytes: fetcher?.configuration.maxBytes ?? FeedReadLimits().maxBytes)
        self.versions = AcceptedVersionStore(directories: directories)
        self.verifier = verifier
    }

    /// Loads one feed.
    ///
    /// - Parameters:
    ///   - location: A path, `-`, or an `http(s)://` URL.
    ///   - publicKey: The source's key: when set, the feed must be signed and fresh.
    ///   - parser: The parser for the user's zone, language and URL policy.
    ///   - now: The current time (for `expires` and the cache's timestamp).
    ///   - allowCacheFallback: Whether a failed fetch may use the last good copy (true for `list`,
    ///     false for `validate`, which checks what the portal serves).
    public func load(
        _ location: String, publicKey: FeedPublicKey?, parser: FeedParser, now: Instant, allowCacheFallback: Bool = true
    ) -> LoadedPortalFeed {
        if SourceLocation.isURL(location) {
            return loadURL(
                location, publicKey: publicKey, parser: parser, now: now, allowCacheFallback: allowCacheFallback)
        }
        var feed = LoadedPortalFeed(location: location, warnings: [])
        if CalendarFolder.isFolder(location) {
            return loadFolder(location, publicKey: publicKey, parser: parser, into: feed)
        }
        let bytes: [UInt8]
        do {
            bytes = try FeedFile.read(location, maxBytes: parser.limits.maxBytes)
        } catch {
            feed.failure = CheckFailure(error.code, error.message)
            return feed
        }
        var signature: [UInt8]?
        if publicKey != nil, location != "-" {
            do {
                signature = try FeedFile.read(location + ".sig", maxBytes: Self.signatureMaxBytes)
            } catch  where error.code == .notFound {
                signature = nil
            } catch {
                feed.failure = CheckFailure(error.code, error.message)
                return feed
            }
        }
        switch check(bytes, signature: signature, location: location, publicKey: publicKey, parser: parser, now: now) {
        case .success(let (parsed, version)):
            if let publicKey, let version, !parsed.hasErrors {
                do { try versions.record(version, for: publicKey) } catch { feed.warnings.append(error.message) }
            }
            feed.origin = .file
            feed.parsed = parsed
        case .failure(let refusal):
            feed.failure = refusal.failure
        }
        return feed
    }

    /// Loads a folder of calendar items as one calendar. A folder is not signed: a source
    /// with a key cannot be one.
    private func loadFolder(
        _ location: String, publicKey: FeedPublicKey?, parser: FeedParser, into feed: LoadedPortalFeed
    ) -> LoadedPortalFeed {
        var feed = feed
        guard publicKey == nil else {
            feed.failure = CheckFailure(
                CoreError.Code.unsigned,
                "\(location): a folder of calendar items cannot be signed; name a signed feed file, or drop the key")
            return feed
        }
        do {
            let files = try CalendarFolder.read(location, maxBytes: parser.limits.maxBytes)
            feed.parsed = parser.parse(calendarFiles: files, source: location)
            feed.origin = .file
        } catch {
            feed.failure = CheckFailure(error.code, error.message)
        }
        return feed
    }

    private func loadURL(
        _ url: String, publicKey: FeedPublicKey?, parser: FeedParser, now: Instant, allowCacheFallback: Bool
    ) -> LoadedPortalFeed {
        var feed = LoadedPortalFeed(location: url, warnings: [])
        guard let fetcher else {
            feed.failure = CheckFailure(NetworkError.Code.notEnabled, "\(url): feeds over HTTP(S) are not enabled here")
            return feed
        }
        // A copy set aside (it crashed the daemon's start) is neither asked about nor fallen back on.
        do {
            feed.previous = cache.isSetAside(url) ? nil : try cache.load(url)
        } catch {
            feed.warnings.append(error.message)
        }
        let cached = feed.previous
        func useCached(_ cached: CachedFeed, as origin: LoadedPortalFeed.Origin) -> Refusal? {
            use(cached, as: origin, in: &feed, publicKey: publicKey, parser: parser, now: now)
        }
        // Falls back to the cached copy after `failure`, or reports it when that is not allowed.
        func fallBack(_ failure: CheckFailure) -> LoadedPortalFeed {
            guard allowCacheFallback, let cached else {
                feed.failure = failure
                return feed
            }
            if let refusal = useCached(cached, as: .cache) {
                feed.failure = CheckFailure(
                    code: failure.code,
                    message: "\(failure.message); the cached copy is not usable either: \(refusal.failure.message)")
            } else {
                feed.warnings.append("\(failure.message); using the copy cached at \(cached.storedAt.rfc3339)")
            }
            return feed
        }
        // A copy cached without a signature cannot answer for a source that now has a key:
        // ask for the whole feed (and its signature) again.
        let validators = publicKey != nil && cached?.signature == nil ? nil : cached?.validators
        let outcome: FetchOutcome
        do {
            outcome = try fetcher.fetch(url, validators: validators)
        } catch {
            feed.fetchError = error
            return fallBack(CheckFailure(error.code, error.message))
        }
        switch outcome {
        case .notModified(let portalPeriod):
            feed.portalPeriod = portalPeriod
            guard let cached else {
                return fallBack(
                    CheckFailure(NetworkError.Code.noCachedCopy, "\(url): 304 Not Modified without a cached copy"))
            }
            if let refusal = useCached(cached, as: .notModified) { feed.failure = refusal.failure }
            return feed
        case .fetched(let bytes, let validators, let portalPeriod):
            feed.portalPeriod = portalPeriod
            var signature: [UInt8]?
            if publicKey != nil {
                do {
                    if case .fetched(let text, _, _) = try fetcher.fetch(url + ".sig", maxBytes: Self.signatureMaxBytes)
                    {
                        signature = text
                    }
                } catch  where error.status == 404 || error.status == 410 {
                    signature = nil
                } catch {
                    feed.fetchError = error
                    return fallBack(CheckFailure(error.code, error.message))
                }
            }
            switch check(bytes, signature: signature, location: url, publicKey: publicKey, parser: parser, now: now) {
            case .success(let (parsed, version)):
                feed.parsed = parsed
                feed.validators = validators
                // A calendar's REFRESH-INTERVAL asks for a period as Cache-Control does; the header wins.
                if feed.portalPeriod == nil { feed.portalPeriod = parsed.schedule?.refreshInterval }
                guard !parsed.hasErrors else {
                    feed.origin = .fetchedWithErrors
                    if cached != nil {
                        feed.warnings.append("\(url): not cached because it has errors; the last good copy stays")
                    }
                    return feed
                }
                feed.origin = .fetched
                do {
                    if let publicKey, let version { try versions.record(version, for: publicKey) }
                    try cache.store(
                        CachedFeed(url: url, bytes: bytes, signature: signature, validators: validators, storedAt: now))
                } catch {
                    feed.warnings.append(error.message)
                }
                return feed
            case .failure(let refusal):
                return fallBack(refusal.failure)
            }
        }
    }

    /// The last good copy of `url`, checked again as a fetched one would be, without asking the
    /// portal: what the daemon starts with, so that start-up waits for no network.
    ///
    /// - Returns: The copy with origin `.cache`, or a `failure` saying why there is none.
    public func loadCached(
        _ url: String, publicKey: FeedPublicKey?, parser: FeedParser, now: Instant
    ) -> LoadedPortalFeed {
        var feed = LoadedPortalFeed(location: url, warnings: [])
        do {
            feed.previous = try cache.load(url)
        } catch {
            feed.failure = CheckFailure(error.code, error.message)
            return feed
        }
        guard let cached = feed.previous else {
            feed.failure = CheckFailure(NetworkError.Code.noCachedCopy, "\(url): no cached copy yet")
            return feed
        }
        if let refusal = use(cached, as: .cache, in: &feed, publicKey: publicKey, parser: parser, now: now) {
            feed.failure = CheckFailure(
                code: refusal.failure.code, message: "\(url): the cached copy is not usable: \(refusal.failure.message)"
            )
        }
        return feed
    }

    /// Puts the cached copy in `feed`, checked again as a fetched one would be; returns why not otherwise.
    private func use(
        _ cached: CachedFeed, as origin: LoadedPortalFeed.Origin, in feed: inout LoadedPortalFeed,
        publicKey: FeedPublicKey?, parser: FeedParser, now: Instant
    ) -> Refusal? {
        switch check(
            cached.bytes, signature: cached.signature, location: cached.url, publicKey: publicKey, parser: parser,
            now: now)
        {
        case .success(let (parsed, _)):
            feed.origin = origin
            feed.parsed = parsed
            feed.validators = cached.validators
            return nil
        case .failure(let refusal):
            return refusal
        }
    }

    /// Verifies (when a key is set) and parses `bytes`.
    ///
    /// - Returns: The parse result and the version to record, or the reason to refuse.
    private func check(
        _ bytes: [UInt8], signature: [UInt8]?, location: String, publicKey: FeedPublicKey?, parser: FeedParser,
        now: Instant
    ) -> Result<(FeedParseResult, Int64?), Refusal> {
        guard let publicKey else { return .success((parser.parse(bytes, source: location), nil)) }
        let highest: Int64?
        do {
            highest = try versions.highestVersion(for: publicKey)
        } catch {
            return .failure(Refusal(CheckFailure(error.code, error.message)))
        }
        let authenticator = FeedAuthenticator(publicKey: publicKey, verifier: verifier)
        switch authenticator.verify(
            bytes, signature: signature, source: location, highestAcceptedVersion: highest, now: now,
            parse: { parser.parse($0, source: location) })
        {
        case .accepted(let parsed, let version): return .success((parsed, version))
        case .refused(let error): return .failure(Refusal(CheckFailure(error.code, error.message)))
        }
    }
}

/// Why a feed was refused.
struct Refusal: Error {
    var failure: CheckFailure
    init(_ failure: CheckFailure) { self.failure = failure }
}
