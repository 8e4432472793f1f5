import Foundation

/// The oracle of receipts' bodies: `scripts/otlp-check.py`, which parses each body as an OTLP
/// `ExportLogsServiceRequest` with the opentelemetry-proto package's schema through protobuf's
/// JSON parser, in the Python `scripts/install-deps` makes (`.build-oracles/otlp`).
public enum OTLPOracle {
    /// What the parser read of one body.
    public struct Verdict: Decodable, Sendable {
        public var valid: Bool
        public var error: String?
        public var resource: [String: Value]?
        public var records: [Record]?
    }

    /// One log record as the parser read it.
    public struct Record: Decodable, Sendable {
        public var eventName: String
        public var timeUnixNano: UInt64
        public var attributes: [String: Value]
    }

    /// An attribute's value: receipts send strings and integers.
    public enum Value: Decodable, Sendable, Equatable {
        case string(String)
        case int(Int64)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                self = .int(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        public var string: String? { if case .string(let text) = self { text } else { nil } }
        public var int: Int64? { if case .int(let number) = self { number } else { nil } }
    }

    /// The repository's root, found from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The oracle's Python.
    public static let python = root.appendingPathComponent(".build-oracles/otlp/bin/python3").path

    /// Whether the oracle is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// Parses each body; one verdict per body, in order.
    public static func check(_ bodies: [String]) throws -> [Verdict] {
        guard isInstalled else {
            throw TestSupportError(
                "the OTLP oracle is missing: run scripts/install-deps, which installs it in .build-oracles/otlp")
        }
        let output = try ExternalCommand.run(
            python, [root.appendingPathComponent("scripts/otlp-check.py").path],
            input: bodies.map { $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined())
        guard output.status == 0 else { throw TestSupportError("otlp-check.py: \(output.standardError)") }
        return try output.standardOutput.split(separator: "\n").map {
            try JSONDecoder().decode(Verdict.self, from: Data($0.utf8))
        }
    }
}
