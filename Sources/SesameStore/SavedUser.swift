import Foundation

/// The user whose context was current when the app last ran, as the standard context saves
/// it: the next launch restores that context (in `presession`).
public struct SavedUser: Sendable, Hashable, Codable {
    /// The user's identifier, as the back-end names them.
    public var id: String
    /// When their context was started.
    public var startedAt: Date

    public init(id: String, startedAt: Date) {
        self.id = id
        self.startedAt = startedAt
    }
}
