/// The multi-step authentication under way: which method, which step comes next and what
/// the app must supply for it. It never holds a secret (no argument, no value, no response).
public struct OngoingAuthentication: Sendable, Hashable, CustomStringConvertible {
    /// The method's name in the schema, such as `internal`.
    public var methodName: String
    /// The next step's name, such as `continue`.
    public var nextStep: String
    /// The values the app must supply to run it (`continueAuthentication(with:)`).
    public var needs: [String]

    /// Creates a description of an ongoing authentication.
    public init(methodName: String, nextStep: String, needs: [String]) {
        self.methodName = methodName
        self.nextStep = nextStep
        self.needs = needs
    }

    /// `internal → continue (needs: code)`.
    public var description: String {
        "\(methodName) → \(nextStep)" + (needs.isEmpty ? "" : " (needs: \(needs.joined(separator: ", ")))")
    }
}

/// Where an authentication method stands after a call that ran some of its steps.
public enum AuthenticationProgress<Details: Codable & Hashable & Sendable>: Sendable, Hashable {
    /// The method ran to the end: the user is signed in with these details.
    case authenticated(Details)
    /// The method stopped before a step that needs values from the app.
    case needsInput(OngoingAuthentication)
}
