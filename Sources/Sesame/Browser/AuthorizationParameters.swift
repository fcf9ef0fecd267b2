import Foundation

/// What the app asks of the authorization server for one browser sign-in, sent on its
/// authorization request (OpenID Connect Core §3.1.2.1): the authentication context classes
/// (`acr_values`), the largest age of the user's authentication (`max_age`), whether to
/// show the login or consent page (`prompt`), and who is expected to sign in (`login_hint`).
///
/// Pass it to ``AuthenticationService/authenticate(with:authorization:context:)``; after a
/// ``SesameError/stepUpRequired(operation:challenge:)``, ``init(stepUp:prompt:loginHint:)``
/// asks for what the resource server named. The values take the place of parameters of the
/// same names that the schema's browser step declares, so none is sent twice. Its
/// description and its mirror (`dump`, debuggers) leave out the login hint (an e-mail address, often).
public struct AuthorizationParameters: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// A value of `prompt` (OpenID Connect Core §3.1.2.1; `create` from Initiating User
    /// Registration 1.0). Other values the server supports can be made from their name.
    public struct Prompt: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        /// Makes a prompt value from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// No page at all: the server answers `login_required` or `consent_required` instead.
        public static let none = Prompt(rawValue: "none")
        /// The login page even when the user has a session there.
        public static let login = Prompt(rawValue: "login")
        /// The consent page even when the user consented before.
        public static let consent = Prompt(rawValue: "consent")
        /// The account chooser.
        public static let selectAccount = Prompt(rawValue: "select_account")
        /// The registration page.
        public static let create = Prompt(rawValue: "create")
    }

    /// The authentication context class references to ask for, in order of preference.
    public var acrValues: [String]
    /// The largest age, in seconds, the user's authentication may have; the server makes the
    /// user sign in again when it is older. Nil asks for none.
    public var maxAge: Int?
    /// The pages the server must (or, with ``Prompt/none``, must not) show.
    public var prompt: [Prompt]
    /// Who is expected to sign in (an e-mail address, a user name): the login page fills it in.
    public var loginHint: String?

    /// Parameters with these values; the defaults ask for nothing.
    public init(acrValues: [String] = [], maxAge: Int? = nil, prompt: [Prompt] = [], loginHint: String? = nil) {
        self.acrValues = acrValues
        self.maxAge = maxAge
        self.prompt = prompt
        self.loginHint = loginHint
    }

    /// Parameters that ask for what a step-up challenge named (its `acr_values` and
    /// `max_age`), with `prompt` and `loginHint`.
    public init(stepUp challenge: StepUpChallenge, prompt: [Prompt] = [], loginHint: String? = nil) {
        self.init(acrValues: challenge.acrValues, maxAge: challenge.maxAge, prompt: prompt, loginHint: loginHint)
    }

    /// The query parameters, in a fixed order, leaving out what is unset.
    /// - Throws: ``SesameError/encoding(reason:)`` for a negative `maxAge`, an ACR value or
    ///   prompt that is empty or has a space (the parameters are space-separated lists), or
    ///   `none` with another prompt (OpenID Connect Core §3.1.2.1).
    func queryItems() throws -> [(name: String, value: String)] {
        if let maxAge, maxAge < 0 { throw SesameError.encoding(reason: "max_age must not be negative") }
        if acrValues.contains(where: { $0.isEmpty || $0.contains(" ") }) {
            throw SesameError.encoding(reason: "an acr_values entry is empty or has a space")
        }
        if prompt.contains(where: { $0.rawValue.isEmpty || $0.rawValue.contains(" ") }) {
            throw SesameError.encoding(reason: "a prompt value is empty or has a space")
        }
        if prompt.contains(.none), prompt.count > 1 {
            throw SesameError.encoding(reason: "prompt none cannot be combined with another value")
        }
        var items: [(name: String, value: String)] = []
        if !acrValues.isEmpty { items.append(("acr_values", acrValues.joined(separator: " "))) }
        if let maxAge { items.append(("max_age", String(maxAge))) }
        if !prompt.isEmpty { items.append(("prompt", prompt.map(\.rawValue).joined(separator: " "))) }
        if let loginHint { items.append(("login_hint", loginHint)) }
        return items
    }

    /// The values, without the login hint's.
    public var description: String {
        var parts: [String] = []
        if !acrValues.isEmpty { parts.append("acr_values \(acrValues.joined(separator: " "))") }
        if let maxAge { parts.append("max_age \(maxAge)s") }
        if !prompt.isEmpty { parts.append("prompt \(prompt.map(\.rawValue).joined(separator: " "))") }
        if loginHint != nil { parts.append("login_hint (set)") }
        return parts.isEmpty ? "no authorization parameters" : parts.joined(separator: ", ")
    }

    /// The values for `dump` and debuggers, the login hint replaced by `(set)`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "acrValues": acrValues, "maxAge": maxAge as Any, "prompt": prompt.map(\.rawValue),
                "loginHint": loginHint == nil ? "nil" : "(set)",
            ], displayStyle: .struct)
    }
}
