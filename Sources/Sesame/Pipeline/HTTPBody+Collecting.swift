import Foundation
import OpenAPIRuntime

extension Optional where Wrapped == HTTPBody {
    /// The bytes of a body, empty when there is none.
    /// - Throws: ``SesameError/transport(operation:reason:)`` when the body is larger than
    ///   `limit` or the connection fails while it is read.
    func collected(upTo limit: Int, operation: String) async throws -> Data {
        guard let body = self else { return Data() }
        do {
            return try await Data(collecting: body, upTo: limit)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SesameError.transport(operation: operation, reason: TransportFailure.describe(error))
        }
    }
}

/// Describes transport errors without the URLs or payloads they may carry.
enum TransportFailure {
    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError { return "URLError \(error.code.rawValue)" }
        return "\(type(of: error))"
    }
}
