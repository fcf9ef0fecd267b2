import Foundation

/// Which mappings of the grammar the translators reached and which keys they looked up,
/// recorded while a test translates schemas inside `GrammarLog.$current.withValue(_:)`.
/// Outside such a test nothing is recorded.
final class GrammarLog: @unchecked Sendable {
    @TaskLocal static var current: GrammarLog?

    private let lock = NSLock()
    private var reachedNames: Set<String> = []
    private var readKeys: [String: Set<String>] = [:]
    private var undeclaredKeys: [String: Set<String>] = [:]

    init() {}

    func reached(_ mapping: String) {
        lock.withLock { _ = reachedNames.insert(mapping) }
    }

    func read(_ key: String, of mapping: GrammarMapping) {
        let declared = mapping.key(key) != nil
        lock.withLock {
            if declared {
                readKeys[mapping.name, default: []].insert(key)
            } else {
                undeclaredKeys[mapping.name, default: []].insert(key)
            }
        }
    }

    /// The mappings read through the grammar.
    var reachedMappings: Set<String> { lock.withLock { reachedNames } }
    /// The declared keys looked up, by mapping name.
    var keysRead: [String: Set<String>] { lock.withLock { readKeys } }
    /// Keys looked up that the mapping does not declare, by mapping name.
    var undeclaredKeysRead: [String: Set<String>] { lock.withLock { undeclaredKeys } }
}
