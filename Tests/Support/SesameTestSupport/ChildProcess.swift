import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process whose standard output is read line by line while it runs (its standard
/// error is discarded): the multi-process tests, the demo and the benchmark drive processes of
/// a session shared across processes with it. Every wait happens on a thread of its own
/// (``onOwnThread(_:)``), never on Swift's cooperative pool. It is terminated if it still runs
/// when released.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    // Guarded by `lock`: what was read past the last line returned.
    private let lock = NSLock()
    private var buffer = Data()

    /// Starts `executable` with `arguments`, and with `environment` added to this process's
    /// own environment.
    /// - Throws: when the process cannot be started.
    public init(_ executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The next line it writes, without its newline.
    /// - Throws: when it closes its output first, or writes no line within `timeout`.
    public func line(timeout: TimeInterval = 30) async throws -> String {
        try await onOwnThread { [self] in
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let line = lock.withLock({ () -> String? in
                    guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                    defer { buffer.removeSubrange(...end) }
                    return String(decoding: buffer[..<end], as: UTF8.self)
                }) {
                    return line
                }
                guard Date() < deadline else { throw ChildProcessError("no line from the child within \(timeout) s") }
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw ChildProcessError("the child closed its output") }
                lock.withLock { buffer.append(chunk) }
            }
        }
    }

    /// Everything it writes from now until it ends.
    public func remainingOutput() async throws -> String {
        try await onOwnThread { [self] in
            let rest = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: lock.withLock { buffer } + rest, as: UTF8.self)
        }
    }

    /// Kills it with SIGKILL, as the system kills an app.
    public func sigkill() {
        kill(process.processIdentifier, SIGKILL)
    }

    /// Its exit status once it ended (the signal's number when a signal ended it).
    public func exitStatus() async -> Int32 {
        (try? await onOwnThread { [process] in
            process.waitUntilExit()
            return process.terminationStatus
        }) ?? -1
    }
}

/// Why ``ChildProcess/line(timeout:)`` returned no line.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
