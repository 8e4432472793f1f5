/// A staged rollout (`rollout` of a portal entry): the entry shows only on the desktops whose
/// bucket in `namespace` is one of `count` buckets from `start`, of `total`, as Firefox's
/// Messaging System and Normandy sample, byte for byte (`BucketSample`): 10 % first, then more,
/// each desktop staying in or out as the range grows. The desktop's bucket comes from its
/// install id, which never leaves it.
public struct Rollout: Sendable, Hashable {
    /// Names the sampling: entries of one namespace share their buckets; another namespace
    /// shuffles the desktops anew.
    public var namespace: String
    /// The first bucket in the range (wrapping at `total`).
    public var start: Int
    /// How many buckets the range holds.
    public var count: Int
    /// How many buckets there are.
    public var total: Int

    /// The most buckets a rollout may have: far more than a fleet needs, well within the
    /// 48 bits the sample compares.
    public static let mostBuckets = 1 << 31

    public init(namespace: String, start: Int, count: Int, total: Int) {
        self.namespace = namespace
        self.start = start
        self.count = count
        self.total = total
    }

    /// Whether the desktop with `installID` is in the range.
    public func admits(installID: String) -> Bool {
        BucketSample.bucketSample(
            [installID, namespace], start: start, count: count, total: total)
    }

    /// The desktop's bucket in `namespace`, from 0 to `total` - 1: the one whose share of the
    /// hash space its hash falls in.
    public func bucket(of installID: String) -> Int {
        BucketSample.bucket(of: BucketSample.truncatedHash([installID, namespace]), total: total)
    }

    /// The range as people read it: `buckets 0…999 of 10000 in "spring"` (wrapping as
    /// `9000…999`), `no bucket of 10000 in "spring"`.
    public var words: String {
        let range = count == 0 ? "no bucket" : "buckets \(start % total)…\((start + count - 1) % total)"
        return "\(range) of \(total) in \"\(namespace)\""
    }
}

/// Firefox's `Sampling.bucketSample` and what it rests on (`truncatedHash`, `fractionToKey`),
/// with the same arithmetic: the input is hashed as `JSON.stringify` writes it, the first 48 bits
/// of its SHA-256 are compared with the range's bounds, each the floor of a fraction times
/// 2^48 - 1 in double precision.
public enum BucketSample {
    /// 2^48 - 1: the hash space, as Firefox's `hashMultiplier`.
    static let hashMultiplier = Double((UInt64(1) << 48) - 1)

    /// Whether `inputs` fall in `count` buckets from `start` (wrapping) of `total`.
    public static func bucketSample(_ inputs: [String], start: Int, count: Int, total: Int) -> Bool {
        let hash = truncatedHash(inputs)
        let wrappedStart = start % total
        let end = wrappedStart + count
        if end > total {
            return hash < fractionToKey(Double(end % total) / Double(total))
                || hash >= fractionToKey(Double(wrappedStart) / Double(total))
        }
        return hash < fractionToKey(Double(end) / Double(total))
            && hash >= fractionToKey(Double(wrappedStart) / Double(total))
    }

    /// The first 48 bits of the SHA-256 of `inputs` as `JSON.stringify` writes them.
    public static func truncatedHash(_ inputs: [String]) -> UInt64 {
        let digest = SHA256.digest(jsonArray(inputs))
        return digest.prefix(6).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `Math.floor(fraction * (2^48 - 1))`, for a fraction from 0 to 1.
    static func fractionToKey(_ fraction: Double) -> UInt64 {
        UInt64((fraction * hashMultiplier).rounded(.down))
    }

    /// The bucket, of `total`, that `hash` falls in.
    static func bucket(of hash: UInt64, total: Int) -> Int {
        var (low, high) = (0, total - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if fractionToKey(Double(middle) / Double(total)) <= hash { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// `JSON.stringify(strings)` in UTF-8: `"` and `\` escaped, the short escapes for
    /// backspace, form feed, line feed, carriage return and tab, `\u00xx` for the other
    /// control characters, anything else as it is.
    static func jsonArray(_ strings: [String]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
                case 0x08: bytes += Array(#"\b"#.utf8)
                case 0x0C: bytes += Array(#"\f"#.utf8)
                case 0x0A: bytes += Array(#"\n"#.utf8)
                case 0x0D: bytes += Array(#"\r"#.utf8)
                case 0x09: bytes += Array(#"\t"#.utf8)
                case ..<0x20:
                    let digits = Array("0123456789abcdef".utf8)
                    bytes += Array(#"\u00"#.utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
