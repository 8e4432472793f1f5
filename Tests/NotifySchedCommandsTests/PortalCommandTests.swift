import Foundation
import NotifySchedTesting
import Testing

/// `list`, `validate`, `sync`, `keygen` and `sign` against a real portal, as a user runs them.
@Suite struct PortalCommandTests {
    typealias CLI = CommandLineHarness

    let server: PortalTestServer
    let home: URL
    let environment: [String: String]

    init() throws {
        server = try PortalTestServer()
        home = try TestFolder.make("cli-home")
        environment = [
            "HOME": home.path, "XDG_CACHE_HOME": home.path + "/cache", "XDG_STATE_HOME": home.path + "/state",
        ]
    }

    static let feed = #"""
        {"version": 1, "notifications": [
          {"id": "a", "title": "Alpha", "fireDate": "2026-06-01T09:00:00Z"},
          {"id": "b", "title": "Beta", "fireDate": "2026-06-02T09:00:00Z"}
        ]}
        """#

    func run(_ arguments: [String]) throws -> CommandLineHarness.Outcome {
        try CLI.run(arguments, environment: environment)
    }

    @Test func listFetchesAURLAndFallsBackToTheCacheWithAWarning() throws {
        try server.write("feed.json", Self.feed)
        let url = server.feedURL("feed.json")
        let arguments = ["list", "--feed", url, "--now", "2026-05-01T00:00:00Z", "--json", "--timeout", "2s"]
        let online = try run(arguments)
        #expect(online.status == 0 && online.standardError == "", "\(online.standardError)")
        #expect(online.standardOutput.contains("\"source\" : \"\(url)\""))
        #expect(online.standardOutput.contains("2026-06-01T09:00:00Z"))

        try server.setStatus("feed.json", 500)
        let offline = try run(arguments)
        #expect(offline.status == 0)
        #expect(offline.standardOutput == online.standardOutput, "the cached copy gives the same schedule")
        #expect(
            offline.standardError.hasPrefix(
                "warning: \(url): the server answered 500 Internal Server Error; using the copy cached at "))
    }

    @Test func validateChecksWhatThePortalServesNow() throws {
        try server.write("feed.json", Self.feed)
        let url = server.feedURL("feed.json")
        #expect(
            try run(["validate", url])
                == .init(status: 0, standardOutput: "\(url): ok: native feed (json), 2 entries\n", standardError: ""))
        try server.setStatus("feed.json", 404)
        #expect(
            try run(["validate", url])
                == .init(status: 1, standardOutput: "", standardError: "\(url): the server answered 404 Not Found\n"))
    }

    @Test func aSlowPortalTimesOutWithAClearMessage() throws {
        let url = server.url("/slow?seconds=5")
        let outcome = try run(["validate", url, "--timeout", "300ms"])
        #expect(
            outcome
                == .init(
                    status: 1, standardOutput: "",
                    standardError: "\(url): no complete answer within the total timeout of 300 ms\n"))
    }

    @Test func anEndlessBodyIsRefusedQuicklyWithFlatMemory() throws {
        // Python runs the CLI as its only child, so RUSAGE_CHILDREN is the CLI's own peak.
        let url = server.url("/endless")
        let probe = """
            import resource, subprocess, sys, time
            start = time.monotonic()
            result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
            print(result.returncode, round(time.monotonic() - start, 2), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            print(result.stderr, end="")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", probe, CLI.executable.path, "validate", url]
        process.environment = environment.merging(["TZ": "UTC", "PATH": "/usr/bin:/bin"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n").map(String.init)
        let numbers = try #require(lines.first).split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 3)
        #expect(numbers[0] == 1, "validate must fail")
        #expect(numbers[1] < 10, "refused in \(numbers[1]) s")
        // 16 MiB of body plus the process itself; an unbounded read of the 256 MiB stream would be far above.
        #expect(numbers[2] < 120 * 1024, "peak RSS \(Int(numbers[2])) KiB")
        #expect(lines.dropFirst().first == "\(url): refused: the body is larger than the size cap of 16777216 bytes")
    }

    @Test func keygenSignAndPublicKeyWorkTogether() throws {
        let keyFile = home.appendingPathComponent("portal.key").path
        let keygen = try run(["keygen", "--output", keyFile])
        #expect(keygen.status == 0 && keygen.standardError == "")
        let publicKey = keygen.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(publicKey.count == 44)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try run(["keygen", "--output", keyFile]).status == 1, "keygen must not overwrite a key")

        let feedFile = home.appendingPathComponent("feed.json").path
        try Data(Self.feed.utf8).write(to: URL(fileURLWithPath: feedFile))
        let sign = try run(["sign", feedFile, "--key", keyFile])
        #expect(
            sign
                == .init(
                    status: 0, standardOutput: "\(feedFile).sig: signed; verify with --public-key \(publicKey)\n",
                    standardError: ""))

        // Locally, and from the portal with the signature beside the feed.
        #expect(try run(["validate", feedFile, "--public-key", publicKey]).status == 0)
        try server.write("feed.json", Self.feed)
        try server.write("feed.json.sig", try String(contentsOfFile: feedFile + ".sig", encoding: .utf8))
        let url = server.feedURL("feed.json")
        #expect(try run(["validate", url, "--public-key", publicKey]).status == 0)

        // Tampered on the portal: refused, and `list` keeps the last good copy.
        try server.write("feed.json", Self.feed.replacingOccurrences(of: "Alpha", with: "Evil"), age: 5)
        let tampered = try run(["validate", url, "--public-key", publicKey])
        #expect(
            tampered
                == .init(
                    status: 1, standardOutput: "",
                    standardError:
                        "\(url): refused: the signature does not match the feed and the public key \(publicKey)\n"))
        let list = try run(["list", "--feed", url, "--public-key", publicKey, "--now", "2026-05-01T00:00:00Z"])
        #expect(list.status == 0 && list.standardOutput.contains("Alpha") && !list.standardOutput.contains("Evil"))
        #expect(list.standardError.hasPrefix("warning: \(url): refused: the signature does not match"))
    }

    @Test func aBadPublicKeyIsAUsageError() throws {
        let outcome = try run(["validate", CLI.demoFeed("demo.json"), "--public-key", "AAAA"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--public-key: public key \"AAAA\" is 3 bytes"))
    }

    @Test func syncPrintsAddedChangedAndWithdrawnEntries() throws {
        try server.write("feed.json", Self.feed, age: 120)
        let url = server.feedURL("feed.json")
        let first = try run(["sync", "--feed", url])
        #expect(
            first
                == .init(
                    status: 0, standardOutput: "\(url): 2 added, 0 changed, 0 withdrawn\n+ a  Alpha\n+ b  Beta\n",
                    standardError: ""))
        #expect(try run(["sync", "--feed", url]).standardOutput == "\(url): not modified\n")

        try server.write(
            "feed.json",
            #"""
            {"version": 2, "notifications": [
              {"id": "a", "title": "Alpha, moved", "fireDate": "2026-06-03T09:00:00Z"},
              {"id": "c", "title": "Gamma", "fireDate": "2026-06-04T09:00:00Z"}
            ]}
            """#, age: 10)
        let changed = try run(["sync", "--feed", url])
        #expect(
            changed.standardOutput
                == "\(url): 1 added, 1 changed, 1 withdrawn\n~ a  Alpha, moved\n+ c  Gamma\n- b  Beta\n")

        try server.setStatus("feed.json", 503, retryAfter: "120")
        let failed = try run(["sync", "--feed", url])
        #expect(
            failed
                == .init(
                    status: 1,
                    standardOutput:
                        "\(url): failed: \(url): the server answered 503 Service Unavailable (Retry-After: 120 s)\n",
                    standardError: ""))
    }

    @Test func httpsNeedsTheCAFile() throws {
        let authority = try TestCertificateAuthority.make()
        let secure = try PortalTestServer(certificate: authority)
        try secure.write("feed.json", Self.feed)
        let url = secure.feedURL("feed.json")
        let refused = try run(["validate", url])
        #expect(refused.status == 1 && refused.standardError.hasPrefix("\(url): TLS failed"))
        #expect(try run(["validate", url, "--ca-file", authority.caCertificate.path]).status == 0)
    }
}
