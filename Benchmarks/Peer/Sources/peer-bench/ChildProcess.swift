import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one child process cost: wall time, and from `wait4` the CPU time and peak resident
/// memory of the child and of every descendant it waited for (the compiler jobs of a
/// `swift build`). Peak memory is the largest single process's, not a sum.
struct Usage {
    var wall: Double
    var user: Double
    var system: Double
    var peakMB: Double
    var status: Int32

    var cpu: Double { user + system }
}

enum ChildProcess {
    /// Runs `arguments` (the first found on PATH when it has no `/`), its standard output and
    /// error appended to `log`, and returns what it cost.
    static func run(_ arguments: [String], log: String) throws -> Usage {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw Failure("wait4 failed for \(arguments[0])") }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        // Linux reports ru_maxrss in kilobytes.
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Usage(
            wall: wall, user: seconds(usage.ru_utime), system: seconds(usage.ru_stime), peakMB: Double(usage.ru_maxrss) / 1024,
            status: exit)
    }

    /// `run`, failing unless the child exits 0.
    static func check(_ arguments: [String], log: String) throws -> Usage {
        let usage = try run(arguments, log: log)
        guard usage.status == 0 else {
            throw Failure("`\(arguments.joined(separator: " "))` exited \(usage.status); see \(log)")
        }
        return usage
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The one-minute load average, noted beside every figure (the machine is shared).
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).map { String($0.split(separator: " ").first ?? "?") } ?? "?"
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
