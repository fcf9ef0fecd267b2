/// Why a ``FileDPoPKeyStore`` refused or failed. No case carries the key or the file's
/// contents.
public enum DPoPKeyStoreError: Error, Sendable, Hashable {
    /// A symbolic link is at the store's path; the store does not follow it.
    case symbolicLink
    /// Something other than a regular file (a directory, a FIFO, a device) is at the path.
    case notARegularFile
    /// The file can be read or written by others than its owner: its permission bits
    /// (`mode`, e.g. `0o644`) are wider than `0o600`.
    case permissionsTooWide(mode: UInt32)
    /// The file belongs to another user (`owner`, its user id) than the process's.
    case ownedByAnotherUser(owner: UInt32)
    /// The file is not a PEM P-256 private key, or is larger than
    /// ``FileDPoPKeyStore/maximumFileSize`` bytes.
    case malformedKey
    /// A system call failed: its name (`open`, `rename`, …) and `errno`.
    case systemCallFailed(String, errno: Int32)
}
