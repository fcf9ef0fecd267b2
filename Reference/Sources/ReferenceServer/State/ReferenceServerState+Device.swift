import Foundation

extension ReferenceServerState {
    /// A device authorization (RFC 8628 §3.2) waiting for the user's answer.
    struct DeviceCodeRecord: Sendable {
        var clientID: String
        var userCode: String
        var scope: String?
        var expiresAt: Date
        /// The interval the client must keep between polls; each `slow_down` adds 5 s (§3.5).
        var interval: TimeInterval
        var lastPolledAt: Date?
        /// nil while pending; the user who approved, or `denied`.
        var decision: DeviceDecision?
        /// True once its tokens were issued: the code works once.
        var redeemed = false
    }

    enum DeviceDecision: Sendable, Equatable {
        case approved(username: String)
        case denied
    }

    /// How long a device code lives (`expires_in`) and the polling interval it starts with.
    static let deviceCodeLifetime: TimeInterval = 600
    static let deviceInterval: TimeInterval = 5

    /// The device authorization endpoint (RFC 8628 §3.1–3.2): a device code (secret), a
    /// short user code (`XXXX-XXXX`, consonants only, §6.1) and their lifetime.
    func authorizeDevice(clientID: String, scope: String?) -> DeviceAuthorizationResponse {
        let deviceCode = SecretGenerator.token()
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        var userCode: String
        repeat {
            let characters = (0..<8).map { _ in letters.randomElement()! }
            userCode = String(characters[0..<4]) + "-" + String(characters[4..<8])
        } while deviceCodes.values.contains { $0.userCode == userCode }
        accepted(IssuedSecret(kind: .deviceCode, value: deviceCode))
        deviceCodes[deviceCode] = DeviceCodeRecord(
            clientID: clientID, userCode: userCode, scope: scope,
            expiresAt: now().addingTimeInterval(Self.deviceCodeLifetime), interval: Self.deviceInterval)
        return DeviceAuthorizationResponse(
            device_code: deviceCode, user_code: userCode, expires_in: Int(Self.deviceCodeLifetime),
            interval: Int(Self.deviceInterval))
    }

    /// The user's answer on the approval page or through the control API: `username`
    /// approves for that user, nil denies.
    /// - Throws: ``ControlError/unknownUserCode`` for a user code that is unknown, expired
    ///   or already answered.
    public func decideDevice(userCode: String, approvingAs username: String?) throws {
        let normalized = userCode.uppercased().filter { $0.isLetter }
        guard
            let (deviceCode, record) = deviceCodes.first(where: {
                $0.value.userCode.filter { $0.isLetter } == normalized && $0.value.decision == nil
            }), now() < record.expiresAt
        else { throw ControlError.unknownUserCode }
        deviceCodes[deviceCode]?.decision = username.map { .approved(username: $0) } ?? .denied
    }

    /// The device code grant (RFC 8628 §3.4–3.5): `authorization_pending` until the user
    /// answers, `slow_down` (and 5 s more) when polled sooner than the interval,
    /// `access_denied`, `expired_token`; tokens once, when approved (bound to `dpopJKT`'s key
    /// when the request proved one).
    func redeemDeviceCode(_ deviceCode: String, clientID: String, dpopJKT: String? = nil) throws -> TokenResponse {
        guard var record = deviceCodes[deviceCode], record.clientID == clientID, !record.redeemed else {
            throw OAuthError.invalidGrant("The device code is unknown.")
        }
        let now = now()
        guard now < record.expiresAt else {
            deviceCodes[deviceCode] = nil
            throw OAuthError(status: .badRequest, code: "expired_token", description: "The device code expired.")
        }
        defer { deviceCodes[deviceCode] = record }
        if let last = record.lastPolledAt, now.timeIntervalSince(last) < record.interval {
            record.lastPolledAt = now
            record.interval += 5
            throw OAuthError(status: .badRequest, code: "slow_down", description: "Poll less often.")
        }
        record.lastPolledAt = now
        switch record.decision {
        case nil:
            throw OAuthError(status: .badRequest, code: "authorization_pending", description: "The user has not answered yet.")
        case .denied:
            record.redeemed = true
            throw OAuthError(status: .badRequest, code: "access_denied", description: "The user denied the request.")
        case .approved(let username):
            record.redeemed = true
            return startSession(
                uid: passwordAccount(username: username), provider: .password, providerUID: username,
                scope: record.scope ?? "profile", grant: "device_code", clientID: clientID,
                dpopJKT: dpopJKT
            ).tokens
        }
    }
}

/// The device authorization endpoint's answer (RFC 8628 §3.2); the routes add the URIs.
struct DeviceAuthorizationResponse: Codable, Sendable {
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"
    var device_code: String
    var user_code: String
    var verification_uri = ""
    var verification_uri_complete = ""
    var expires_in: Int
    var interval: Int
}
