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

/// A ``PasskeyCredentialStore`` that keeps every credential in one JSON file, readable and
/// writable by its owner only.
///
/// - Every save writes a temporary file in the same directory, created `0600` with `O_EXCL`,
///   flushes it and renames it over the path: a reader sees the credentials before or after,
///   never part of them.
/// - A symbolic link at the path is never followed (``PasskeyError/storeFailed(reason:)``),
///   nor is anything but a regular file owned by the process's user; a file that others may
///   read or write is refused before a byte is read.
/// - A file larger than ``maximumFileSize`` or that is not the store's JSON is refused.
///   A missing file is an empty store.
///
/// One store value per file: the actor serializes its own reads and writes, not another
/// process's. The directory must exist. POSIX platforms only.
public actor FilePasskeyCredentialStore: PasskeyCredentialStore {
    /// The file's URL.
    public let url: URL

    /// The largest file the store reads, in bytes (a credential takes about 300).
    public static let maximumFileSize = 1 << 20

    /// A store at `url`, a file URL (a programmer's mistake otherwise).
    public init(url: URL) {
        precondition(url.isFileURL, "FilePasskeyCredentialStore needs a file URL, not \(url)")
        self.url = url
    }

    public func credentials(rpID: String) throws -> [PasskeyCredential] {
        try load().filter { $0.rpID == rpID }
    }

    public func save(_ credential: PasskeyCredential) throws {
        var stored = try load()
        if let index = stored.firstIndex(where: { $0.id == credential.id }) {
            stored[index] = credential
        } else {
            stored.append(credential)
        }
        try write(stored)
    }

    public func remove(id: Data) throws {
        var stored = try load()
        let count = stored.count
        stored.removeAll { $0.id == id }
        if stored.count != count { try write(stored) }
    }

    private var path: String { url.path }

    private func load() throws -> [PasskeyCredential] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            let error = errno
            if error == ENOENT { return [] }
            throw PasskeyError.storeFailed(reason: error == ELOOP ? "the path is a symbolic link" : "open failed (errno \(error))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw PasskeyError.storeFailed(reason: "fstat failed (errno \(errno))") }
        try Self.checkOwnedRegularFile(status)
        guard UInt32(status.st_mode) & 0o7177 == 0 else {
            throw PasskeyError.storeFailed(reason: "the file may be read or written by others")
        }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while contents.count <= Self.maximumFileSize {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PasskeyError.storeFailed(reason: "read failed (errno \(errno))")
            }
            if count == 0 { break }
            contents += buffer[0..<count]
        }
        guard contents.count <= Self.maximumFileSize else { throw PasskeyError.storeFailed(reason: "the file is too large") }
        guard !contents.isEmpty else { return [] }
        do {
            return try JSONDecoder().decode([PasskeyCredential].self, from: Data(contents))
        } catch {
            throw PasskeyError.storeFailed(reason: "the file is not a passkey store")
        }
    }

    private func write(_ credentials: [PasskeyCredential]) throws {
        var status = stat()
        if lstat(path, &status) == 0 {
            try Self.checkOwnedRegularFile(status)
        } else if errno != ENOENT {
            throw PasskeyError.storeFailed(reason: "lstat failed (errno \(errno))")
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(credentials))
        } catch {
            throw PasskeyError.storeFailed(reason: "the credentials cannot be encoded")
        }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PasskeyError.storeFailed(reason: "open failed (errno \(errno))") }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw PasskeyError.storeFailed(reason: "fchmod failed (errno \(errno))") }
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw PasskeyError.storeFailed(reason: "write failed (errno \(errno))")
                }
                offset += count
            }
            guard fsync(descriptor) == 0 else { throw PasskeyError.storeFailed(reason: "fsync failed (errno \(errno))") }
        }
        guard rename(temporary, path) == 0 else { throw PasskeyError.storeFailed(reason: "rename failed (errno \(errno))") }
        renamed = true
    }

    private static func checkOwnedRegularFile(_ status: stat) throws {
        switch UInt32(status.st_mode) & 0o170000 {
        case 0o100000: break
        case 0o120000: throw PasskeyError.storeFailed(reason: "the path is a symbolic link")
        default: throw PasskeyError.storeFailed(reason: "the path is not a regular file")
        }
        guard status.st_uid == geteuid() else { throw PasskeyError.storeFailed(reason: "the file belongs to another user") }
    }
}

/// `write(2)`, named apart from the actor's own `write(_:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
#endif
