import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests made by hand, outside the SDK, to check what the back-end accepts.
enum RawHTTP {
    struct Result: Sendable {
        var status: Int
        var body: String
    }

    static func get(_ url: URL, bearer token: String) async throws -> Result {
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return try await send(request)
    }

    /// A refresh-token grant as the demo client.
    static func refresh(_ baseURL: URL, refreshToken: String) async throws -> Result {
        var request = URLRequest(url: baseURL.appending(path: "oauth/token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let basic = Data("\(BackEnd.clientID):\(BackEnd.clientSecret)".utf8).base64EncodedString()
        request.setValue("Basic \(basic)", forHTTPHeaderField: "Authorization")
        let encoded = refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? refreshToken
        request.httpBody = Data("grant_type=refresh_token&refresh_token=\(encoded)".utf8)
        return try await send(request)
    }

    private static func send(_ request: URLRequest) async throws -> Result {
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return Result(status: status, body: String(decoding: data, as: UTF8.self))
    }
}
