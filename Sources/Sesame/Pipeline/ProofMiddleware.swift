import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) import SesameDescription

/// Adds a proof of possession (``ProofOfPossession``, DPoP) to each request for the API's or
/// the authorization server's origin, as it goes to the transport: innermost, so that the
/// proof signs the request as sent (after the app's middlewares, on each redirect hop), and
/// its `ath` hashes the access token the request carries (`Authorization: DPoP …`).
///
/// A response that asks for a server nonce (`use_dpop_nonce`) is answered by sending the
/// request once more with a new proof, below the credential middleware: the retry is never
/// a rejection of the credential, so never a refresh.
struct ProofMiddleware: ClientMiddleware {
    let prover: any ProofOfPossession
    /// The origins proofs go to: the API's and the authorization server's.
    let origins: Set<CredentialScope.Origin>
    let maximumBodySize: Int

    /// Proofs for requests to `sdk`'s API and authorization server.
    init(prover: any ProofOfPossession, sdk: SDKDescription, maximumBodySize: Int) {
        self.prover = prover
        self.origins = Set([sdk.baseURL, sdk.baseURL(of: .authorization)].compactMap(CredentialScope.Origin.init(url:)))
        self.maximumBodySize = maximumBodySize
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let url = StreamingURLSessionTransport.url(of: request, baseURL: baseURL), let origin = CredentialScope.Origin(url: url),
            origins.contains(origin)
        else { return try await next(request, body, baseURL) }
        let token = Self.accessToken(in: request.headerFields)
        let replayable = try await body.replayable(within: maximumBodySize, operation: operationID)
        let first = try await send(
            request, body: replayable, url: url, token: token, baseURL: baseURL, operationID: operationID, next: next)
        guard first.asksAgain else { return (first.response, first.body) }
        let retry = try await send(
            request, body: replayable, url: url, token: token, baseURL: baseURL, operationID: operationID, next: next)
        return (retry.response, retry.body)
    }

    /// Sends `request` with a new proof, and shows the response to the prover.
    private func send(
        _ request: HTTPRequest, body: HTTPBody?, url: URL, token: String?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (response: HTTPResponse, body: HTTPBody?, asksAgain: Bool) {
        var signed = request
        do {
            signed.headerFields[.dpop] = try await prover.proof(method: request.method, url: url, accessToken: token)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SesameError.invalidState(reason: "no DPoP proof could be made: \(type(of: error))")
        }
        let (response, responseBody) = try await next(signed, body, baseURL)
        guard [400, 401].contains(response.status.code) else {
            _ = await prover.receive(response, body: nil, from: url)
            return (response, responseBody, false)
        }
        let data = try await responseBody.collectedErrorBody(upTo: maximumBodySize, operation: operationID)
        let asksAgain = await prover.receive(response, body: data, from: url)
        return (response, HTTPBody(data), asksAgain)
    }

    /// The access token of `Authorization: DPoP {token}`, nil without one.
    static func accessToken(in fields: HTTPFields) -> String? {
        guard let value = fields[.authorization], value.count > 5, value.prefix(5).lowercased() == "dpop " else { return nil }
        return String(value.dropFirst(5))
    }

}
