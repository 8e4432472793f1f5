import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

/// Staged rollouts, bucketed byte for byte as Firefox's `Sampling.bucketSample`: compared with
/// golden vectors that a JavaScript engine computes as Firefox does (`scripts/rollout-vectors.mjs`,
/// run by Node here), 100 000 of them, with non-ASCII, `/`, quotes and control characters in the
/// namespaces, starts past the total and ranges that wrap.
@Suite(.computeThreads) struct RolloutTests {

    /// One line of the vectors.
    struct Vector {
        var installID: String
        var namespace: String
        var start: Int
        var count: Int
        var total: Int
        var hash: String
        var inRange: Bool
    }

    static func vectors(count: Int, seed: Int) throws -> [Vector] {
        let node = try #require(ExternalCommand.locate("node"), "Node.js computes the golden vectors: install nodejs")
        let output = try ExternalCommand.run(
            node, [Repository.root.appendingPathComponent("scripts/rollout-vectors.mjs").path, "\(count)", "\(seed)"])
        try #require(output.status == 0, "rollout-vectors.mjs: \(output.standardError)")
        return try output.standardOutput.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 7, "a vector of seven fields: \(line)")
            let namespace = try JSONSerialization.jsonObject(with: Data(fields[1].utf8), options: .fragmentsAllowed)
            return Vector(
                installID: fields[0], namespace: try #require(namespace as? String),
                start: try #require(Int(fields[2])),
                count: try #require(Int(fields[3])), total: try #require(Int(fields[4])), hash: fields[5],
                inRange: fields[6] == "1")
        }
    }

    @Test func everyGoldenVectorHashesAndSamplesAsFirefoxDoes() throws {
        let vectors = try Self.vectors(count: 100_000, seed: 41)
        #expect(vectors.count == 100_000)
        var mismatches: [String] = []
        for vector in vectors {
            let hash = BucketSample.truncatedHash([vector.installID, vector.namespace])
            let hex = String(hash, radix: 16)
            let padded = String(repeating: "0", count: 12 - hex.count) + hex
            let inRange = Rollout(
                namespace: vector.namespace, start: vector.start, count: vector.count, total: vector.total
            ).admits(installID: vector.installID)
            if padded != vector.hash || inRange != vector.inRange {
                mismatches.append("\(vector): hash \(padded), in range \(inRange)")
            }
        }
        print("rollout vectors: \(vectors.count) compared with Firefox's algorithm, \(mismatches.count) mismatches")
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(vectors.contains { $0.inRange } && vectors.contains { !$0.inRange })
        #expect(vectors.contains { $0.start % $0.total + $0.count > $0.total }, "ranges that wrap")
        #expect(
            vectors.contains { $0.namespace.contains("/") && $0.namespace.unicodeScalars.contains { $0.value > 0x7F } })
    }

    @Test func aDesktopIsInARangeExactlyWhenItsBucketIs() throws {
        for vector in try Self.vectors(count: 2000, seed: 7) where vector.total > 1 {
            let rollout = Rollout(
                namespace: vector.namespace, start: vector.start, count: vector.count, total: vector.total)
            let bucket = rollout.bucket(of: vector.installID)
            let single = Rollout(namespace: vector.namespace, start: bucket, count: 1, total: vector.total)
            #expect((0..<vector.total).contains(bucket))
            #expect(single.admits(installID: vector.installID), "\(vector): bucket \(bucket)")
            #expect(RolloutReport(rollout, bucket: bucket).inRange == vector.inRange, "\(vector): bucket \(bucket)")
        }
    }

    @Test func aRangeThatGrowsKeepsEveryDesktopItHad() {
        let ids = (0..<500).map { "0000\($0)-desktop" }
        var previous: Set<String> = []
        for count in [0, 10, 100, 500, 1000] {
            let rollout = Rollout(namespace: "spring", start: 0, count: count, total: 1000)
            let inRange = Set(ids.filter { rollout.admits(installID: $0) })
            #expect(previous.isSubset(of: inRange))
            previous = inRange
        }
        #expect(previous.count == ids.count, "the whole range holds everyone")
    }
}
