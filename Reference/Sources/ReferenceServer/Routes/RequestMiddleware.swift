import Foundation
import HTTPTypes
import Hummingbird

/// Runs before every protocol route: logs the request (listener, and whether it carried a
/// Bearer token or client credentials), counts it, adds the configured latency, and answers
/// with an injected failure when a rule matches. Also turns Hummingbird's bare 404 into an
/// errors.yaml `not_found` body.
struct RequestMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let state: ReferenceServerState
    /// The listener this middleware's router serves.
    let listener: RequestLogEntry.Listener

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/_control/"), path != ControlRoutes.downstreamPath {
            return try await next(request, context)
        }
        var request = request
        await state.log(try await logEntry(of: &request))
        let directive = await state.beginRequest(method: request.method.rawValue, path: path, template: context.endpointPath)
        if directive.latency > .zero {
            try await Task.sleep(for: directive.latency)
        }
        if let failure = directive.failure {
            return try await respond(with: failure, context: context)
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            throw OAuthError.notFound("No route for \(request.method.rawValue) \(path).")
        }
    }

    /// What the log records of a request. Reads a form body to see whether it carries
    /// `client_secret` (the body stays readable by the handler); never keeps a value.
    private func logEntry(of request: inout Request) async throws -> RequestLogEntry {
        let scheme = RequestDecoding.authorization(of: request)?.scheme
        var clientSecretInBody = false
        if RequestDecoding.isForm(request) {
            let buffer: ByteBuffer
            do {
                buffer = try await request.collectBody(upTo: RequestDecoding.maxBodySize)
            } catch {
                throw OAuthError.invalidRequest("The request body is too large.")
            }
            clientSecretInBody = FormURLEncoding.names(String(buffer: buffer)).contains("client_secret")
        }
        return RequestLogEntry(
            listener: listener,
            method: request.method.rawValue,
            path: request.uri.path,
            bearer: scheme == "bearer",
            clientAuthentication: scheme == "basic" || clientSecretInBody
        )
    }

    private func respond(with failure: InjectedFailure, context: Context) async throws -> Response {
        if failure.closeConnection {
            await context.closeConnection()
            throw CancellationError()
        }
        var headers = HTTPFields()
        var body = ByteBuffer()
        if let json = failure.body {
            headers[.contentType] = "application/json; charset=utf-8"
            body = ByteBuffer(bytes: try WireCoding.encoder().encode(json))
        } else if let raw = failure.rawBody {
            headers[.contentType] = failure.contentType ?? "text/plain; charset=utf-8"
            body = ByteBuffer(string: raw)
        } else if let bytes = failure.rawBytes {
            headers[.contentType] = failure.contentType ?? "application/octet-stream"
            body = ByteBuffer(bytes: bytes)
        }
        if let retryAfter = failure.retryAfter {
            headers[.retryAfter] = retryAfter
        }
        for (name, value) in failure.headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: HTTPResponse.Status(code: failure.status), headers: headers, body: .init(byteBuffer: body))
    }
}
