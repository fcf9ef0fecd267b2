@_spi(Generated) import SesameDescription

/// An authentication method with the arguments the app chose. Generated SDKs declare one
/// enum of single-step methods and one of multi-step methods, whose descriptions never
/// show a secret argument.
public protocol AuthenticationMethod: Sendable, CustomStringConvertible {
    /// The method as the schema declares it.
    @_spi(Generated) var methodDescription: AuthenticationMethodDescription { get }
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
