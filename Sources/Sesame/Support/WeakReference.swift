/// A weak reference that can cross concurrency domains, so that middlewares and background
/// tasks never keep the authentication service alive.
///
/// `@unchecked Sendable`: `value` is written once, in `init`; Swift's weak references are
/// safe to read from any thread.
final class WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {
    private(set) weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
