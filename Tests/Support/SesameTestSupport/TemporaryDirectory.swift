import Foundation

/// A new, empty directory in the system's temporary folder, removed (with what it holds)
/// when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory, named `<prefix>-<UUID>`; throws when it cannot be created.
    public init(prefix: String = "sesame") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
