import Yams
@_spi(Generated) import SesameDescription

/// The translation of one step kind: the key a step writes to be of that kind (`browser:`,
/// `device:`), what it reads from that key, and what it checks of the step's token request.
/// Each kind is one type in a file of its own; ``AuthTranslator/stepKinds`` lists them, and
/// ``AuthTranslator/translateKind(of:reader:)`` is the one place that asks which is present.
protocol StepKindTranslator {
    /// The step's key that makes it of this kind, such as `browser`.
    static var key: String { get }
    /// Whether the step's own request is a token request on the authorization server even
    /// without client authentication (a device step's polled token request).
    static var sendsTokenRequest: Bool { get }
    /// Reads the kind's mapping (`entry`, the kind's key and value) of the step `step`.
    /// - Returns: nil when the mapping is too broken to describe the kind; its diagnostics
    ///   are in `reader`.
    static func translate(
        _ entry: Entry, of step: StepKindContext, translator: AuthTranslator, reader: inout NodeReader
    )
        -> TranslatedStepKind?
    /// Checks the step's token request (`body`, with the kind's provided values already
    /// marked), once the kind was read.
    static func checkTokenRequest(_ body: [TemplateFieldIR], of step: StepKindContext, reader: inout NodeReader)
}

/// What a kind's translator reads of the step around it.
struct StepKindContext {
    /// `method.step`, the prefix of the names of the kind's own requests.
    var name: String
    /// The step's keys.
    var items: GrammarFields
    /// The key of the step's request line.
    var requestKey: Node
    var clientAuthentication: ClientAuthentication
    /// Whether the step's request goes to the authorization server unless `server` says
    /// otherwise (client authentication, or a kind whose request is a token request).
    var onAuthorizationServer: Bool
    /// The parameters and needs the step's templates may read.
    var visible: Set<String>
    /// The properties of the earlier steps' responses.
    var stepResponses: [String: Set<String>]

    /// Where a token-request diagnostic points: the step's body, else its request line.
    var bodyKey: Node { items["body"]?.keyNode ?? requestKey }
}

/// A kind as its translator read it.
struct TranslatedStepKind {
    var kind: AuthenticationStepDescription.Kind
    /// Where the schema wrote the kind's key.
    var location: SourceLocation
    /// What the step's token request may read once the kind ran; it must read all of them.
    var provided: [Placeholder]
    /// Where a browser or device step wrote `openID: true`; nil for any other step.
    var openIDLocation: SourceLocation? = nil
}

extension AuthTranslator {
    /// Every step kind but the plain request, in the order their keys are read: a new kind is
    /// one more type here.
    static let stepKinds: [any StepKindTranslator.Type] = [BrowserStepTranslator.self, DeviceStepTranslator.self]

    /// The kinds whose key the step writes, in ``stepKinds`` order. A step has one kind at
    /// most: each key after the first is reported there, once. Every kind present is still
    /// read, so that one run reports each one's mistakes.
    func presentKinds(in items: GrammarFields, reader: inout NodeReader) -> [any StepKindTranslator.Type] {
        let present = Self.stepKinds.filter { items[$0.key] != nil }
        if let first = present.first {
            for other in present.dropFirst() {
                reader.error(
                    "a step is a \(first.key) step or a \(other.key) step, not both: remove \(first.key) or \(other.key)",
                    at: items[other.key]!.keyNode)
            }
        }
        return present
    }

    /// Reads each kind of `present` from the step: the first one read is the step's kind.
    func translateKinds(
        _ present: [any StepKindTranslator.Type], of step: StepKindContext, reader: inout NodeReader
    )
        -> [(translator: any StepKindTranslator.Type, kind: TranslatedStepKind)]
    {
        present.compactMap { kind in
            kind.translate(step.items[kind.key]!, of: step, translator: self, reader: &reader).map { (kind, $0) }
        }
    }

    /// The extra parameters of a request the runtime completes (a browser step's
    /// authorization request, a device step's device authorization request): none may set
    /// what the runtime sets itself, and each placeholder must name something visible.
    func checkParameters(
        _ parameters: [TemplateFieldIR], of request: String, reserved: Set<String>, visible: Set<String>,
        stepResponses: [String: Set<String>], reader: inout NodeReader
    ) {
        for field in parameters {
            if reserved.contains(field.name) {
                reader.append(
                    .error("the runtime sets '\(field.name)' of \(request) itself; remove it from parameters", at: field.location))
            }
            for placeholder in field.value.placeholders {
                checkPlaceholder(placeholder.path, visible: visible, stepResponses: stepResponses, at: field.location, reader: &reader)
            }
        }
    }
}
