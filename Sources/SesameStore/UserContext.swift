import Foundation

/// One signed-in user's context: their three databases in `<root>/users/<id>/`. Closed
/// when the user signs out or another user's context starts; a closed context's databases
/// throw on every access, so a view that kept it can never read or write another user's
/// data by mistake.
public final class UserContext: Sendable {
    /// The user's identifier.
    public let userID: String
    /// The user's databases.
    public let stores: ContextStores

    init(userID: String, directory: URL, definition: StoreDefinition) throws {
        self.userID = userID
        stores = try ContextStores(directory: directory, definition: definition)
    }

    /// The directory of a user's context under `root`: `users/u-<hex of the id's UTF-8>`,
    /// a name no identifier can turn into a path outside it, and distinct for distinct ids.
    /// - Throws: `StoreError.invalidUserID` for an empty id or one over 100 bytes.
    public static func directory(for userID: String, root: URL) throws -> URL {
        let bytes = Array(userID.utf8)
        guard !bytes.isEmpty, bytes.count <= 100 else { throw StoreError.invalidUserID }
        let hex = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
        return root.appendingPathComponent("users", isDirectory: true).appendingPathComponent("u-" + hex, isDirectory: true)
    }

    /// Closes the databases. Closing twice does nothing more.
    public func close() throws {
        try stores.close()
    }
}
