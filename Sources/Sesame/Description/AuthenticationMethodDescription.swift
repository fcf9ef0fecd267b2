/// One step of an authentication method: a request whose body is built from the method's
/// arguments, the values the app supplies before this step, and earlier steps' responses.
public struct AuthenticationStepDescription: Sendable, Hashable {
    /// The step's name, used in `{step.field}` placeholders and by `continueAuthentication`.
    public var name: String
    public var request: RequestDescription
    public var body: [TemplateField]
    /// The values the app must supply before this step runs.
    public var needs: [String]

    public init(name: String, request: RequestDescription, body: [TemplateField], needs: [String] = []) {
        self.name = name
        self.request = request
        self.body = body
        self.needs = needs
    }
}

/// An authentication method: one step (single-step) or several, the last of which returns
/// the token response.
public struct AuthenticationMethodDescription: Sendable, Hashable {
    public var name: String
    public var steps: [AuthenticationStepDescription]

    public init(name: String, steps: [AuthenticationStepDescription]) {
        self.name = name
        self.steps = steps
    }

    /// Whether the app must supply values between steps.
    public var isMultiStep: Bool { steps.count > 1 }

    /// The fields of step `name`'s response that the body templates of the steps after it
    /// read (`{initialize.challengeId}` gives `["challengeId"]`), in order, without repeats.
    func fieldPaths(readFrom name: String) -> [[String]] {
        var paths: [[String]] = []
        for step in steps.drop(while: { $0.name != name }).dropFirst() {
            for field in step.body {
                let variables: [[String]] =
                    switch field.value {
                    case .literal: []
                    case .variable(let path): [path]
                    case .interpolation(let parts): parts.compactMap { if case .variable(let path) = $0 { path } else { nil } }
                    }
                for path in variables where path.count > 1 && path[0] == name && !paths.contains(Array(path.dropFirst())) {
                    paths.append(Array(path.dropFirst()))
                }
            }
        }
        return paths
    }
}

/// An authentication method with the arguments the app chose. Generated SDKs declare one
/// enum of single-step methods and one of multi-step methods, whose descriptions never
/// show a secret argument.
public protocol AuthenticationMethod: Sendable, CustomStringConvertible {
    /// The method as the schema declares it.
    var methodDescription: AuthenticationMethodDescription { get }
    /// The method's parameters by name, as JSON values.
    var arguments: [String: JSONValue] { get }
    /// Checks the arguments against their schemas before anything is sent.
    /// - Throws: ``SchemaViolation`` naming the argument that breaks its schema.
    func validate() throws
}

extension AuthenticationMethod {
    /// Methods with nothing to check accept any arguments.
    public func validate() throws {}
}

/// A method that runs to the end without input from the app between steps.
public protocol SingleStepAuthenticationMethod: AuthenticationMethod {}

/// A method that stops between steps for values the app supplies
/// (`continueAuthentication(with:)`).
public protocol MultiStepAuthenticationMethod: AuthenticationMethod {}

/// The values the app supplies to run the next step of a multi-step method.
public protocol AuthenticationContinuation: Sendable, CustomStringConvertible {
    /// The method this continuation belongs to.
    var methodName: String { get }
    /// The step it runs.
    var stepName: String { get }
    /// The step's `needs`, by name.
    var values: [String: JSONValue] { get }
    /// Checks the values against their schemas before anything is sent.
    /// - Throws: ``SchemaViolation`` naming the value that breaks its schema.
    func validate() throws
}

extension AuthenticationContinuation {
    /// Continuations with nothing to check accept any values.
    public func validate() throws {}
}
