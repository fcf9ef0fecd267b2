/// Storage behind a reference, for generated models that contain themselves through an
/// optional property (a `Node` with an optional `parent: Node`). Compared and hashed by value.
public final class Indirect<Value: Sendable & Hashable>: Sendable, Hashable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
