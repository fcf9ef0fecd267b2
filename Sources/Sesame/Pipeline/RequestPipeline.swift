import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A chain of swift-openapi-runtime middlewares over a transport: every request the runtime
/// sends goes through one, outermost middleware first.
struct RequestPipeline: Sendable {
    let transport: any ClientTransport
    /// Middlewares between the credential and the transport: the app's, then logging.
    let middlewares: [any ClientMiddleware]

    /// Sends a request through `extra` (outermost) and then the pipeline's middlewares.
    /// - Throws: what the middlewares or the transport throw, unchanged.
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        through extra: [any ClientMiddleware] = []
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let transport = self.transport
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
            try await transport.send($0, body: $1, baseURL: $2, operationID: operationID)
        }
        for middleware in (extra + middlewares).reversed() {
            let inner = next
            next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: operationID, next: inner) }
        }
        return try await next(request, body, baseURL)
    }
}
