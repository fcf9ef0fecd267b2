import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// Logs each request as it goes on the wire: method, path without its query, status and
/// time. Header fields and bodies are never logged, so tokens and secrets never are.
struct LoggingMiddleware: ClientMiddleware {
    let logger: Logger

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        let path = (request.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let started = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, body, baseURL)
            logger.debug(
                "\(request.method) \(path) → \(response.status.code)",
                metadata: [
                    "operation": "\(operationID)", "duration": "\(ContinuousClock.now - started)",
                ])
            return (response, responseBody)
        } catch {
            logger.notice(
                "\(request.method) \(path) failed: \(TransportFailure.describe(error))",
                metadata: ["operation": "\(operationID)"])
            throw error
        }
    }
}
