import Foundation
import ReferenceSDK

/// The texts an app can make of a value: what string interpolation, `debugPrint`, `dump`
/// and a walk of its `Mirror` show.
enum Rendering {
    /// `String(describing:)`, `String(reflecting:)`, `dump(_:)`, and ``mirrored(_:)``.
    static func texts(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped] + mirrored(value)
    }

    /// Each `Mirror` child of `value`, and each of theirs, as `label: description` and
    /// `label: debug description`. The walk descends into values only: of an object it
    /// reads the descriptions, not the stored properties, which the object may guard with
    /// a lock the walk cannot take.
    static func mirrored(_ value: Any) -> [String] {
        var texts: [String] = []
        walk(value, depth: 0, into: &texts)
        return texts
    }

    /// Deep enough for any model or error of the SDK; a guard against unbounded values.
    private static let maximumDepth = 24

    private static func walk(_ value: Any, depth: Int, into texts: inout [String]) {
        guard depth < maximumDepth else { return }
        for child in Mirror(reflecting: value).children {
            let label = child.label ?? "_"
            texts.append("\(label): \(String(describing: child.value))")
            texts.append("\(label): \(String(reflecting: child.value))")
            if !(type(of: child.value) is AnyClass) {
                walk(child.value, depth: depth + 1, into: &texts)
            }
        }
    }
}

extension AuthenticationService {
    /// The service's description, debug description and ``Rendering/mirrored(_:)`` walk,
    /// made inside the actor so that the walk reads its state safely. No `dump`: it would
    /// descend into the objects the service holds (its URLSession, the test's middlewares),
    /// whose state other threads change.
    func renderedFromInside() -> [String] {
        [String(describing: self), String(reflecting: self)] + Rendering.mirrored(self)
    }
}
