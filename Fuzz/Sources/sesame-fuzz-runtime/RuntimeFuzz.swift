import Crypto
import Foundation
@testable import Sesame
import SesameDescription
import SesameOpenID

/// libFuzzer's entry point over what the runtime reads from a server or a local process: the
/// input's first line names the surface, the rest is what arrives (see `RuntimeSurface`).
/// Typed errors are the expected outcome of almost every input; only a crash, a hang or
/// runaway memory is a finding, and libFuzzer detects those itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
        let surface = RuntimeSurface(rawValue: String(decoding: bytes[..<newline], as: UTF8.self))
    else { return -1 }
    let rest = Data(bytes[(newline + 1)...])
    switch surface {
    case .idToken: RuntimeSurface.validate(String(decoding: rest, as: UTF8.self))
    case .idTokenClaims: RuntimeSurface.validate(RuntimeSurface.signed(payload: rest))
    case .device: RuntimeSurface.readDeviceAnswer(rest)
    case .loopback: RuntimeSurface.answerLoopbackRequest(String(decoding: rest, as: UTF8.self))
    }
    return 0
}

/// The surfaces, by the first line of an input.
enum RuntimeSurface: String {
    /// An ID token as the token endpoint sends it: its header and serialization are what
    /// jwt-kit and the validator parse before any signature is checked.
    case idToken = "id-token"
    /// A payload that the harness signs (ES256, `kid: ec-1`, the key the validator trusts), so
    /// that mutated claims get past the signature to every claim rule.
    case idTokenClaims = "id-token-claims"
    /// The device authorization endpoint's JSON answer (RFC 8628 §3.2).
    case device
    /// A request head that reaches the loopback redirect listener (RFC 8252 §7.3).
    case loopback

    static let key = P256.Signing.PrivateKey()

    static let validator: IDTokenValidator = {
        let raw = key.publicKey.rawRepresentation
        let coordinates = #""x":"\#(base64URL(raw.prefix(32)))","y":"\#(base64URL(raw.suffix(32)))""#
        let jwks = #"{"keys":[{"kty":"EC","alg":"ES256","crv":"P-256","kid":"ec-1",\#(coordinates)}]}"#
        let keys = JWKSCache { Data(jwks.utf8) }
        return IDTokenValidator(
            issuer: "https://idp.example.com", clientID: "app", keys: keys, algorithms: ["ES256", "RS256"])
    }()

    /// Validates `token` with a nonce and an access token expected, at a fixed instant.
    static func validate(_ token: String) {
        let done = DispatchSemaphore(value: 0)
        Task {
            defer { done.signal() }
            _ = try? await validator.validate(
                token, expecting: IDTokenExpectations(nonce: "n-0S6_WzA2Mj", accessToken: "at-1", maxAge: .seconds(3600)),
                now: Date(timeIntervalSince1970: 1_700_000_000))
        }
        done.wait()
    }

    /// A compact JWS of `payload` signed with ``key``: assembled here, signed by swift-crypto.
    static func signed(payload: Data) -> String {
        let header = base64URL(Data(#"{"alg":"ES256","kid":"ec-1","typ":"JWT"}"#.utf8))
        let input = header + "." + base64URL(payload)
        let signature = (try? key.signature(for: Data(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + base64URL(signature)
    }

    static func readDeviceAnswer(_ data: Data) {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
        _ = try? DeviceAuthorizationAnswer(
            json, operation: "device.authorize", now: Date(timeIntervalSince1970: 1_700_000_000), defaultInterval: .seconds(5))
    }

    static func answerLoopbackRequest(_ head: String) {
        _ = LoopbackListener.answer(toHead: head, path: "/callback", state: "s-1")
        _ = LoopbackListener.answer(toHead: head, path: "/", state: nil)
    }

    static func base64URL<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
