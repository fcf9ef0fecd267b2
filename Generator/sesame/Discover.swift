import ArgumentParser
import Foundation
import SesameGenerator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DiscoveryImport.Algorithms: ExpressibleByArgument {}

struct Discover: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes an authorization server's discovery document into a schema's sdk.yaml.",
        discussion: """
            Reads OpenID Connect Discovery 1.0 / RFC 8414 metadata from a URL (an issuer, or its
            /.well-known/openid-configuration or /.well-known/oauth-authorization-server URL) or
            from a file, checks it (the issuer must be the one the URL names, Discovery §4.3;
            https only, except on loopback; a file needs --issuer), and sets authorizationServer's
            baseURL, issuer and issuerInResponses in SCHEMA/sdk.yaml in place, keeping comments,
            other keys, line endings and the file's mode. It refuses, writing nothing, to edit a
            value that is an alias, anchored, tagged or a block scalar, and a symlinked sdk.yaml.
            The download follows no redirect, answers no HTTP authentication, stops past 1 MiB
            and within --timeout seconds. Notes list the path each endpoint has, for the schema's
            request lines. openID.algorithms follows the server (--algorithms replace, the
            default) or keeps the schema's and adds the server's (--algorithms merge, for a
            schema used with servers that sign differently). With --check, writes nothing and
            exits 1 when sdk.yaml is not up to date with the document.
            Examples:
              sesame discover https://idp.example.com --schema Schema
              sesame discover metadata.json --issuer https://idp.example.com --schema Schema --check
            """
    )

    @Argument(help: "The issuer or discovery URL, or a file holding the document.")
    var source: String

    @Option(help: "The schema folder whose sdk.yaml is updated.")
    var schema: String

    @Option(help: "The issuer the document must name, exactly: required for a file; for a URL, it must be the URL's.")
    var issuer: String?

    @Option(help: "Seconds the whole download may take (default 10).")
    var timeout: Double = 10

    @Option(
        help: """
            What becomes of the openID.algorithms sdk.yaml lists: replace (the server's, narrowed to the schema's \
            choice when it lists some of them) or merge (the schema's kept, the server's added: for a schema used \
            with servers that sign differently).
            """)
    var algorithms: DiscoveryImport.Algorithms = .replace

    @Flag(help: "Write nothing; exit 1 when sdk.yaml would change.")
    var check = false

    @Option(help: "How diagnostics are printed: text, json or github.")
    var format: OutputFormat = .text

    func run() throws {
        let (data, file, expected, alsoAccepted) = try load()
        let (document, documentDiagnostics) = DiscoveryDocument.read(
            data, file: file, expectedIssuer: expected, alsoAccepted: alsoAccepted)
        DiagnosticPrinter.print(documentDiagnostics, format: format)
        guard let document else { throw ExitCode(1) }
        let path = URL(fileURLWithPath: schema).appendingPathComponent("sdk.yaml").path
        // A file the user wrote: never replaced through or instead of a link, its mode kept.
        var status = stat()
        guard lstat(path, &status) == 0 else { throw ValidationError("\(path) cannot be read") }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw ValidationError(
                "\(path) is a symbolic link or not a regular file: sesame discover writes only a regular sdk.yaml; run it on the file the link points to"
            )
        }
        guard let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ValidationError("\(path) cannot be read")
        }
        let result = DiscoveryImport.update(text, file: path, with: document, algorithms: algorithms)
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
        try OutputFolder.replace(path, with: updated, mode: status.st_mode & 0o7777, sync: true)
        if format == .text { FileHandle.standardError.write(Data("\(path): updated from \(file)\n".utf8)) }
    }

    /// The document's bytes, its name for diagnostics, the issuer it must name and the other
    /// spellings of it accepted (`DiscoveryDocument.location(of:)`).
    private func load() throws -> (Data, String, String, [String]) {
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            guard let issuer else {
                throw ValidationError(
                    "\(source) is a file: give --issuer, the issuer it must name (OpenID Connect Discovery 1.0 §4.3), so that a document for another server is refused"
                )
            }
            guard let data = FileManager.default.contents(atPath: source) else { throw ValidationError("\(source) cannot be read") }
            return (data, source, issuer, [])
        }
        // Credentials in the URL would go into the issuer, sdk.yaml and diagnostics: refused before
        // anything is fetched or printed, without echoing the URL.
        guard url.user == nil, url.password == nil else {
            throw ValidationError(
                "the discovery URL has a user name or password in it: give the issuer's URL without credentials (discovery documents are public)"
            )
        }
        let location = DiscoveryDocument.location(of: url)
        guard WebOrigin.isSecure(location.fetch) else {
            throw ValidationError("\(location.fetch.absoluteString): refusing plain http outside loopback")
        }
        if let issuer, issuer != location.issuer, !location.alsoAccepted.contains(issuer) {
            throw ValidationError("--issuer \(issuer) is not the issuer \(url.absoluteString) names (\(location.issuer))")
        }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds") }
        let data: Data
        do {
            data = try DocumentDownload.get(location.fetch, limit: DiscoveryDocument.maximumSize, deadline: timeout)
        } catch let failure as DocumentDownload.Failure {
            throw ValidationError(failure.description)
        }
        // --issuer, when given, is the exact spelling the document must use.
        return (data, location.fetch.absoluteString, issuer ?? location.issuer, issuer == nil ? location.alsoAccepted : [])
    }
}
