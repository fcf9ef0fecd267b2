/// A reference to an operation of auth.yaml, from sdk.yaml's credential (`details`) and
/// lifecycle (`signOut`, `detachIdentity`, `destroyAccount`). The translator of sdk.yaml
/// makes it from the name it reads; the naming pass gives it the operation's Swift name.
struct OperationRef: Sendable, Hashable, Codable {
    /// The operation's name in auth.yaml (`me`).
    var name: String
    /// The operation's Swift name (`Requests.me`); set by the naming pass, empty before.
    var swiftName: String

    init(name: String, swiftName: String = "") {
        self.name = name
        self.swiftName = swiftName
    }
}
