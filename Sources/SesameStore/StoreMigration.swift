import GRDB

/// One migration of a store schema: an identifier that never changes once shipped
/// (`persistence.v2`), the version the database is at once it ran, and its body.
///
/// The body talks raw SQL to the database (never app types), so that it stays valid
/// forever. The runner runs it in one transaction with the version update, so a database
/// is always at the old version or the new one, never in between.
public struct StoreMigration: Sendable {
    public let identifier: String
    public let version: Int
    public let body: @Sendable (Database) throws -> Void

    /// Declares a migration; the generated `Migrations.swift` calls this.
    public init(_ identifier: String, version: Int, _ body: @escaping @Sendable (Database) throws -> Void) {
        self.identifier = identifier
        self.version = version
        self.body = body
    }
}
