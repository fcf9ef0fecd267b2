/// A value of the runtime's descriptions with where the schema wrote it: what the IR adds
/// to a description that has nothing else of the generator's.
struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    var value: Value
    var location: SourceLocation

    init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
