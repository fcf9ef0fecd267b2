import Foundation

/// An executable product of this package (`sesame`, `sesame-demo`, a test's child process),
/// as built beside the running test bundle in the build products folder; nil when it was not
/// built.
public func builtProduct(named name: String) -> URL? {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder.deleteLastPathComponent()
    }
    return nil
}
