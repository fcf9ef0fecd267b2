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

    /// A plain GET, as a browser loads a page.
    static func get(_ url: URL) async throws -> Result {
        try await send(URLRequest(url: url))
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

    /// `POST /_control/device` on the API's origin: the user approves (as `username`) or
    /// denies the device authorization of `userCode`.
    static func decideDevice(_ baseURL: URL, userCode: String, approve: Bool, username: String? = nil) async throws -> Result {
        var request = URLRequest(url: baseURL.appending(path: "_control/device"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        var body: [String: Any] = ["userCode": userCode, "approve": approve]
        if let username { body["username"] = username }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        return try await send(request)
    }

    /// A form posted as the browser of the user's phone would: the device approval page.
    static func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> Result {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let encoded = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }
        request.httpBody = Data(encoded.joined(separator: "&").utf8)
        return try await send(request)
    }

    private static func send(_ request: URLRequest) async throws -> Result {
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return Result(status: status, body: String(decoding: data, as: UTF8.self))
    }
}
