/// Where error bodies keep their code and message, and what each known code means.
@_spi(Generated) public struct ErrorCatalogue: Sendable, Hashable {
    public var codeField: String
    public var messageField: String?
    /// Known codes with their category.
    public var codes: [String: ErrorCategory]

    public init(codeField: String, messageField: String? = nil, codes: [String: ErrorCategory]) {
        self.codeField = codeField
        self.messageField = messageField
        self.codes = codes
    }

    /// The category of a code the catalogue does not know, from the HTTP status alone.
    public static func category(forStatus status: Int) -> ErrorCategory {
        switch status {
        case 408, 425, 429, 502, 503, 504: return .transient
        case 500...599: return .server
        default: return .client
        }
    }
}

/// What an error code means to the runtime.
public enum ErrorCategory: String, Sendable, Hashable, Codable, CaseIterable {
    /// The credential or grant is no good: the session becomes invalid.
    case credentialRejected = "credential-rejected"
    /// The operation needs a more recent sign-in.
    case reauthenticationRequired = "reauthentication-required"
    /// Worth retrying later (rate limits, unavailability).
    case transient
    /// The request was wrong.
    case client
    /// The back-end failed.
    case server
}

/// The server-sent-events stream and the effect of each event on the auth state.
@_spi(Generated) public struct EventCatalogue: Sendable, Hashable {
    /// The stream request; nil when the back-end pushes no events.
    public var stream: RequestDescription?
    /// Wire names whose event invalidates the session.
    public var invalidating: Set<String>

    public init(stream: RequestDescription? = nil, invalidating: Set<String>) {
        self.stream = stream
        self.invalidating = invalidating
    }
}
