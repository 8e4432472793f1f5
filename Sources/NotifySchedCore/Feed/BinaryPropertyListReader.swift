/// Reads `bplist00` binary property lists into a `FeedNode` tree within `FeedReadLimits`.
///
/// Every offset, length and reference is checked against the file before it is followed.
/// Objects are decoded once and shared, so a file whose containers reference the same
/// subtree many times costs time and memory proportional to its object count; the tree it
/// stands for is still counted in full against `maxNodes`, so an exponential DAG is refused
/// at once. A reference back into an object being read is a cycle and is refused.
///
/// Sets, ordered sets and UIDs are refused: no feed dialect uses them and XML plists cannot
/// express them. Strings must be ASCII (`0x5n`) or UTF-16BE with paired surrogates (`0x6n`);
/// dictionary keys must be strings and unique. Nodes have no line; errors carry key paths.
struct BinaryPropertyListReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: FeedReadLimits
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    /// Objects lie in `8..<offsetTableStart`; the offset table follows, then the trailer.
    private let offsetTableStart: Int
    private var objects: [ObjectState]

    /// What is known about one object while the tree is read.
    private enum ObjectState {
        case unread
        /// Its containers are being read: meeting it again is a cycle.
        case reading
        /// `nodes` counts every value of the expanded subtree; `height` is its container depth.
        case read(FeedValue, nodes: Int, height: Int)
    }

    /// The trailer's size: 6 unused bytes, offset size, reference size, then three 64-bit
    /// big-endian numbers (object count, top object, offset table offset).
    private static let trailerSize = 32
    private static let headerSize = 8
    /// Seconds from 1970-01-01 to 2001-01-01, the epoch of plist dates.
    private static let plistEpoch: Double = 978_307_200
    /// Plist dates are kept within the years 1–9999, which XML plists can also write.
    private static let dateRange: Range<Double> = -62_135_596_800..<253_402_300_800

    /// Reads the binary plist in `bytes`.
    ///
    /// - Throws: `CoreError` (`.syntax`, `.limitExceeded`, `.duplicateKey`).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: FeedReadLimits) throws(CoreError) -> FeedNode {
        var reader = try BinaryPropertyListReader(bytes, limits: limits)
        let (value, nodes, _) = try reader.value(of: reader.topObject, depth: 1)
        guard nodes <= limits.maxNodes else { throw CoreError(.limitExceeded, limits.tooManyValues()) }
        return FeedNode(value)
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, limits: FeedReadLimits) throws(CoreError) {
        let minimum = Self.headerSize + 1 + 1 + Self.trailerSize
        guard bytes.count >= minimum, Self.hasMagic(bytes) else {
            throw CoreError(.syntax, "the binary plist is truncated: it is shorter than its header and trailer")
        }
        let trailer = bytes.count - Self.trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let topObject = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw CoreError(.syntax, "the binary plist trailer has an invalid offset or reference size")
        }
        guard objectCount >= 1, topObject < objectCount else {
            throw CoreError(.syntax, "the binary plist trailer names no valid top object")
        }
        guard tableStart > UInt64(Self.headerSize), tableStart < UInt64(trailer),
            objectCount <= (UInt64(trailer) - tableStart) / UInt64(offsetSize)
        else {
            throw CoreError(.syntax, "the binary plist's offset table lies outside the file")
        }
        guard objectCount <= UInt64(limits.maxBinaryObjects) else {
            throw CoreError(
                .limitExceeded,
                "the binary plist declares \(objectCount) objects; the limit is \(limits.maxBinaryObjects)")
        }
        self.bytes = bytes
        self.limits = limits
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTableStart = Int(tableStart)
        self.objects = Array(repeating: .unread, count: Int(objectCount))
    }

    private static func hasMagic(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.prefix(headerSize).elementsEqual("bplist00".utf8)
    }

    /// The unsigned big-endian number of `size` (1…8) bytes at `offset`, which the caller
    /// has checked lies inside `bytes`.
    private static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + size {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    // MARK: - Objects

    /// The value of object `object`, the number of values it expands to and its container
    /// height. `depth` is the nesting level the object would occupy if it is a container.
    private mutating func value(of object: Int, depth: Int) throws(CoreError) -> (FeedValue, Int, Int) {
        switch objects[object] {
        case .read(let value, let nodes, let height):
            guard depth - 1 + height <= limits.effectiveMaxDepth else {
                throw CoreError(.limitExceeded, limits.tooDeep())
            }
            return (value, nodes, height)
        case .reading:
            throw CoreError(.syntax, "the binary plist has a reference cycle: object \(object) contains itself")
        case .unread:
            break
        }
        objects[object] = .reading
        let offset = try offset(of: object)
        let marker = bytes[offset]
        let result: (FeedValue, Int, Int)
        switch marker >> 4 {
        case 0xA:
            result = try array(at: offset, depth: depth)
        case 0xD:
            result = try dictionary(at: offset, depth: depth)
        default:
            result = (try scalar(at: offset), 1, 0)
        }
        objects[object] = .read(result.0, nodes: result.1, height: result.2)
        return result
    }

    private func offset(of object: Int) throws(CoreError) -> Int {
        let offset = Self.bigEndian(bytes, at: offsetTableStart + object * offsetSize, size: offsetSize)
        guard offset >= UInt64(Self.headerSize), offset < UInt64(offsetTableStart) else {
            throw CoreError(.syntax, "the binary plist's object \(object) lies outside the object area")
        }
        return Int(offset)
    }

    private func reference(at offset: Int) throws(CoreError) -> Int {
        let object = Self.bigEndian(bytes, at: offset, size: referenceSize)
        guard object < UInt64(objectCount) else {
            throw CoreError(.syntax, "the binary plist refers to object \(object), but it has only \(objectCount)")
        }
        return Int(object)
    }

    /// The element count of the object at `offset` and where its content starts: the low
    /// nibble of its marker, or the integer object that follows when the nibble is 0xF.
    private func count(at offset: Int) throws(CoreError) -> (count: Int, contentStart: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        guard offset + 1 < offsetTableStart, bytes[offset + 1] >> 4 == 0x1, bytes[offset + 1] & 0x0F <= 3 else {
            throw CoreError(.syntax, "the binary plist has an object with a malformed length")
        }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard offsetTableStart - (offset + 2) >= size else { throw truncated() }
        let count = Self.bigEndian(bytes, at: offset + 2, size: size)
        guard count <= UInt64(offsetTableStart) else { throw truncated() }
        return (Int(count), offset + 2 + size)
    }

    /// Checks that `count` items of `unit` bytes fit between `start` and the offset table.
    private func checkFits(_ count: Int, unit: Int, from start: Int) throws(CoreError) {
        guard start <= offsetTableStart, count <= (offsetTableStart - start) / unit else { throw truncated() }
    }

    private func truncated() -> CoreError {
        CoreError(.syntax, "the binary plist has an object that runs past the end of the object area")
    }

    // MARK: - Containers

    private mutating func array(at offset: Int, depth: Int) throws(CoreError) -> (FeedValue, Int, Int) {
        guard depth <= limits.effectiveMaxDepth else { throw CoreError(.limitExceeded, limits.tooDeep()) }
        let (count, start) = try count(at: offset)
        try checkFits(count, unit: referenceSize, from: start)
        var elements: [FeedNode] = []
        elements.reserveCapacity(count)
        var nodes = 1
        var height = 0
        for index in 0..<count {
            do throws(CoreError) {
                let (element, elementNodes, elementHeight) = try value(
                    of: try reference(at: start + index * referenceSize), depth: depth + 1)
                nodes = try adding(elementNodes, to: nodes)
                height = max(height, elementHeight)
                elements.append(FeedNode(element))
            } catch {
                throw error.inside(index: index)
            }
        }
        return (.array(elements), nodes, height + 1)
    }

    private mutating func dictionary(at offset: Int, depth: Int) throws(CoreError) -> (FeedValue, Int, Int) {
        guard depth <= limits.effectiveMaxDepth else { throw CoreError(.limitExceeded, limits.tooDeep()) }
        let (count, start) = try count(at: offset)
        try checkFits(count, unit: 2 * referenceSize, from: start)
        let valuesStart = start + count * referenceSize
        var builder = FeedDictionaryBuilder()
        var nodes = 1
        var height = 0
        for index in 0..<count {
            let key = try key(at: try reference(at: start + index * referenceSize))
            if let first = builder.existing(key) {
                throw FeedDictionaryBuilder.duplicateKeyError(key, first: first, line: nil)
            }
            do throws(CoreError) {
                let (element, elementNodes, elementHeight) = try value(
                    of: try reference(at: valuesStart + index * referenceSize), depth: depth + 1)
                nodes = try adding(elementNodes, to: nodes)
                height = max(height, elementHeight)
                builder.append(key, FeedNode(element))
            } catch {
                throw error.inside(key: key)
            }
        }
        return (.dictionary(builder.dictionary), nodes, height + 1)
    }

    private mutating func key(at object: Int) throws(CoreError) -> String {
        let kind = bytes[try offset(of: object)] >> 4
        guard kind == 0x5 || kind == 0x6 else {
            throw CoreError(.syntax, "the binary plist has a dictionary key that is not a string")
        }
        guard case .string(let key) = try value(of: object, depth: 1).0 else {
            throw CoreError(.syntax, "the binary plist has a dictionary key that is not a string")
        }
        return key
    }

    /// `nodes + more`, refused past `maxNodes` so shared subtrees cannot expand without bound.
    private func adding(_ more: Int, to nodes: Int) throws(CoreError) -> Int {
        let (sum, overflow) = nodes.addingReportingOverflow(more)
        guard !overflow, sum <= limits.maxNodes else {
            throw CoreError(
                .limitExceeded,
                "\(limits.tooManyValues()) once shared objects are expanded")
        }
        return sum
    }

    // MARK: - Scalars

    private func scalar(at offset: Int) throws(CoreError) -> FeedValue {
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default:
                throw CoreError(.syntax, "the binary plist has a fill byte or unknown marker where a value belongs")
            }
        case 0x1:
            return .integer(try integer(at: offset))
        case 0x2:
            return .real(try real(at: offset))
        case 0x3:
            guard marker == 0x33 else { throw unknownMarker(marker) }
            return .date(try date(at: offset))
        case 0x4:
            let (count, start) = try count(at: offset)
            try checkFits(count, unit: 1, from: start)
            try checkLength(count, "A data value")
            return .data(Array(bytes[start..<start + count]))
        case 0x5:
            let (count, start) = try count(at: offset)
            try checkFits(count, unit: 1, from: start)
            try checkLength(count, "A string")
            let text = UnsafeBufferPointer(rebasing: bytes[start..<start + count])
            guard text.allSatisfy({ $0 < 0x80 }) else {
                throw CoreError(.syntax, "the binary plist has an ASCII string with a non-ASCII byte")
            }
            return .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            return .string(try utf16String(at: offset))
        case 0x8:
            throw CoreError(
                .syntax, "the binary plist holds a UID (a keyed-archive reference), which is not a feed value")
        case 0xB, 0xC:
            throw CoreError(.syntax, "the binary plist holds a set, which feeds do not use; use an array")
        default:
            throw unknownMarker(marker)
        }
    }

    private func integer(at offset: Int) throws(CoreError) -> Int64 {
        let sizeExponent = bytes[offset] & 0x0F
        guard sizeExponent <= 4 else { throw unknownMarker(bytes[offset]) }
        let size = 1 << Int(sizeExponent)
        try checkFits(size, unit: 1, from: offset + 1)
        switch size {
        case 1, 2, 4:
            return Int64(Self.bigEndian(bytes, at: offset + 1, size: size))
        case 8:
            return Int64(bitPattern: Self.bigEndian(bytes, at: offset + 1, size: 8))
        default:
            // 16-byte integers are signed 128-bit; they are read only when they fit in 64 bits.
            let high = Self.bigEndian(bytes, at: offset + 1, size: 8)
            let low = Self.bigEndian(bytes, at: offset + 9, size: 8)
            let fits = (high == 0 && low >> 63 == 0) || (high == UInt64.max && low >> 63 == 1)
            guard fits else { throw CoreError(.syntax, "the binary plist has an integer that does not fit in 64 bits") }
            return Int64(bitPattern: low)
        }
    }

    private func real(at offset: Int) throws(CoreError) -> Double {
        let marker = bytes[offset]
        guard marker == 0x22 || marker == 0x23 else { throw unknownMarker(marker) }
        let size = marker == 0x22 ? 4 : 8
        try checkFits(size, unit: 1, from: offset + 1)
        let bits = Self.bigEndian(bytes, at: offset + 1, size: size)
        let value = size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
        guard value.isFinite else {
            throw CoreError(.syntax, "the binary plist has a real that is not a finite number")
        }
        return value
    }

    private func date(at offset: Int) throws(CoreError) -> Instant {
        try checkFits(8, unit: 1, from: offset + 1)
        let seconds = Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, size: 8)) + Self.plistEpoch
        guard seconds.isFinite, Self.dateRange.contains(seconds) else {
            throw CoreError(.syntax, "the binary plist has a date outside the years 1 to 9999")
        }
        // Rounds half away from zero; `rounded()` would need libm, which the core does not link.
        let microseconds = seconds * 1_000_000
        return Instant(microseconds: Int64(microseconds + (microseconds < 0 ? -0.5 : 0.5)))
    }

    private func utf16String(at offset: Int) throws(CoreError) -> String {
        let (count, start) = try count(at: offset)
        try checkFits(count, unit: 2, from: start)
        try checkLength(count, "A string")
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < count {
            let unit = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])
            index += 1
            var value = UInt32(unit)
            if UTF16.isLeadSurrogate(unit), index < count {
                let next = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])
                if UTF16.isTrailSurrogate(next) {
                    index += 1
                    value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(next - 0xDC00)
                }
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw CoreError(.syntax, "the binary plist has a UTF-16 string with a lone surrogate")
            }
            scalars.append(scalar)
        }
        let string = String(scalars)
        try checkLength(string.utf8.count, "A string")
        return string
    }

    private func checkLength(_ length: Int, _ what: String) throws(CoreError) {
        guard length <= limits.maxStringBytes else { throw CoreError(.limitExceeded, limits.tooLong(what, length)) }
    }

    private func unknownMarker(_ marker: UInt8) -> CoreError {
        CoreError(
            .syntax, "the binary plist has an object of unknown type 0x\(ByteCursor.hex(UInt32(marker), width: 2))")
    }
}
