import NotifySchedCore
import Testing

@Suite struct BinaryPropertyListReaderTests {
    /// A one-object plist holding `object`.
    static func single(_ object: [UInt8]) -> [UInt8] {
        var builder = BinaryPlistBuilder()
        builder.add(object)
        return builder.build()
    }

    static func value(_ object: [UInt8]) throws(CoreError) -> FeedValue {
        try FeedDocument.read(single(object)).root.value
    }

    @Test func readsEveryValueTypeAsPlistlibWritesIt() throws {
        let document = try FeedDocument.read(PlistFixtures.everyTypeBinary)
        #expect(document.format == .binaryPropertyList)
        #expect(document.root == XMLPropertyListReaderTests.everyTypeValue)
    }

    @Test func readsTheSameTreeFromEveryFormat() throws {
        let json = try readFeed(#"{"notifications": [{"id": "a", "title": "Hi", "fireDate": "2026-01-02T03:04:05Z"}]}"#)
        let xml = try readFeed(
            XMLPropertyListReaderTests.plist(
                "<dict><key>notifications</key><array><dict><key>id</key><string>a</string><key>title</key>"
                    + "<string>Hi</string><key>fireDate</key><date>2026-01-02T03:04:05Z</date></dict></array></dict>"))
        let binary = try FeedDocument.read(PlistFixtures.smallBinary)
        #expect(xml.root.withoutLines == binary.root)
        guard case .dictionary(let jsonRoot) = json.root.value, case .dictionary(let xmlRoot) = xml.root.value else {
            Issue.record("both roots should be dictionaries")
            return
        }
        #expect(jsonRoot.keys == xmlRoot.keys)
    }

    @Test func readsIntegersOfEverySize() throws {
        #expect(try Self.value([0x10, 0xFF]) == .integer(255))
        #expect(try Self.value([0x11, 0x01, 0x00]) == .integer(256))
        #expect(try Self.value([0x12, 0xFF, 0xFF, 0xFF, 0xFF]) == .integer(4_294_967_295))
        #expect(try Self.value(BinaryPlistBuilder.integer(-3)) == .integer(-3))
        let small128 = [0x14] + [UInt8](repeating: 0, count: 15) + [0x2A]
        #expect(try Self.value(small128) == .integer(42))
        let negative128 = [0x14] + [UInt8](repeating: 0xFF, count: 16)
        #expect(try Self.value(negative128) == .integer(-1))
        let huge128 = [0x14] + [UInt8](repeating: 0, count: 8) + [0x80] + [UInt8](repeating: 0, count: 7)
        #expect(throws: CoreError.self, "2^63 does not fit in 64 bits") { try Self.value(huge128) }
        #expect(throws: CoreError.self) { try Self.value([0x15] + [UInt8](repeating: 0, count: 32)) }
    }

    @Test func readsRealsOfBothSizesAndRefusesNonFiniteOnes() throws {
        #expect(
            try Self.value([0x22] + BinaryPlistBuilder.bigEndian(UInt64(Float(0.5).bitPattern), size: 4)) == .real(0.5))
        #expect(try Self.value(BinaryPlistBuilder.real(-2.25)) == .real(-2.25))
        #expect(throws: CoreError.self) { try Self.value(BinaryPlistBuilder.real(.nan)) }
        #expect(throws: CoreError.self) { try Self.value(BinaryPlistBuilder.real(-.infinity)) }
    }

    @Test func readsNullBooleansAndDates() throws {
        #expect(try Self.value([0x00]) == .null)
        #expect(try Self.value([0x08]) == .bool(false))
        #expect(try Self.value([0x09]) == .bool(true))
        #expect(
            try Self.value(BinaryPlistBuilder.date(secondsSince2001: 0))
                == .date(Instant(secondsSinceEpoch: 978_307_200)))
        #expect(throws: CoreError.self, "a fill byte is not a value") { try Self.value([0x0F]) }
    }

    @Test func refusesDatesThatAreNotFiniteOrOutOfRange() {
        for seconds in [Double.nan, .infinity, 1e300, -1e15] {
            #expect(throws: CoreError.self, "\(seconds) is not a usable date") {
                try Self.value(BinaryPlistBuilder.date(secondsSince2001: seconds))
            }
        }
    }

    @Test func readsStringsAndRefusesLoneSurrogates() throws {
        #expect(try Self.value(BinaryPlistBuilder.ascii("plain")) == .string("plain"))
        #expect(
            try Self.value(BinaryPlistBuilder.ascii(String(repeating: "x", count: 40)))
                == .string(String(repeating: "x", count: 40)))
        #expect(try Self.value(BinaryPlistBuilder.utf16([0x00E9, 0xD83D, 0xDE00])) == .string("é😀"))
        #expect(throws: CoreError.self) { try Self.value(BinaryPlistBuilder.utf16([0xD83D])) }
        #expect(throws: CoreError.self) { try Self.value(BinaryPlistBuilder.utf16([0xDE00, 0x41])) }
        #expect(throws: CoreError.self) { try Self.value(BinaryPlistBuilder.utf16([0xD83D, 0x41])) }
        #expect(throws: CoreError.self, "ASCII strings hold ASCII only") { try Self.value([0x52, 0x41, 0xC3]) }
    }

    @Test func refusesUIDsAndSets() {
        #expect(throws: CoreError.self) { try Self.value([0x80, 0x01]) }
        var builder = BinaryPlistBuilder()
        builder.add([0xC1, 0x01])
        builder.add([0x09])
        #expect(readError(builder.build())?.code == .syntax)
        builder.objects[0] = [0xB1, 0x01]
        #expect(readError(builder.build())?.code == .syntax)
    }

    @Test func refusesNonStringAndDuplicateKeysNamingThePath() {
        var builder = BinaryPlistBuilder()
        let outerKey = builder.add(BinaryPlistBuilder.ascii("items"))
        let key = builder.add(BinaryPlistBuilder.ascii("id"))
        let value = builder.add([0x09])
        let inner = builder.add(builder.dictionary(keys: [key, key], values: [value, value]))
        let list = builder.add(builder.array([value, inner]))
        let root = builder.add(builder.dictionary(keys: [outerKey], values: [list]))
        let error = readError(builder.build(top: root))
        #expect(error?.code == .duplicateKey)
        #expect(error?.location == FeedLocation(keyPath: "items[1].id", line: nil))

        builder.objects[inner] = builder.dictionary(keys: [value], values: [value])
        #expect(readError(builder.build(top: root))?.code == .syntax, "a boolean cannot be a key")
    }

    @Test func reportsTheKeyPathOfAnError() {
        var builder = BinaryPlistBuilder()
        let key = builder.add(BinaryPlistBuilder.ascii("fireDate"))
        let bad = builder.add(BinaryPlistBuilder.date(secondsSince2001: .nan))
        let good = builder.add([0x09])
        let entry = builder.add(builder.dictionary(keys: [key], values: [bad]))
        let list = builder.add(builder.array([good, good, good, entry]))
        let notifications = builder.add(BinaryPlistBuilder.ascii("notifications"))
        let root = builder.add(builder.dictionary(keys: [notifications], values: [list]))
        let error = readError(builder.build(top: root))
        #expect(error?.location == FeedLocation(keyPath: "notifications[3].fireDate"))
    }

    @Test func validatesTheTrailer() {
        var builder = BinaryPlistBuilder()
        builder.add([0x09])
        let valid = builder.build()
        #expect(readError(valid) == nil)
        var badSizes = valid
        badSizes[valid.count - 26] = 0
        #expect(readError(badSizes)?.code == .syntax, "offset size 0 is invalid")
        badSizes = valid
        badSizes[valid.count - 25] = 9
        #expect(readError(badSizes)?.code == .syntax, "reference size 9 is invalid")
        #expect(readError(builder.build(top: 1))?.code == .syntax, "the top object must exist")
        #expect(readError(builder.build(objectCount: 0))?.code == .syntax)
        #expect(
            readError(builder.build(objectCount: 1 << 40))?.code == .syntax, "the offset table must fit in the file")
        #expect(readError(builder.build(tableOffset: 1 << 62))?.code == .syntax)
        #expect(readError(builder.build(tableOffset: 3))?.code == .syntax)
        #expect(readError(Array(valid.prefix(20)))?.code == .syntax)
    }

    @Test func refusesOffsetsAndReferencesOutsideTheFile() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([5]))
        #expect(readError(builder.build())?.code == .syntax, "object 5 does not exist")
        var file = Self.single([0x09])
        let table = file.count - 32 - 2
        file[table] = 0x7F
        #expect(readError(file)?.code == .syntax, "the object offset points past the object area")
    }

    @Test func refusesOversizedLengthFields() {
        let lengths: [[UInt8]] = [
            [0x5F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], [0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF],
            [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], [0x5F, 0x10], [0x5F, 0x23, 0, 0, 0, 0, 0, 0, 0, 0], [0x4E, 0x00],
        ]
        for object in lengths {
            #expect(readError(Self.single(object))?.code == .syntax, "\(object) claims more bytes than the file has")
        }
    }

    @Test func refusesReferenceCycles() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([0]))
        #expect(readError(builder.build())?.code == .syntax, "an array containing itself is a cycle")

        var deeper = BinaryPlistBuilder()
        let key = deeper.add(BinaryPlistBuilder.ascii("next"))
        deeper.add(deeper.dictionary(keys: [key], values: [2]))
        deeper.add(deeper.array([3]))
        deeper.add(deeper.array([1]))
        #expect(readError(deeper.build(top: 1))?.code == .syntax, "a dictionary reached from itself is a cycle")
    }

    @Test func sharesRepeatedSubtreesAndCountsThemInFull() throws {
        var builder = BinaryPlistBuilder()
        var child = builder.add([0x09])
        for _ in 0..<5 {
            child = builder.add(builder.array([child, child]))
        }
        let document = try FeedDocument.read(builder.build(top: child))
        var leaves = 0
        func count(_ node: FeedNode) {
            if case .array(let elements) = node.value { elements.forEach(count) } else { leaves += 1 }
        }
        count(document.root)
        #expect(leaves == 32)
        #expect(readError(builder.build(top: child), limits: FeedReadLimits(maxNodes: 62))?.code == .limitExceeded)
        #expect(readError(builder.build(top: child), limits: FeedReadLimits(maxNodes: 63)) == nil)
    }

    @Test func enforcesDepthAndObjectLimits() {
        var builder = BinaryPlistBuilder()
        var child = builder.add([0x09])
        for _ in 0..<3 {
            child = builder.add(builder.array([child]))
        }
        #expect(readError(builder.build(top: child), limits: FeedReadLimits(maxDepth: 2))?.code == .limitExceeded)
        #expect(readError(builder.build(top: child), limits: FeedReadLimits(maxDepth: 3)) == nil)
        #expect(
            readError(builder.build(top: child), limits: FeedReadLimits(maxBinaryObjects: 3))?.code == .limitExceeded)
        #expect(
            readError(Self.single(BinaryPlistBuilder.ascii("12345")), limits: FeedReadLimits(maxStringBytes: 4))?.code
                == .limitExceeded)
    }
}
