/// The running state of one authentication method: its arguments, the values the app
/// supplied and the responses of the steps run so far. Internal: it holds secrets.
@_spi(Generated) import SesameDescription

struct AuthenticationProcess: Sendable {
    let id: UInt64
    let method: AuthenticationMethodDescription
    let arguments: [String: JSONValue]
    /// The session epoch when the process started; a sign-in completing in another one
    /// is discarded.
    let epoch: UInt64
    /// The signed-in user whose account the method attaches an identity to
    /// (``AuthenticationContext/currentAccount``); nil for a new sign-in.
    var attachingTo: String?
    /// The signed-in user the method must sign in again (``AuthenticationContext/sameAccount``,
    /// a step-up); nil otherwise. Unlike `attachingTo`, steps carry no current credential.
    var reauthenticating: String?
    /// What the app asked of the authorization server for this sign-in (`acr_values`,
    /// `max_age`, `prompt`, `login_hint`), sent on the browser step's authorization request.
    var authorization: AuthorizationParameters?
    var values: [String: JSONValue] = [:]
    var responses: [String: JSONValue] = [:]
    /// What the running step's kind holds (``StepKindState``): what the app sees while it
    /// waits, and the secrets it brought back, in the copy of the process that runs the
    /// step's request only. nil before the kind ran and after the step answered.
    var kindState: StepKindState?
    /// Where the process is in the method's steps; whether that step runs is the sign-in
    /// machine's phase (``SignInMachine/Phase``).
    var nextStepIndex = 0

    var nextStep: AuthenticationStepDescription? {
        method.steps.indices.contains(nextStepIndex) ? method.steps[nextStepIndex] : nil
    }

    var isAtLastStep: Bool { nextStepIndex == method.steps.count - 1 }

    /// Whether the next step needs values the app has not supplied.
    var awaitsInput: Bool {
        guard let step = nextStep else { return false }
        return step.needs.contains { values[$0] == nil }
    }

    var ongoing: OngoingAuthentication? {
        nextStep.map {
            OngoingAuthentication(methodName: method.name, nextStep: $0.name, needs: $0.needs, prompt: kindState?.prompt)
        }
    }

    /// The value of a template placeholder, or nil when the process has none: what the
    /// app supplied or the method's arguments for a parameter (in that order), a field of
    /// an earlier step's response, what the step's kind brought back, or the credential's tokens.
    func value(of placeholder: Placeholder, credential: Credential?) -> JSONValue? {
        switch placeholder {
        case .parameter(let name): return values[name] ?? arguments[name]
        case .stepOutput(let step, let path): return Self.value(at: path, in: responses[step])
        case .accessToken, .refreshToken: return credential?.value(of: placeholder)
        // What a step's kind provides to its token request (a browser's code, a device code).
        default: return kindState?.value(of: placeholder)
        }
    }

    /// The value at `path` below `root`: object keys, or array indexes.
    private static func value(at path: [String], in root: JSONValue?) -> JSONValue? {
        guard var current = root else { return nil }
        for key in path {
            switch current {
            case .object(let object):
                guard let next = object[key] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension AuthenticationProcess: CustomReflectable {
    /// The method, the step and the names of what the process holds, never the values: a
    /// step that failed and may be retried keeps what the app supplied (a wrong code), and
    /// the responses of earlier steps, so `dump(service)` must not show them.
    var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id, "method": method.name, "epoch": epoch, "attaching": attachingTo != nil,
                "authorization": authorization != nil, "nextStepIndex": nextStepIndex,
                "kind": kindState?.name ?? "none", "arguments": arguments.keys.sorted(), "values": values.keys.sorted(),
                "responses": responses.keys.sorted(),
            ], displayStyle: .struct)
    }
}
