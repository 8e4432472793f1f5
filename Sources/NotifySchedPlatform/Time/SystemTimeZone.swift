import Glibc
import NotifySchedCore

/// The zone the user's clock shows, found the way glibc finds it.
public enum SystemTimeZone {
    /// The current zone.
    ///
    /// Reads `TZ` as glibc does: unset means `/etc/localtime`; empty means UTC; a leading `:`
    /// is dropped; an absolute path names a TZif file; anything else is first a zone name in
    /// `database`, then a POSIX rule (`CET-1CEST,M3.5.0,M10.5.0/3`). `/etc/localtime` is named
    /// after its symlink target (or its own path) below a `zoneinfo` folder (`Europe/Berlin`) and parsed from the
    /// file itself when that name does not load. Anything unusable falls back to UTC, as glibc does.
    ///
    /// - Parameters:
    ///   - environment: The process environment; only `TZ` is read.
    ///   - database: Where zone names are looked up.
    ///   - localtimePath: The system zone link, `/etc/localtime` by default.
    /// - Returns: The zone's rules.
    public static func current(
        environment: [String: String], database: TimeZoneDatabase = TimeZoneDatabase(),
        localtimePath: String = "/etc/localtime"
    ) -> ZoneRules {
        guard var value = environment["TZ"] else {
            return systemZone(localtimePath: localtimePath, database: database)
        }
        if value.hasPrefix(":") { value.removeFirst() }
        if value.isEmpty { return .utc }
        if value.hasPrefix("/") {
            return
                (try? ZoneRules(
                    identifier: zoneName(fromPath: value) ?? value,
                    tzif: TimeZoneDatabase.readZoneFile(value, name: value))) ?? .utc
        }
        if let zone = database.zone(named: value) { return zone }
        return (try? ZoneRules(identifier: value, posixRule: value)) ?? .utc
    }

    private static func systemZone(localtimePath: String, database: TimeZoneDatabase) -> ZoneRules {
        if let target = symlinkTarget(localtimePath), let name = zoneName(fromPath: target),
            let zone = database.zone(named: name)
        {
            return zone
        }
        let name =
            symlinkTarget(localtimePath).flatMap(zoneName(fromPath:)) ?? zoneName(fromPath: localtimePath)
            ?? "localtime"
        return (try? ZoneRules(identifier: name, tzif: TimeZoneDatabase.readZoneFile(localtimePath, name: name)))
            ?? .utc
    }

    /// `Europe/Berlin` from `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/Europe/Berlin`.
    static func zoneName(fromPath path: String) -> String? {
        let marker = Array("zoneinfo/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count > marker.count,
            let start = (0...(bytes.count - marker.count)).last(where: {
                bytes[$0..<$0 + marker.count].elementsEqual(marker)
            })
        else { return nil }
        let name = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
        return TimeZoneDatabase.isAcceptableName(name) ? name : nil
    }

    private static func symlinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
