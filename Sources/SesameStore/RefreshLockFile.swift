import Foundation
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The refresh lock of a ``SharedSQLiteSessionStore``: an exclusive `flock` on a file of its
/// own beside `sesame.sqlite`, which the kernel releases when the descriptor closes, so also
/// when the process that holds it dies. The file is opened with `O_NOFOLLOW` (a link planted
/// in its place is refused) and created owner-only.
final class RefreshLockFile: RefreshLock {
    static let fileName = "sesame.refresh-lock"
    private let descriptor = Locked<Int32?>(nil)

    private init(descriptor: Int32) {
        self.descriptor.withLock { $0 = descriptor }
    }

    /// Waits until the lock at `path` is this process's: tries without blocking, then again
    /// after 1 ms, doubling to 20 ms between tries, until `timeout`.
    /// - Throws: `CancellationError` when the task is cancelled; `StoreError.fileSystem` when
    ///   the file cannot be opened or the lock was not free within `timeout`.
    static func acquire(at path: String, timeout: Duration) async throws -> RefreshLockFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, StoreFiles.fileMode)
        guard descriptor >= 0 else {
            let code = errno
            var status = stat()
            if code == ELOOP || (lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK) {
                throw StoreError.fileSystem(
                    path: path,
                    reason: "the refresh lock is a symbolic link, which is refused: a link in the shared session directory "
                        + "could point the lock at any file; remove it")
            }
            throw StoreError.fileSystem(path: path, reason: "cannot open the refresh lock: \(String(cString: strerror(code)))")
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw StoreError.fileSystem(path: path, reason: "cannot take the refresh lock: \(String(cString: strerror(code)))")
            }
            guard clock.now < deadline else {
                close(descriptor)
                throw StoreError.fileSystem(path: path, reason: "another process held the refresh lock for over \(timeout)")
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                close(descriptor)
                throw error
            }
            pause = min(pause * 2, .milliseconds(20))
        }
        return RefreshLockFile(descriptor: descriptor)
    }

    func release() {
        guard
            let descriptor = descriptor.withLock({ value -> Int32? in
                defer { value = nil }
                return value
            })
        else { return }
        // Closing the last descriptor of the open file releases the lock.
        close(descriptor)
    }

    deinit {
        release()
    }
}
