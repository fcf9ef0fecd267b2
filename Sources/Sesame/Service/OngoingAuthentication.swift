/// The multi-step authentication under way: which method, which step comes next and what
/// the app must supply for it. It never holds a secret (no argument, no value, no response).
public struct OngoingAuthentication: Sendable, Hashable, CustomStringConvertible {
    /// The method's name in the schema, such as `internal`.
    public var methodName: String
    /// The next step's name, such as `continue`.
    public var nextStep: String
    /// The values the app must supply to run it (`continueAuthentication(with:)`).
    public var needs: [String]
    /// What the running step asks the app to show the user while it waits (one of
    /// ``AuthenticationPrompt``'s cases). Nil when the step shows nothing, and before it has
    /// anything to show.
    public var prompt: AuthenticationPrompt?

    /// Creates a description of an ongoing authentication.
    /// - Parameters:
    ///   - methodName: the method's name in the schema.
    ///   - nextStep: the next step's name.
    ///   - needs: the values the app must supply to run it.
    ///   - prompt: what the running step asks the app to show; nil for none.
    public init(methodName: String, nextStep: String, needs: [String], prompt: AuthenticationPrompt? = nil) {
        self.methodName = methodName
        self.nextStep = nextStep
        self.needs = needs
        self.prompt = prompt
    }

    /// `internal → continue (needs: code)`; a prompt adds what it says, never a code.
    public var description: String {
        "\(methodName) → \(nextStep)" + (needs.isEmpty ? "" : " (needs: \(needs.joined(separator: ", ")))")
            + (prompt.map { " (\($0))" } ?? "")
    }
}

/// Where an authentication method stands after a call that ran some of its steps.
public enum AuthenticationProgress<Details: Codable & Hashable & Sendable>: Sendable, Hashable {
    /// The method ran to the end: the user is signed in with these details.
    case authenticated(Details)
    /// The method stopped before a step that needs values from the app.
    case needsInput(OngoingAuthentication)
}
