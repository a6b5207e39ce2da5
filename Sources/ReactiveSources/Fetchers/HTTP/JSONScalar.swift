/// A scalar read from a JSON response (a paginator value, a cursor).
public enum JSONScalar: Hashable, Sendable, Decodable {
    /// A JSON number that is a whole number.
    case integer(Int)
    /// Any other JSON number.
    case number(Double)
    /// A JSON string.
    case string(String)
    /// A JSON boolean.
    case bool(Bool)
    /// JSON `null`.
    case null

    /// Decodes any JSON scalar; whole numbers become ``integer(_:)``. Throws a `DecodingError` for an array or an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) {
            self = value == value.rounded() && abs(value) < 1e15 ? .integer(Int(value)) : .number(value)
        }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else { self = .string(try container.decode(String.self)) }
    }

    /// The value as a whole number, or `nil` for anything else (strings included: an
    /// ill-typed paginator value stays unknown).
    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as a string, or `nil` for anything else.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
