import Foundation
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// An `OperationPerformer` for any schema that records every request and answers each with
/// the same canned status and body, so generated operations run without a back-end.
public actor RecordingPerformer<Schema: SDKSchema>: OperationPerformer {
    /// Every request so far, in order.
    public private(set) var requests: [OperationRequest] = []
    private let status: Int
    private let body: Data

    /// A performer that answers `status` (2xx by default) with `body`.
    public init(status: Int = 200, body: String = "") {
        self.status = status
        self.body = Data(body.utf8)
    }

    public func perform(_ request: OperationRequest) async throws -> OperationResponse {
        requests.append(request)
        return OperationResponse(operation: request.description.name, status: status, body: body)
    }
}
