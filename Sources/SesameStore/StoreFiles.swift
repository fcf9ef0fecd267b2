import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owner-only files and directories: directories 0700, database files 0600, created with
/// those modes (not widened then narrowed) so no other user can ever open them.
enum StoreFiles {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600
    /// The files SQLite keeps beside a database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Creates `url` and its missing parents with mode 0700. With `restrictExisting`, also
    /// sets 0700 on `url` when it exists already (a directory Sesame owns); parents that
    /// exist are never changed (they are the app's).
    static func makeDirectory(_ url: URL, restrictExisting: Bool) throws {
        let path = url.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.fileSystem(path: path, reason: "a file is in the way of the directory")
            }
            if restrictExisting { try setMode(directoryMode, path: path) }
            return
        }
        try makeDirectory(url.deletingLastPathComponent(), restrictExisting: false)
        if mkdir(path, directoryMode) != 0, errno != EEXIST {
            throw StoreError.fileSystem(path: path, reason: "cannot create the directory (\(String(cString: strerror(errno))))")
        }
        // mkdir applies the umask: set the mode exactly.
        try setMode(directoryMode, path: path)
    }

    /// Creates an empty file with mode 0600 if there is none, and sets 0600 on the file and
    /// on its SQLite companions if they exist.
    static func prepareDatabaseFile(_ url: URL) throws {
        let path = url.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            throw StoreError.fileSystem(path: path, reason: "cannot create the file (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        if fchmod(descriptor, fileMode) != 0 {
            throw StoreError.fileSystem(path: path, reason: "cannot make the file owner-only (\(String(cString: strerror(errno))))")
        }
        try restrictCompanions(of: url)
    }

    /// Sets 0600 on an existing database file, without opening it (its companions are the
    /// caller's: see `restrictCompanions(of:)`).
    static func restrictDatabaseFile(_ url: URL) throws {
        try setMode(fileMode, path: url.path)
    }

    /// Sets 0600 on the `-wal`, `-shm` and `-journal` files that exist (SQLite gives them
    /// the database's mode, but an older build may have created them differently).
    static func restrictCompanions(of url: URL) throws {
        for suffix in companionSuffixes {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) { try setMode(fileMode, path: path) }
        }
    }

    /// Deletes a database and its companions; missing files are fine.
    static func deleteDatabase(_ url: URL) throws {
        for path in [url.path] + companionSuffixes.map({ url.path + $0 }) {
            if unlink(path) != 0, errno != ENOENT {
                throw StoreError.fileSystem(path: path, reason: "cannot delete (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Deletes a directory and everything in it (a signed-out user's context); a missing
    /// directory is fine.
    static func deleteDirectory(_ url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw StoreError.fileSystem(path: url.path, reason: "cannot delete (\(type(of: error)))")
        }
    }

    private static func setMode(_ mode: mode_t, path: String) throws {
        if chmod(path, mode) != 0 {
            throw StoreError.fileSystem(path: path, reason: "cannot set owner-only permissions (\(String(cString: strerror(errno))))")
        }
    }
}
