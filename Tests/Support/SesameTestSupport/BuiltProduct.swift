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

/// How a child process ended: its exit status and what it wrote, standard output and
/// standard error together.
public struct ProcessRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output and standard error, interleaved as written.
    public var output: String
}

/// Runs `executable` with `arguments` to its end, on a thread of its own (``onOwnThread(_:)``),
/// and returns its status and output.
public func runToEnd(_ executable: URL, arguments: [String] = []) async throws -> ProcessRun {
    try await onOwnThread {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
