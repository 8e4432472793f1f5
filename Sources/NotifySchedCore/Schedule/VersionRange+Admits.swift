import Foundation

extension VersionRange {
    /// Whether `version` lies within the inclusive range, comparing like iNotify does
    /// (`NSNumericSearch`): `1.10` > `1.9`, `1.01` == `1.1`, `1.0.0` > `1.0`, `2.0b1` > `2.0`.
    public func admits(_ version: String) -> Bool {
        if let minimum, version.compare(minimum, options: .numeric) == .orderedAscending { return false }
        if let maximum, version.compare(maximum, options: .numeric) == .orderedDescending { return false }
        return true
    }
}
