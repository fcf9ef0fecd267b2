import Foundation
import HTTPTypes
import Hummingbird

/// Builders of the responses the routes send.
enum Responses {
    /// A JSON response.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let data = try WireCoding.encoder().encode(value)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A token response with the headers RFC 6749 §5.1 requires.
    static func token(_ value: TokenResponse) throws -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
        return try json(value, headers: headers)
    }

    /// 204 No Content.
    static func noContent() -> Response {
        Response(status: .noContent)
    }
}
