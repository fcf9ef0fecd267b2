import ArgumentParser
import Foundation
import SesameGenerator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Discover: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes an authorization server's discovery document into a schema's sdk.yaml.",
        discussion: """
            Reads OpenID Connect Discovery 1.0 / RFC 8414 metadata from a URL (an issuer, or its
            /.well-known/openid-configuration or /.well-known/oauth-authorization-server URL) or
            from a file, checks it (the issuer must be the one the URL names, Discovery §4.3;
            https only, except on loopback), and sets authorizationServer's baseURL, issuer and
            issuerInResponses in SCHEMA/sdk.yaml in place, keeping comments and other keys. Notes
            list the path each endpoint has, for the schema's request lines. With --check, writes
            nothing and exits 1 when sdk.yaml is not up to date with the document.
            Examples:
              sesame discover https://idp.example.com --schema Schema
              sesame discover metadata.json --issuer https://idp.example.com --schema Schema --check
            """
    )

    @Argument(help: "The issuer or discovery URL, or a file holding the document.")
    var source: String

    @Option(help: "The schema folder whose sdk.yaml is updated.")
    var schema: String

    @Option(help: "For a file: the issuer the document must name.")
    var issuer: String?

    @Flag(help: "Write nothing; exit 1 when sdk.yaml would change.")
    var check = false

    @Option(help: "How diagnostics are printed: text, json or github.")
    var format: OutputFormat = .text

    func run() throws {
        let (data, file, expectedIssuer) = try load()
        let (document, documentDiagnostics) = DiscoveryDocument.read(data, file: file, expectedIssuer: expectedIssuer)
        DiagnosticPrinter.print(documentDiagnostics, format: format)
        guard let document else { throw ExitCode(1) }
        let path = URL(fileURLWithPath: schema).appendingPathComponent("sdk.yaml").path
        guard let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ValidationError("\(path) cannot be read")
        }
        let result = DiscoveryImport.update(text, file: path, with: document)
        DiagnosticPrinter.print(result.diagnostics, format: format)
        guard let updated = result.text else { throw ExitCode(1) }
        if updated == text {
            if format == .text { FileHandle.standardError.write(Data("\(path): up to date with \(file)\n".utf8)) }
            return
        }
        if check {
            FileHandle.standardError.write(Data("\(path): not up to date with \(file)\n".utf8))
            throw ExitCode(1)
        }
        try OutputFolder.replace(path, with: updated)
        if format == .text { FileHandle.standardError.write(Data("\(path): updated from \(file)\n".utf8)) }
    }

    /// The document's bytes, its name for diagnostics, and the issuer it must name.
    private func load() throws -> (Data, String, String?) {
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            guard let data = FileManager.default.contents(atPath: source) else { throw ValidationError("\(source) cannot be read") }
            return (data, source, issuer)
        }
        let location = DiscoveryDocument.location(of: url)
        guard DiscoveryDocument.isSecure(location.fetch) else {
            throw ValidationError("\(location.fetch.absoluteString): refusing plain http outside loopback")
        }
        return (try Self.fetch(location.fetch), location.fetch.absoluteString, location.issuer)
    }

    /// GETs `url` within 10 seconds, following no redirect, reading at most the document limit.
    /// - Throws: `ValidationError` for a transport failure, a status other than 200, or a body too large.
    static func fetch(_ url: URL) throws -> Data {
        final class Box: @unchecked Sendable {
            var result: Result<Data, ValidationError> = .failure(ValidationError("no answer"))
        }
        final class NoRedirects: NSObject, URLSessionTaskDelegate {
            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
            ) {
                completionHandler(nil)
            }
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        let task = session.dataTask(with: request) { data, response, error in
            defer { done.signal() }
            if let error {
                box.result = .failure(ValidationError("\(url.absoluteString): \(error.localizedDescription)"))
                return
            }
            guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                box.result = .failure(ValidationError("\(url.absoluteString): HTTP \(status), expected 200 (redirects are not followed)"))
                return
            }
            guard let data, data.count <= DiscoveryDocument.maximumSize else {
                box.result = .failure(
                    ValidationError("\(url.absoluteString): the document is larger than \(DiscoveryDocument.maximumSize) bytes"))
                return
            }
            box.result = .success(data)
        }
        task.resume()
        done.wait()
        session.finishTasksAndInvalidate()
        return try box.result.get()
    }
}
