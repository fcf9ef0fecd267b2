import Foundation

/// A value that `@Sendable` closures (a scripted browser, a transport) set while a test runs
/// and the test reads afterwards.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stored: Value

    /// Holds `value` until the first `set(_:)`.
    public init(_ value: Value) { stored = value }

    /// The value last set.
    public var value: Value { lock.withLock { stored } }

    /// Replaces the value.
    public func set(_ value: Value) { lock.withLock { stored = value } }
}
