import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A request as it went on the wire, after the credential middleware.
struct RecordedRequest: Sendable {
    var method: String
    var path: String
    var headerFields: HTTPFields
    var body: String
    var status: Int?
}

/// An app middleware (it runs inside the credential middleware, over the default
/// URLSession transport) that records the requests and every token the back-end issues,
/// read from the token responses as they arrive.
final class TrafficRecorder: ClientMiddleware, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var storedRequests: [RecordedRequest] = []
    private var storedTokens: [String] = []

    var requests: [RecordedRequest] { lock.withLock { storedRequests } }

    /// Every access and refresh token the back-end issued, in order.
    var issuedTokens: [String] { lock.withLock { storedTokens } }

    func requests(_ method: String, _ path: String) -> [RecordedRequest] {
        requests.filter { $0.method == method && $0.path.split(separator: "?").first.map(String.init) == path }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        var requestData: Data?
        if let body { requestData = try await Data(collecting: body, upTo: 1 << 20) }
        var record = RecordedRequest(
            method: request.method.rawValue, path: request.path ?? "",
            headerFields: request.headerFields,
            body: requestData.map { String(decoding: $0, as: UTF8.self) } ?? "")
        let index = lock.withLock {
            storedRequests.append(record)
            return storedRequests.count - 1
        }
        let (response, responseBody) = try await next(request, requestData.map { HTTPBody($0) }, baseURL)
        record.status = response.status.code
        lock.withLock { storedRequests[index] = record }
        // An event stream never ends: pass it through unread.
        let contentType = response.headerFields[HTTPField.Name.contentType] ?? ""
        guard !contentType.contains("text/event-stream") else {
            return (response, responseBody)
        }
        var data: Data?
        if let responseBody { data = try await Data(collecting: responseBody, upTo: 8 << 20) }
        if let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let tokens = ["access_token", "refresh_token"].compactMap { object[$0] as? String }
            lock.withLock { storedTokens.append(contentsOf: tokens) }
        }
        return (response, data.map { HTTPBody($0) })
    }
}
