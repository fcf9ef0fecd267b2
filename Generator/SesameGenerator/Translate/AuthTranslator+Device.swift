import Yams
@_spi(Generated) import SesameDescription

extension AuthTranslator {
    /// A step's `device:`: the device authorization request (RFC 8628 §3.1). Its parameters
    /// may use the method's parameters and earlier needs, and may not set what the runtime
    /// sets itself (`client_id`, `client_secret`); a step is a browser step or a device
    /// step, not both.
    func translateDevice(
        _ entry: Entry, name: String, clientAuthentication: ClientAuthentication, hasBrowser: Bool, visible: Set<String>,
        stepResponses: [String: Set<String>], reader: inout NodeReader
    ) -> Located<DeviceAuthorization>? {
        guard let items = reader.mapping(entry.value, "device", grammar: Grammar.device, missingAt: entry.keyNode) else {
            return nil
        }
        if hasBrowser {
            reader.error("a step is a browser step or a device step, not both: remove browser or device", at: entry.keyNode)
        }
        guard let requestEntry = items["request"],
            var request = reader.requestLine(requestEntry.value, "the device authorization request", name: name)
        else { return nil }
        request.value.server = reader.server(items["server"], default: .authorization)
        request.value.encoding = .form
        request.value.clientAuthentication = clientAuthentication
        if request.value.method != .post {
            reader.error("the device authorization request must be a POST request (RFC 8628 §3.1)", at: requestEntry.value)
        }
        if !request.pathParameters.isEmpty {
            reader.error("the device authorization request's path cannot have parameters", at: requestEntry.value)
        }
        let parameters = items["parameters"].map { reader.templateFields($0.value, "the device authorization parameters") } ?? []
        checkParameters(
            parameters, of: "the device authorization request", reserved: DeviceAuthorization.reservedParameters,
            visible: visible, stepResponses: stepResponses, reader: &reader)
        return Located(
            DeviceAuthorization(request: request.value, parameters: parameters.map(\.field)), at: reader.location(of: entry.keyNode))
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

    /// The token request of a device step: form-encoded, with the device code grant type
    /// and `{deviceCode}` (RFC 8628 §3.4).
    func checkDeviceTokenRequest(_ body: [TemplateFieldIR], encoding: Node?, at node: Node, reader: inout NodeReader) {
        let fields = body.map(\.field)
        if !fields.reads(.deviceCode) {
            reader.error("the token request of a device step must send {deviceCode} (RFC 8628 §3.4)", at: node)
        }
        let grantType = fields.first { $0.name == "grant_type" }?.value
        if grantType != .literal(.string(DeviceAuthorization.grantType)) {
            reader.error(
                "the token request of a device step must send grant_type: \(DeviceAuthorization.grantType) (RFC 8628 §3.4)", at: node)
        }
        if let encoding {
            // Another unknown encoding was reported where the step's encoding was read.
            if encoding.string == BodyEncoding.json.rawValue {
                reader.error("the token request of a device step is form-encoded (RFC 8628 §3.4): use encoding: form", at: encoding)
            }
        } else {
            reader.error("the token request of a device step is form-encoded (RFC 8628 §3.4): add encoding: form", at: node)
        }
    }
}
