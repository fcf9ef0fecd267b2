/// The device authorization request (RFC 8628 §3.1) a device step sends before polling its
/// token request: the grant of TVs, command-line tools and watches, where the user signs
/// in on another device with a short code.
///
/// The runtime posts ``parameters`` (and `client_id`) to ``request`` with the step's client
/// authentication, shows the app the user code and verification URI it answers with, then
/// sends the step's token request every `interval` seconds (``defaultInterval`` when the
/// server names none) until the user approves or denies, or the code expires. The token
/// request reads ``providedValues``.
@_spi(Generated) public struct DeviceAuthorization: Sendable, Hashable {
    /// The device authorization endpoint (a POST request line, form-encoded), by default on
    /// the authorization server, with the step's client authentication.
    public var request: RequestDescription
    /// More form parameters, templates of the method's parameters (`scope`, …).
    public var parameters: [TemplateField]
    /// How long to wait between token requests when the server's answer has no `interval`
    /// (RFC 8628 §3.2: 5 seconds).
    public var defaultInterval: Duration
    /// Whether this is an OpenID Connect sign-in (`openID: true`, `scope` asking for
    /// `openid`): the token response must carry an `id_token`, validated as the browser
    /// step's is, but without a nonce, which the device authorization request cannot send
    /// (RFC 8628 defines none).
    public var openID: Bool

    public init(
        request: RequestDescription, parameters: [TemplateField] = [], defaultInterval: Duration = .seconds(5), openID: Bool = false
    ) {
        self.request = request
        self.parameters = parameters
        self.defaultInterval = defaultInterval
        self.openID = openID
    }

    /// The form parameters the runtime sets itself; a schema cannot declare them.
    public static let reservedParameters: Set<String> = ["client_id", "client_secret"]
    /// What the step's token request may read once the device was authorized; it must read all of them.
    public static let providedValues: [Placeholder] = [.deviceCode]
    /// The `grant_type` of the token request (RFC 8628 §3.4).
    public static let grantType = "urn:ietf:params:oauth:grant-type:device_code"
    /// How much longer to wait after a `slow_down` answer (RFC 8628 §3.5).
    public static let slowDownIncrement: Duration = .seconds(5)
}
