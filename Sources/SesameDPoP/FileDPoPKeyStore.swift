#if !os(Windows)
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A ``DPoPKeyStore`` that keeps the key in one file, as a PKCS #8 PEM document, readable
/// and writable by its owner only.
///
/// - ``save(_:)`` writes a temporary file in the same directory, created with mode `0600`
///   (so that it never exists with wider permissions) and with `O_EXCL`, flushes it, then
///   renames it over the path: a reader sees the old key or the new, never part of one.
/// - Processes may share the file (an app and its extensions, each signing with the session's
///   key): ``loadOrSave(_:)``, ``save(_:)`` and the deletions hold an exclusive `flock` on a
///   lock file beside the key (`.<name>.lock`, mode `0600`), so that one process creates the
///   key and the others load it, and a sign-out deletes only the key it signed with. The
///   lock is held for one read and at most one write; ``load()`` takes none.
/// - A symbolic link at the path is refused by every operation
///   (``DPoPKeyStoreError/symbolicLink``), never followed; so is anything but a regular file.
/// - ``load()`` refuses a file that others may read or write (mode wider than `0600`) or
///   that belongs to another user, before it reads a byte; a file that is not a key, or is
///   larger than ``maximumFileSize``, is ``DPoPKeyStoreError/malformedKey``. A missing file
///   is no key.
///
/// The directory must exist; the store does not create it. POSIX platforms only.
public struct FileDPoPKeyStore: DPoPKeyStore {
    /// The file's URL.
    public let url: URL

    /// The largest file ``load()`` reads, in bytes; a P-256 key's PEM is about 240.
    public static let maximumFileSize = 4096

    /// A store that keeps the key at `url`, a file URL (a programmer's mistake otherwise).
    public init(url: URL) {
        precondition(url.isFileURL, "FileDPoPKeyStore needs a file URL, not \(url)")
        self.url = url
    }

    /// The key in the file, or nil when there is no file.
    /// - Throws: ``DPoPKeyStoreError``: the path is a symbolic link or not a regular file,
    ///   the file's permissions are wider than `0600` or another user owns it, it is not a
    ///   key, or a system call failed.
    public func load() throws(DPoPKeyStoreError) -> DPoPKey? {
        // O_NOFOLLOW: a symbolic link fails with ELOOP; O_NONBLOCK: a FIFO does not block.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            let error = errno
            switch error {
            case ENOENT: return nil
            case ELOOP: throw .symbolicLink
            default: throw .systemCallFailed("open", errno: error)
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .systemCallFailed("fstat", errno: errno) }
        try Self.checkOwnedRegularFile(status)
        let mode = UInt32(status.st_mode) & 0o7777
        guard mode & 0o7177 == 0 else { throw .permissionsTooWide(mode: mode) }

        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while contents.count <= Self.maximumFileSize {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .systemCallFailed("read", errno: errno)
            }
            if count == 0 { break }
            contents += buffer[0..<count]
        }
        guard contents.count <= Self.maximumFileSize else { throw .malformedKey }
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try DPoPKey(pemRepresentation: text)
        } catch {
            throw .malformedKey
        }
    }

    /// Writes `key` to the file, replacing it atomically (see the type's documentation).
    /// - Throws: ``DPoPKeyStoreError``: the path is a symbolic link, not a regular file or
    ///   another user's file, or a system call failed (the directory is missing or not
    ///   writable, the disk is full). The file before stays as it was; the temporary file
    ///   is removed.
    public func save(_ key: DPoPKey) throws(DPoPKeyStoreError) {
        try withLock { () throws(DPoPKeyStoreError) in try writeKey(key) }
    }

    /// The key in the file; when there is none, `create()`'s, written. Under the lock file's
    /// `flock`: of processes asking at once, one creates the key and the others load it.
    /// - Throws: ``DPoPKeyStoreError``, as ``load()`` and ``save(_:)`` do; the lock file is
    ///   a symbolic link, or cannot be opened or locked.
    public func loadOrSave(_ create: @Sendable () -> DPoPKey) throws(DPoPKeyStoreError) -> DPoPKey {
        try withLock { () throws(DPoPKeyStoreError) in
            if let key = try load() { return key }
            let key = create()
            try writeKey(key)
            return key
        }
    }

    /// Removes the file if it still holds `key`, under the lock file's `flock`: a key another
    /// process wrote since stays.
    /// - Throws: ``DPoPKeyStoreError``, as ``load()`` and ``delete()`` do.
    public func delete(ifStill key: DPoPKey) throws(DPoPKeyStoreError) {
        try withLock { () throws(DPoPKeyStoreError) in
            guard try load() == key else { return }
            try remove()
        }
    }

    private func writeKey(_ key: DPoPKey) throws(DPoPKeyStoreError) {
        if let status = try existing() {
            try Self.checkOwnedRegularFile(status)
        }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .systemCallFailed("open", errno: errno) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            // The umask can only narrow 0600; fchmod makes it exactly 0600 all the same.
            guard fchmod(descriptor, 0o600) == 0 else { throw DPoPKeyStoreError.systemCallFailed("fchmod", errno: errno) }
            try Self.writeAll(Array((key.pemRepresentation + "\n").utf8), to: descriptor)
            guard fsync(descriptor) == 0 else { throw DPoPKeyStoreError.systemCallFailed("fsync", errno: errno) }
        }
        // rename(2) replaces the path itself: had a link appeared there since, it would be
        // replaced, not followed.
        guard rename(temporary, path) == 0 else { throw .systemCallFailed("rename", errno: errno) }
        renamed = true
        // The rename is durable once the directory is flushed; the key is saved either way.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Removes the file; nothing happens when there is none.
    /// - Throws: ``DPoPKeyStoreError``: the path is a symbolic link (left in place) or not a
    ///   regular file, or `unlink` failed.
    public func delete() throws(DPoPKeyStoreError) {
        try withLock { () throws(DPoPKeyStoreError) in try remove() }
    }

    private func remove() throws(DPoPKeyStoreError) {
        guard let status = try existing() else { return }
        try Self.checkRegularFile(status)
        guard unlink(path) == 0 || errno == ENOENT else { throw .systemCallFailed("unlink", errno: errno) }
    }

    private var path: String { url.path }

    /// Runs `body` holding an exclusive `flock` on `.<name>.lock` beside the key. Closing the
    /// descriptor releases it, and the kernel does when the process ends, even killed.
    private func withLock<T>(_ body: () throws(DPoPKeyStoreError) -> T) throws(DPoPKeyStoreError) -> T {
        let lockPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let error = errno
            throw error == ELOOP ? .symbolicLink : .systemCallFailed("open", errno: error)
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            let error = errno
            guard error == EINTR else { throw .systemCallFailed("flock", errno: error) }
        }
        return try body()
    }

    /// The path's own status (a link's, not its target's), or nil when nothing is there.
    private func existing() throws(DPoPKeyStoreError) -> stat? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw .systemCallFailed("lstat", errno: error)
        }
        return status
    }

    private static func checkRegularFile(_ status: stat) throws(DPoPKeyStoreError) {
        switch UInt32(status.st_mode) & 0o170000 {
        case 0o100000: return
        case 0o120000: throw .symbolicLink
        default: throw .notARegularFile
        }
    }

    private static func checkOwnedRegularFile(_ status: stat) throws(DPoPKeyStoreError) {
        try checkRegularFile(status)
        guard status.st_uid == geteuid() else { throw .ownedByAnotherUser(owner: UInt32(status.st_uid)) }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(DPoPKeyStoreError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .systemCallFailed("write", errno: errno)
            }
            offset += count
        }
    }
}
#endif
