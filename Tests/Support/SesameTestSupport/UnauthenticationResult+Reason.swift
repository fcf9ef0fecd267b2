import Sesame

extension UnauthenticationResult {
    /// The reason of a `.localOnly` result; nil for `.revoked`.
    public var localOnlyReason: String? {
        if case .localOnly(let reason) = self { return reason }
        return nil
    }
}
