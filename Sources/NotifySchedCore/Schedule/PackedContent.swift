/// What an entry's content says beyond the title and body it keeps in line (`ScheduleEntry`), in
/// one heap object: the fixed fields, then each string's UTF-8 after its length.
///
/// Most entries that say more than a title and a body have an icon or an action button. A
/// `NotificationContent` in a box of its own took 192 bytes of heap for them, and an action's URL
/// a heap object more; packed, an icon takes some 64 bytes, and an icon and a button some 96.
///
/// Sendable though its buffer is not: nothing changes the buffer once it is made.
struct PackedContent: @unchecked Sendable {
    private let storage: ManagedBuffer<Header, UInt8>

    struct Header {
        /// The bytes of the strings after the header.
        var count: Int
        /// Which strings are there, a bit for each `Field`.
        var fields: UInt8
        var urgency: Urgency
        var markup: Bool
        var timeout: TimeSpan?
    }

    /// The strings a content may have, in the order they are kept.
    private enum Field: Int {
        /// The title when the entry does not keep it in line; absent when empty.
        case title
        case icon, actionLabel, actionURL, sound, image

        var bit: UInt8 { 1 << UInt8(rawValue) }
    }

    /// `content` packed; its body is not kept (the entry keeps it in line).
    static func of(_ content: NotificationContent) -> PackedContent {
        let strings: [(Field, String?)] = [
            (.title, content.title.isEmpty ? nil : content.title), (.icon, content.icon),
            (.actionLabel, content.action?.label), (.actionURL, content.action?.url.string),
            (.sound, content.sound), (.image, content.image),
        ]
        var bytes: [UInt8] = []
        var fields: UInt8 = 0
        for case (let field, let string?) in strings {
            fields |= field.bit
            var length = string.utf8.count
            while length >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes.append(contentsOf: string.utf8)
        }
        let header = Header(
            count: bytes.count, fields: fields, urgency: content.urgency, markup: content.markup,
            timeout: content.timeout)
        return bytes.withUnsafeBufferPointer { PackedContent(header, $0) }
    }

    private init(_ header: Header, _ bytes: UnsafeBufferPointer<UInt8>) {
        storage = ManagedBuffer.create(minimumCapacity: bytes.count) { _ in header }
        storage.withUnsafeMutablePointerToElements { elements in
            if let base = bytes.baseAddress { elements.initialize(from: base, count: bytes.count) }
        }
    }

    /// The content, with an empty body, and an empty title unless it was kept here.
    var content: NotificationContent {
        storage.withUnsafeMutablePointers { header, elements in
            let header = header.pointee
            var bytes = UnsafeBufferPointer(start: elements, count: header.count)[...]
            func string(_ field: Field) -> String? {
                guard header.fields & field.bit != 0 else { return nil }
                var length = 0
                var shift = 0
                while let byte = bytes.popFirst() {
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                defer { bytes = bytes.dropFirst(length) }
                return String(decoding: bytes.prefix(length), as: UTF8.self)
            }
            // In `Field` order: each string is read where the one before it ends.
            let title = string(.title) ?? ""
            let icon = string(.icon)
            let label = string(.actionLabel)
            let action = string(.actionURL).map { NotificationAction(label: label, url: ActionURL(checked: $0)) }
            let sound = string(.sound)
            let image = string(.image)
            return NotificationContent(
                title: title, body: "", icon: icon, urgency: header.urgency, action: action, timeout: header.timeout,
                sound: sound, image: image, markup: header.markup)
        }
    }

    /// A copy made by the calling thread (`ScheduleEntry.relocated()`).
    var relocated: PackedContent {
        storage.withUnsafeMutablePointers { header, elements in
            PackedContent(header.pointee, UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// Feeds what it says to `hasher`: its packed form, the same for the same content.
    func hashMeaning(into hasher: inout Hasher) {
        storage.withUnsafeMutablePointers { header, elements in
            let fixed = header.pointee
            hasher.combine(fixed.fields)
            hasher.combine(fixed.urgency)
            hasher.combine(fixed.markup)
            hasher.combine(fixed.timeout)
            hasher.combine(bytes: UnsafeRawBufferPointer(start: elements, count: fixed.count))
        }
    }
}
