extension ZoneRules {
    /// Rules read from a TZif file (RFC 8536, versions 1 to 4).
    ///
    /// Uses the 64-bit body of version 2 and later files, and their footer rule for instants
    /// after the last transition. Every count, index and length is checked before it is used,
    /// so truncated or hostile bytes throw rather than trap. Leap-second records are read past
    /// and ignored: instants here are POSIX time, as glibc's `right/`-less zones assume.
    ///
    /// - Parameters:
    ///   - identifier: The zone's name, such as `Europe/Berlin`.
    ///   - tzif: The file's bytes.
    /// - Throws: `CoreError` with code `.invalidZoneData` naming what is wrong.
    public init(identifier: String, tzif: [UInt8]) throws(CoreError) {
        var reader = TZifReader(bytes: tzif, identifier: identifier)
        let first = try reader.header()
        if first.version == 0 {
            let body = try reader.body(first, timeSize: 4)
            self.init(identifier: identifier, body: body, rule: nil)
            return
        }
        try reader.skip(first.bodyLength(timeSize: 4))
        let second = try reader.header()
        let body = try reader.body(second, timeSize: 8)
        let rule = try reader.footer()
        self.init(identifier: identifier, body: body, rule: rule)
    }

    private init(identifier: String, body: TZifReader.Body, rule: PosixTimeZoneRule?) {
        self.init(
            identifier: identifier, transitionTimes: body.times, transitionOffsetIndices: body.typeIndices,
            offsets: body.types, initialOffset: body.types[0], rule: rule)
    }
}

/// Reads the parts of a TZif file, checking bounds as it goes.
private struct TZifReader {
    struct Header {
        var version: UInt8
        var isUTCCount: Int
        var isStandardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var charCount: Int

        /// Counts are at most 2^32 each, so this sum cannot overflow a 64-bit Int.
        func bodyLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    struct Body {
        var times: [Int64]
        var typeIndices: [Int]
        var types: [ZoneOffset]
    }

    let bytes: [UInt8]
    let identifier: String
    var index = 0

    init(bytes: [UInt8], identifier: String) {
        self.bytes = bytes
        self.identifier = identifier
    }

    func failure(_ what: String) -> CoreError {
        CoreError(.invalidZoneData, "zone \(identifier): \(what)")
    }

    mutating func skip(_ count: Int) throws(CoreError) {
        guard count >= 0, bytes.count - index >= count else { throw failure("the file is truncated") }
        index += count
    }

    mutating func header() throws(CoreError) -> Header {
        guard bytes.count - index >= 44 else { throw failure("the file is truncated inside a header") }
        guard bytes[index..<index + 4].elementsEqual("TZif".utf8) else { throw failure("not a TZif file") }
        let version = bytes[index + 4]
        guard version == 0 || (UInt8(ascii: "2")...UInt8(ascii: "4")).contains(version) else {
            throw failure("unknown TZif version \(version)")
        }
        index += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(readUInt32())) }
        let header = Header(
            version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        guard header.typeCount >= 1, header.typeCount <= 256, header.charCount >= 1 else {
            throw failure("a TZif header needs at least one time type (at most 256) and one abbreviation byte")
        }
        guard header.isUTCCount == 0 || header.isUTCCount == header.typeCount,
            header.isStandardCount == 0 || header.isStandardCount == header.typeCount
        else { throw failure("UT/local and standard/wall indicator counts must be zero or the type count") }
        return header
    }

    mutating func body(_ header: Header, timeSize: Int) throws(CoreError) -> Body {
        guard bytes.count - index >= header.bodyLength(timeSize: timeSize) else {
            throw failure("the file is truncated inside the data block")
        }
        var times: [Int64] = []
        times.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let time = timeSize == 4 ? Int64(Int32(bitPattern: readUInt32())) : Int64(bitPattern: readUInt64())
            if let previous = times.last, time <= previous {
                throw failure("transition times are not strictly ascending")
            }
            times.append(time)
        }
        var typeIndices: [Int] = []
        typeIndices.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let typeIndex = Int(bytes[index])
            index += 1
            guard typeIndex < header.typeCount else { throw failure("a transition names time type \(typeIndex)") }
            typeIndices.append(typeIndex)
        }
        var rawTypes: [(offset: Int32, isDST: Bool, abbreviationIndex: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = Int32(bitPattern: readUInt32())
            let isDST = bytes[index]
            let abbreviationIndex = Int(bytes[index + 1])
            index += 2
            guard offset != Int32.min, isDST <= 1, abbreviationIndex < header.charCount else {
                throw failure("a time type has an invalid offset, DST flag or abbreviation index")
            }
            rawTypes.append((offset, isDST == 1, abbreviationIndex))
        }
        let characters = bytes[index..<index + header.charCount]
        index += header.charCount
        var types: [ZoneOffset] = []
        for raw in rawTypes {
            let start = characters.startIndex + raw.abbreviationIndex
            guard let end = characters[start...].firstIndex(of: 0) else {
                throw failure("an abbreviation is not NUL-terminated")
            }
            let abbreviation = String(decoding: characters[start..<end], as: UTF8.self)
            types.append(ZoneOffset(seconds: Int(raw.offset), isDST: raw.isDST, abbreviation: abbreviation))
        }
        index += header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
        return Body(times: times, typeIndices: typeIndices, types: types)
    }

    mutating func footer() throws(CoreError) -> PosixTimeZoneRule? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else {
            throw failure("the footer does not start with a newline")
        }
        guard let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw failure("the footer does not end with a newline")
        }
        let text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        return text.isEmpty ? nil : try PosixTimeZoneRule(parsing: text)
    }

    private mutating func readUInt32() -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] { value = value << 8 | UInt32(byte) }
        index += 4
        return value
    }

    private mutating func readUInt64() -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[index..<index + 8] { value = value << 8 | UInt64(byte) }
        index += 8
        return value
    }
}
