import Foundation
import OddNamesSDK
import Sesame

/// An `OperationPerformer` for the odd-names schema that records every request and answers
/// each with the same canned 2xx body, so generated operations run without a back-end.
actor RecordingPerformer: OperationPerformer {
    typealias Schema = OddNamesSDKSchema

    private(set) var requests: [OperationRequest] = []
    private let body: Data

    init(body: String = "") {
        self.body = Data(body.utf8)
    }

    func perform(_ request: OperationRequest) async throws -> OperationResponse {
        requests.append(request)
        return OperationResponse(operation: request.description.name, status: 200, body: body)
    }
}
