/// Storage behind a reference for a generated model's properties that hold another object
/// model (a `parent: Node?`, an `address: Address`), and for those that close a cycle of
/// models. The property itself reads and writes the value; only the storage is a reference.
///
/// The box is immutable: setting the property stores a new box, so the model keeps value
/// semantics. Compared and hashed by value, as the value would be.
public final class Indirect<Value: Sendable & Hashable>: Sendable, Hashable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs === rhs || lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
