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
///
/// Nothing Sesame owns is reached through a symbolic link: a database file, a companion
/// (`-wal`, `-shm`, `-journal`) or a directory Sesame owns (a user's, the contexts') that is
/// a link fails with ``StoreError/fileSystem(path:reason:)`` before anything is created,
/// opened or given a mode, so nothing outside the store changes. Files are created with
/// `O_NOFOLLOW` and modes set on an open descriptor (`fchmod`), never by path. The parents
/// of those directories are the app's and may be links (`/var` is one on Apple platforms).
enum StoreFiles {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600
    /// The files SQLite keeps beside a database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Creates `url` and its missing parents with mode 0700. With `restrictExisting`, also
    /// sets 0700 on `url` when it exists already (a directory Sesame owns); parents that
    /// exist are never changed (they are the app's).
    /// - Throws: ``StoreError/fileSystem(path:reason:)`` when `url` is a symbolic link and
    ///   `restrictExisting` says Sesame owns it, or a file is in the way.
    static func makeDirectory(_ url: URL, restrictExisting: Bool) throws {
        let path = url.path
        switch kind(of: path) {
        case .link where restrictExisting:
            throw symbolicLink(path)
        case .link, .directory:
            // An existing parent is the app's, link or not; a directory Sesame owns is not a link.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw StoreError.fileSystem(path: path, reason: "a file is in the way of the directory")
            }
            if restrictExisting { try setDirectoryMode(path) }
            return
        case .other:
            throw StoreError.fileSystem(path: path, reason: "a file is in the way of the directory")
        case .missing:
            break
        }
        try makeDirectory(url.deletingLastPathComponent(), restrictExisting: false)
        if mkdir(path, directoryMode) != 0, errno != EEXIST {
            throw StoreError.fileSystem(path: path, reason: "cannot create the directory (\(String(cString: strerror(errno))))")
        }
        // mkdir applies the umask: set the mode exactly.
        try setDirectoryMode(path)
    }

    /// Creates an empty file with mode 0600 if there is none, and sets 0600 on the file and
    /// on its SQLite companions if they exist.
    /// - Throws: ``StoreError/fileSystem(path:reason:)`` when the file or a companion is a
    ///   symbolic link (nothing is created at its target).
    static func prepareDatabaseFile(_ url: URL) throws {
        let path = url.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            if errno == ELOOP || kind(of: path) == .link { throw symbolicLink(path) }
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
    /// - Throws: ``StoreError/fileSystem(path:reason:)`` when it is a symbolic link.
    static func restrictDatabaseFile(_ url: URL) throws {
        try setFileMode(url.path)
    }

    /// Whether something is at `url`, a symbolic link included (a dangling one too), where
    /// `FileManager.fileExists` follows links.
    static func exists(_ url: URL) -> Bool {
        kind(of: url.path) != .missing
    }

    /// Sets 0600 on the `-wal`, `-shm` and `-journal` files that exist (SQLite gives them
    /// the database's mode, but an older build may have created them differently).
    /// - Throws: ``StoreError/fileSystem(path:reason:)`` when one is a symbolic link.
    static func restrictCompanions(of url: URL) throws {
        for suffix in companionSuffixes {
            let path = url.path + suffix
            if kind(of: path) != .missing { try setFileMode(path) }
        }
    }

    /// Throws when a `-wal`, `-shm` or `-journal` file is a symbolic link, looking with
    /// `lstat` only: safe while the database is open (it opens no descriptor).
    /// - Throws: ``StoreError/fileSystem(path:reason:)`` naming the link.
    static func refuseLinkedCompanions(of url: URL) throws {
        for suffix in companionSuffixes where kind(of: url.path + suffix) == .link {
            throw symbolicLink(url.path + suffix)
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

    enum Kind: Equatable { case missing, link, directory, other }

    /// What is at `path`, without following a link there.
    static func kind(of path: String) -> Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    private static func symbolicLink(_ path: String) -> StoreError {
        .fileSystem(path: path, reason: "is a symbolic link; the store follows none (nothing was changed)")
    }

    /// Sets 0600 on a file through a descriptor opened without following a link.
    private static func setFileMode(_ path: String) throws {
        try setMode(fileMode, path: path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    }

    /// Sets 0700 on a directory through a descriptor opened without following a link.
    private static func setDirectoryMode(_ path: String) throws {
        try setMode(directoryMode, path: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }

    private static func setMode(_ mode: mode_t, path: String, flags: Int32) throws {
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            let code = errno
            let found = kind(of: path)
            if code == ELOOP || found == .link { throw symbolicLink(path) }
            // Not readable by its owner (mode 0200, say): set the mode by path, having
            // just seen that it is no link.
            if code == EACCES, found != .missing, chmod(path, mode) == 0 { return }
            throw StoreError.fileSystem(
                path: path, reason: "cannot open to set owner-only permissions (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        if fchmod(descriptor, mode) != 0 {
            throw StoreError.fileSystem(path: path, reason: "cannot set owner-only permissions (\(String(cString: strerror(errno))))")
        }
    }
}
