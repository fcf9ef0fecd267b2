import Yams
@_spi(Generated) import SesameDescription

/// A step's `device:`: the device authorization request (RFC 8628 §3.1), then the step's
/// token request, polled.
enum DeviceStepTranslator: StepKindTranslator {
    static let key = "device"
    /// A device step's request is the token request: on the authorization server too.
    static let sendsTokenRequest = true

    /// Its parameters may use the method's parameters and earlier needs, and may not set what
    /// the runtime sets itself (`client_id`, `client_secret`).
    static func translate(
        _ entry: Entry, of step: StepKindContext, translator: AuthTranslator, reader: inout NodeReader
    )
        -> TranslatedStepKind?
    {
        guard let items = reader.mapping(entry.value, "device", grammar: Grammar.device, missingAt: entry.keyNode) else {
            return nil
        }
        guard let requestEntry = items["request"],
            var request = reader.requestLine(
                requestEntry.value, "the device authorization request", name: step.name + ".deviceAuthorization")
        else { return nil }
        request.value.server = reader.server(items["server"], default: .authorization)
        request.value.encoding = .form
        request.value.clientAuthentication = step.clientAuthentication
        if request.value.method != .post {
            reader.error("the device authorization request must be a POST request (RFC 8628 §3.1)", at: requestEntry.value)
        }
        if !request.pathParameters.isEmpty {
            reader.error("the device authorization request's path cannot have parameters", at: requestEntry.value)
        }
        let parameters = items["parameters"].map { reader.templateFields($0.value, "the device authorization parameters") } ?? []
        translator.checkParameters(
            parameters, of: "the device authorization request", reserved: DeviceAuthorization.reservedParameters,
            visible: step.visible, stepResponses: step.stepResponses, reader: &reader)
        // `openID: true`: checked against sdk.yaml's `openID:` once both are read (SDKTranslator).
        var openIDLocation: SourceLocation?
        if let flag = items["openID"], reader.bool(flag.value, "openID") == true { openIDLocation = reader.location(of: flag.keyNode) }
        return TranslatedStepKind(
            kind: .deviceAuthorization(
                DeviceAuthorization(request: request.value, parameters: parameters.map(\.field), openID: openIDLocation != nil)),
            location: reader.location(of: entry.keyNode), provided: DeviceAuthorization.providedValues,
            openIDLocation: openIDLocation)
    }

    /// The token request of a device step: form-encoded, with the device code grant type
    /// and `{deviceCode}` (RFC 8628 §3.4).
    static func checkTokenRequest(_ body: [TemplateFieldIR], of step: StepKindContext, reader: inout NodeReader) {
        let node = step.bodyKey
        let fields = body.map(\.field)
        if !fields.reads(.deviceCode) {
            reader.error("the token request of a device step must send {deviceCode} (RFC 8628 §3.4)", at: node)
        }
        let grantType = fields.first { $0.name == "grant_type" }?.value
        if grantType != .literal(.string(DeviceAuthorization.grantType)) {
            reader.error(
                "the token request of a device step must send grant_type: \(DeviceAuthorization.grantType) (RFC 8628 §3.4)", at: node)
        }
        if let encoding = step.items["encoding"]?.value {
            // Another unknown encoding was reported where the step's encoding was read.
            if encoding.string == BodyEncoding.json.rawValue {
                reader.error("the token request of a device step is form-encoded (RFC 8628 §3.4): use encoding: form", at: encoding)
            }
        } else {
            reader.error("the token request of a device step is form-encoded (RFC 8628 §3.4): add encoding: form", at: node)
        }
    }
}
