/// The multi-step authentication under way: which method, which step comes next and what
/// the app must supply for it. It never holds a secret (no argument, no value, no response).
public struct OngoingAuthentication: Sendable, Hashable, CustomStringConvertible {
    /// The method's name in the schema, such as `internal`.
    public var methodName: String
    /// The next step's name, such as `continue`.
    public var nextStep: String
    /// The values the app must supply to run it (`continueAuthentication(with:)`).
    public var needs: [String]
    /// What to show the user while a device step (RFC 8628) waits for them to sign in on
    /// another device: the user code and where to enter it. Nil for any other step, and
    /// before the device authorization endpoint answered.
    public var deviceAuthorization: DeviceAuthorizationPrompt?

    /// Creates a description of an ongoing authentication.
    public init(methodName: String, nextStep: String, needs: [String], deviceAuthorization: DeviceAuthorizationPrompt? = nil) {
        self.methodName = methodName
        self.nextStep = nextStep
        self.needs = needs
        self.deviceAuthorization = deviceAuthorization
    }

    /// `internal → continue (needs: code)`; a device step adds where the user signs in, never the code.
    public var description: String {
        "\(methodName) → \(nextStep)" + (needs.isEmpty ? "" : " (needs: \(needs.joined(separator: ", ")))")
            + (deviceAuthorization.map { " (waiting for the user at \($0.verificationURI.absoluteString))" } ?? "")
    }
}

/// Where an authentication method stands after a call that ran some of its steps.
public enum AuthenticationProgress<Details: Codable & Hashable & Sendable>: Sendable, Hashable {
    /// The method ran to the end: the user is signed in with these details.
    case authenticated(Details)
    /// The method stopped before a step that needs values from the app.
    case needsInput(OngoingAuthentication)
}
