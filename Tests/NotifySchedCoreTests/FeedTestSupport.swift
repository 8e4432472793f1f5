import NotifySchedCore

/// Reads `text` as a feed document.
func readFeed(_ text: String, limits: FeedReadLimits = FeedReadLimits()) throws(CoreError) -> FeedDocument {
    try FeedDocument.read(Array(text.utf8), limits: limits)
}

/// The error reading `bytes` throws, or nil when they read.
func readError(_ bytes: [UInt8], limits: FeedReadLimits = FeedReadLimits()) -> CoreError? {
    do {
        _ = try FeedDocument.read(bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

func readError(_ text: String, limits: FeedReadLimits = FeedReadLimits()) -> CoreError? {
    readError(Array(text.utf8), limits: limits)
}

/// Seconds `body` took, measured on the monotonic clock.
func seconds(_ body: () -> Void) -> Double {
    let elapsed = ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

extension FeedNode {
    /// This value with every line number removed, to compare trees read from different formats.
    var withoutLines: FeedNode {
        switch value {
        case .array(let elements):
            FeedNode(.array(elements.map(\.withoutLines)))
        case .dictionary(let dictionary):
            FeedNode(.dictionary(FeedDictionary(dictionary.entries.map { ($0.key, $0.node.withoutLines) })))
        default:
            FeedNode(value)
        }
    }
}

/// Assembles binary plists object by object, including ones no writer would produce.
struct BinaryPlistBuilder {
    var objects: [[UInt8]] = []
    var referenceSize = 1
    var offsetSize = 2

    /// Adds an object's bytes and returns its number.
    @discardableResult
    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    /// The file: header, objects, offset table, trailer. The overrides write trailer fields
    /// that do not match the content.
    func build(top: Int = 0, objectCount: UInt64? = nil, tableOffset: UInt64? = nil) -> [UInt8] {
        var file = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(file.count)
            file += object
        }
        let table = file.count
        for offset in offsets {
            file += Self.bigEndian(UInt64(offset), size: offsetSize)
        }
        file += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        file += Self.bigEndian(objectCount ?? UInt64(objects.count), size: 8)
        file += Self.bigEndian(UInt64(top), size: 8)
        file += Self.bigEndian(tableOffset ?? UInt64(table), size: 8)
        return file
    }

    func references(_ objects: [Int]) -> [UInt8] {
        objects.flatMap { Self.bigEndian(UInt64($0), size: referenceSize) }
    }

    func array(_ elements: [Int]) -> [UInt8] {
        Self.marker(0xA0, count: elements.count) + references(elements)
    }

    func dictionary(keys: [Int], values: [Int]) -> [UInt8] {
        Self.marker(0xD0, count: keys.count) + references(keys) + references(values)
    }

    static func ascii(_ text: String) -> [UInt8] {
        marker(0x50, count: text.utf8.count) + Array(text.utf8)
    }

    static func utf16(_ units: [UInt16]) -> [UInt8] {
        marker(0x60, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func integer(_ value: Int64) -> [UInt8] {
        [0x13] + bigEndian(UInt64(bitPattern: value), size: 8)
    }

    static func real(_ value: Double) -> [UInt8] {
        [0x23] + bigEndian(value.bitPattern, size: 8)
    }

    static func date(secondsSince2001 seconds: Double) -> [UInt8] {
        [0x33] + bigEndian(seconds.bitPattern, size: 8)
    }

    /// A marker with its count in the low nibble, or 0xF and an integer object after it.
    static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind | UInt8(count)] : [kind | 0x0F, 0x13] + bigEndian(UInt64(count), size: 8)
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
