/// Storage behind a reference for a generated model's properties that hold another object
/// model (a `parent: Node?`, an `address: Address`), and for those that close a cycle of
/// models. The property itself reads and writes the value; only the storage is a reference.
///
/// The box is immutable: setting the property stores a new box, and changing the value
/// through the property takes it out of its box first (``take(_:)``), so the model keeps
/// value semantics and a change in place does not copy what the value holds. Compared,
/// hashed, printed and reflected as the value would be, so `print`, `dump` and `Mirror` see
/// the nested model's fields.
@_spi(Generated)
public final class Indirect<Value: Sendable & Hashable>: Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// `value.map(Indirect.init)`: what a generated model stores for an optional property.
    /// A call, so that each model does not compile its own closure and copy of the value.
    public static func wrap(_ value: Value?) -> Indirect? {
        value.map(Indirect.init)
    }

    /// `box?.value`: what a generated model's optional property reads.
    public static func unwrap(_ box: Indirect?) -> Value? {
        box?.value
    }

    /// Takes the value out of `box` and leaves `box` nil: what a generated model's `_modify`
    /// accessor does before it yields the value. When the box was the value's only holder,
    /// the value returned is then uniquely referenced too, so a change to it (appending to
    /// an array it holds) happens in place instead of copying.
    public static func take(_ box: inout Indirect?) -> Value? {
        defer { box = nil }
        return box?.value
    }

    public static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    public var description: String { String(describing: value) }
    public var debugDescription: String { String(reflecting: value) }
    public var customMirror: Mirror { Mirror(reflecting: value) }
}
