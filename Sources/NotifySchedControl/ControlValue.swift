/// One argument or result of a call on the control interface, as D-Bus carries it: strings,
/// booleans and unsigned integers are all the interface uses.
public enum ControlValue: Sendable, Equatable {
    case string(String)
    case boolean(Bool)
    case unsigned(UInt32)

    /// The text of a string value; nil for the other types.
    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value of a boolean; nil for the other types.
    public var boolean: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    /// The value of an unsigned integer; nil for the other types.
    public var unsigned: UInt32? {
        if case .unsigned(let value) = self { value } else { nil }
    }
}
