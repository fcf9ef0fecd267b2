import Foundation
@_spi(Generated) import Sesame

extension IDTokenValidator {
    /// The validator a generated SDK builds from its schema's `openID:` (its
    /// `idTokenValidator(_:)`): the settings' issuer, client id, algorithms and clock skew,
    /// and a ``JWKSCache`` over the settings' fetch, which goes through the service's
    /// transport. Apps that need something else (trusted audiences, another fetch) set their
    /// own `idTokenValidator` in the configuration, which wins.
    @_spi(Generated) public init(_ settings: OpenIDValidatorSettings) {
        self.init(
            issuer: settings.issuer, clientID: settings.clientID, keys: JWKSCache(fetch: settings.fetchKeys),
            clockSkew: settings.clockSkew, algorithms: settings.algorithms ?? Self.defaultAlgorithms)
    }
}
