import Foundation
import ReferenceSDK

/// An `OperationPerformer` for the reference schema that records every request and answers
/// each with the same canned 2xx body, so generated operations run without a back-end.
actor RecordingPerformer: OperationPerformer {
    typealias Schema = ReferenceSDKSchema

    private(set) var requests: [OperationRequest] = []
    private let status: Int
    private let body: Data

    init(status: Int = 200, body: String = "") {
        self.status = status
        self.body = Data(body.utf8)
    }

    func perform(_ request: OperationRequest) async throws -> OperationResponse {
        requests.append(request)
        return OperationResponse(operation: request.description.name, status: status, body: body)
    }
}
