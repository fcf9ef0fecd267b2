import Foundation
import OpenAPIRuntime

extension Optional where Wrapped == HTTPBody {
    /// The bytes of a response body, empty when there is none.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` when the body is larger than
    ///   `limit` (reading stops there, so an endless body cannot exhaust memory);
    ///   ``SesameError/transport(operation:reason:)`` when the connection fails while it is read.
    func collected(upTo limit: Int, operation: String) async throws -> Data {
        guard let data = try await collected(within: limit, operation: operation) else {
            throw SesameError.decoding(operation: operation, reason: "$: the response is larger than \(limit) bytes")
        }
        return data
    }

    /// The bytes of an error response's body, empty when there is none or when it is larger
    /// than `limit`: the status still says what happened, and the body is dropped.
    /// - Throws: ``SesameError/transport(operation:reason:)`` when the connection fails while it is read.
    func collectedErrorBody(upTo limit: Int, operation: String) async throws -> Data {
        try await collected(within: limit, operation: operation) ?? Data()
    }

    /// The body as one that can be sent again (a retry, a redirect hop): itself when it
    /// already can be, else its bytes, read up to `limit`; nil when there is none.
    /// - Throws: ``SesameError/encoding(reason:)`` when the body is larger than `limit`.
    func replayable(within limit: Int, operation: String) async throws -> HTTPBody? {
        guard let body = self else { return nil }
        if case .multiple = body.iterationBehavior { return body }
        guard let data = try await collected(within: limit, operation: operation) else {
            throw SesameError.encoding(reason: "the request body of \(operation) is larger than \(limit) bytes")
        }
        return HTTPBody(data)
    }

    /// The bytes of a body, empty when there is none, nil as soon as it is known to be
    /// larger than `limit` (by its length, by the bytes read so far, or because the
    /// transport stopped it at its ``ResponseLimits``). Nothing past the limit is kept; the
    /// body's own transport decides what it holds before it is read (the default,
    /// ``StreamingURLSessionTransport``, no more than the limit).
    /// - Throws: ``SesameError/transport(operation:reason:)`` when the connection fails while it is read.
    func collected(within limit: Int, operation: String) async throws -> Data? {
        guard let body = self else { return Data() }
        if case .known(let length) = body.length, length > Int64(limit) { return nil }
        var data = Data()
        do {
            for try await chunk in body {
                guard chunk.count <= limit - data.count else { return nil }
                data.append(contentsOf: chunk)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch is ResponseLimitExceeded {
            return nil
        } catch {
            throw SesameError.transport(operation: operation, reason: TransportFailure.describe(error))
        }
        return data
    }
}

/// Describes transport errors without the URLs or payloads they may carry.
enum TransportFailure {
    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError { return "URLError \(error.code.rawValue)" }
        if let error = error as? ResponseLimitExceeded { return error.description }
        return "\(type(of: error))"
    }
}
