import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// Follows redirects in the pipeline, so that the credential goes only where it may.
///
/// The default transport does not follow redirects (see
/// `StreamingURLSessionTransport`): each 3xx reaches the pipeline, and this
/// follows it, at most ``maximumRedirects`` times, as browsers do (the Fetch standard):
/// - 301, 302, 303, 307 and 308 with a `Location` of an http(s) URL are followed; other
///   statuses, and a missing or unusable `Location`, are returned as they are;
/// - 303 turns any method but GET and HEAD into a GET without a body, and 301 and 302 turn
///   a POST into one; 307 and 308 keep the method and the body, but only on the same origin
///   and for a body that can be sent again: otherwise the 3xx is returned as it is (bodies
///   carry refresh tokens, passwords and one-time codes);
/// - a hop to another origin (scheme, host or port) drops `Authorization`,
///   `Proxy-Authorization`, `Cookie` and the credential's fields (`CredentialPresenter`), and once a chain
///   has left the origin it started at, none of its later hops carries the credential, even
///   one that comes back.
enum RedirectFollower {
    /// The most redirects one request follows; one more fails with
    /// ``SesameError/transport(operation:reason:)``.
    static let maximumRedirects = 5

    /// The last response of a chain, and whether its request carried the credential.
    struct Outcome: Sendable {
        var response: HTTPResponse
        var body: HTTPBody?
        var carriedCredential: Bool
    }

    /// Sends `request` through `next`, with `credential` when given (in the fields
    /// `presenter` makes for each hop), and follows the redirects it gets.
    ///
    /// The caller decides whether the first request may carry the credential; later hops
    /// carry it only while the chain stays on the first request's origin and `scope`
    /// permits it.
    /// - Throws: what `next` throws; ``SesameError/transport(operation:reason:)`` after more
    ///   than ``maximumRedirects`` redirects.
    static func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, credential: Credential?,
        presenter: CredentialPresenter, scope: CredentialScope, logger: Logger,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> Outcome
    {
        var sent = request
        if let credential { try sent.headerFields.set(presenter.fields(carrying: credential, on: request, baseURL: baseURL)) }
        let (response, responseBody) = try await next(sent, body, baseURL)
        guard follows(response.status.code) else {
            return Outcome(response: response, body: responseBody, carriedCredential: credential != nil)
        }
        return try await follow(
            response, responseBody, of: Hop(request: request, body: body, baseURL: baseURL),
            operationID: operationID, credential: credential, presenter: presenter, scope: scope,
            logger: logger, next: next)
    }

    /// Follows the redirect `response` to the first request, and the ones after it.
    private static func follow(
        _ response: HTTPResponse, _ responseBody: HTTPBody?, of first: Hop, operationID: String,
        credential: Credential?, presenter: CredentialPresenter, scope: CredentialScope, logger: Logger,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> Outcome
    {
        var (response, responseBody) = (response, responseBody)
        var current = first
        var carries = credential != nil
        var leftOrigin = false
        var redirects = 0
        while true {
            guard follows(response.status.code),
                let hop = hop(after: response, from: current, strippingOnOriginChange: stripped(presenter))
            else { return Outcome(response: response, body: responseBody, carriedCredential: carries) }
            guard redirects < Self.maximumRedirects else {
                logger.notice("too many redirects", metadata: ["operation": "\(operationID)"])
                throw SesameError.transport(operation: operationID, reason: "more than \(Self.maximumRedirects) redirects")
            }
            redirects += 1
            if hop.changedOrigin { leftOrigin = true }
            carries = credential != nil && !leftOrigin && scope.permits(hop.next.request, baseURL: hop.next.baseURL)
            logger.debug(
                "following a redirect",
                metadata: [
                    "operation": "\(operationID)", "status": "\(response.status.code)", "hop": "\(redirects)",
                    "origin": "\(leftOrigin ? "left" : "same")", "credential": "\(carries ? "sent" : "not sent")",
                ])
            current = hop.next
            var sent = current.request
            if carries, let credential {
                try sent.headerFields.set(presenter.fields(carrying: credential, on: sent, baseURL: current.baseURL))
            }
            (response, responseBody) = try await next(sent, current.body, current.baseURL)
        }
    }

    /// The header fields that never follow a redirect to another origin.
    private static func stripped(_ presenter: CredentialPresenter) -> [HTTPField.Name] {
        [.authorization, .proxyAuthorization, .cookie] + presenter.fieldNames
    }

    /// Whether a response with this status is a redirect this follows (when it has a
    /// usable `Location`).
    static func follows(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: return true
        default: return false
        }
    }

    /// One request of a chain.
    struct Hop: Sendable {
        var request: HTTPRequest
        var body: HTTPBody?
        var baseURL: URL
    }

    /// The request that follows a redirect response, and whether it goes to another
    /// origin; nil when the response is not a redirect this follows.
    static func hop(
        after response: HTTPResponse, from current: Hop, strippingOnOriginChange stripped: [HTTPField.Name]
    )
        -> (next: Hop, changedOrigin: Bool)?
    {
        let status = response.status.code
        guard follows(status), let location = response.headerFields[.location],
            let from = url(of: current.request, baseURL: current.baseURL),
            let target = URL(string: location, relativeTo: from)?.absoluteURL,
            let targetOrigin = CredentialScope.Origin(url: target),
            let split = split(target)
        else { return nil }
        var method = current.request.method
        var body = current.body
        var fields = current.request.headerFields
        let becomesGet =
            ((status == 301 || status == 302) && method == .post)
            || (status == 303 && method != .get && method != .head)
        if becomesGet {
            method = .get
            body = nil
            for name in [HTTPField.Name.contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation] {
                fields[name] = nil
            }
        }
        let changedOrigin = CredentialScope.Origin(url: current.baseURL) != targetOrigin
        if let body {
            // A 307 or 308 keeps the body: never to another origin (refresh tokens,
            // passwords and codes travel in bodies), and only when it can be sent again.
            if changedOrigin { return nil }
            if case .single = body.iterationBehavior { return nil }
        }
        if changedOrigin {
            for name in stripped { fields[name] = nil }
        }
        let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: split.path, headerFields: fields)
        return (Hop(request: request, body: body, baseURL: split.baseURL), changedOrigin)
    }

    /// The URL a transport sends `request` to: the base URL's path followed by the
    /// request's path and query, as `URLSessionTransport` composes them.
    static func url(of request: HTTPRequest, baseURL: URL) -> URL? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let requestComponents = URLComponents(string: request.path ?? "")
        else { return nil }
        components.percentEncodedPath += requestComponents.percentEncodedPath
        components.percentEncodedQuery = requestComponents.percentEncodedQuery
        return components.url
    }

    /// A redirect target as a base URL (scheme, host and port) and a request path (path
    /// and query; no user information, no fragment).
    static func split(_ target: URL) -> (baseURL: URL, path: String)? {
        guard let components = URLComponents(url: target, resolvingAgainstBaseURL: true) else { return nil }
        var base = URLComponents()
        base.scheme = components.scheme
        base.percentEncodedHost = components.percentEncodedHost
        base.port = components.port
        guard let baseURL = base.url else { return nil }
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        return (baseURL, path)
    }
}

/// Follows redirects for requests that carry no credential of the session (sign-in steps,
/// the refresh request), dropping their `Authorization` (client authentication) when a
/// redirect leaves the origin.
struct RedirectMiddleware: ClientMiddleware {
    let scope: CredentialScope
    /// The credential's binding: the fields it drops on a hop to another origin.
    let presenter: CredentialPresenter
    let logger: Logger

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        let outcome = try await RedirectFollower.send(
            request, body: body, baseURL: baseURL, operationID: operationID,
            credential: nil, presenter: presenter, scope: scope, logger: logger, next: next)
        return (outcome.response, outcome.body)
    }
}
