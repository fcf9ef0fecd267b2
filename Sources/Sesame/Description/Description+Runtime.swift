import HTTPTypes
@_spi(Generated) import SesameDescription

// Where the runtime reads SesameDescription's vocabulary: the one place each word becomes
// what the runtime sends.

extension HTTPRequest.Method {
    /// The method a description's request line names.
    init(_ method: RequestMethod) {
        switch method {
        case .get: self = .get
        case .post: self = .post
        case .put: self = .put
        case .patch: self = .patch
        case .delete: self = .delete
        case .head: self = .head
        case .options: self = .options
        }
    }
}

extension Credential {
    /// The value of a credential placeholder (`{accessToken}`, `{refreshToken}`); nil for
    /// any other placeholder, and for a refresh token the credential does not have.
    func value(of placeholder: Placeholder) -> JSONValue? {
        switch placeholder {
        case .accessToken: return .string(accessToken)
        case .refreshToken: return refreshToken.map(JSONValue.string)
        default: return nil
        }
    }
}
