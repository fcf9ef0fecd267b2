import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
#if canImport(FoundationNetworking)
import FoundationNetworking
@_spi(Generated) import SesameDescription
#endif

/// Redirects, followed by the pipeline itself: the credential goes only to the back-end's
/// origin, and never again once a chain has left it.
@Suite struct RedirectTests {
    let notes = OperationRequest(TestRequests.notes)
    static let createNote = RequestDescription(name: "createNote", method: .post, path: "/notes/new")
    static let deleteNote = RequestDescription(name: "deleteNote", method: .delete, path: "/notes/1")

    /// A signed-in service over a routing transport.
    func signedIn() async throws -> (AuthenticationService<TestSchema>, RoutingTransport, ManualClock) {
        let transport = RoutingTransport()
        let clock = ManualClock()
        let service = makeService(transport: transport, clock: clock)
        _ = try await service.authenticate(with: TestSingleStepMethod.guest)
        return (service, transport, clock)
    }

    @Test func aCrossOriginRedirectDropsTheCredential() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/notes" ? .redirect(302, to: "https://cdn.test/notes.json") : nil }
        let response = try await service.perform(notes)
        #expect(response.status == 200)
        let sent = await transport.sent.suffix(2)
        #expect(sent.map(\.url) == ["https://auth.test/notes", "https://cdn.test/notes.json"])
        #expect(sent.first?.authorization == "Bearer at-1")
        #expect(sent.last?.authorization == nil)
    }

    @Test(arguments: ["/v2/notes", "v2/notes", "https://auth.test/v2/notes", "https://AUTH.test:443/v2/notes"])
    func aSameOriginRedirectKeepsTheCredential(location: String) async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/notes" ? .redirect(307, to: location) : nil }  // /v2/notes: 200 {}
        _ = try await service.perform(notes)
        let last = try #require(await transport.sent.last)
        #expect(last.url.lowercased().replacingOccurrences(of: ":443", with: "") == "https://auth.test/v2/notes")
        #expect(last.authorization == "Bearer at-1")
    }

    @Test(arguments: ["http://auth.test/notes", "https://auth.test:8443/notes", "https://sub.auth.test/notes"])
    func aRedirectToAnotherSchemeOrPortOrHostDropsTheCredential(location: String) async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.url == "https://auth.test/notes" ? .redirect(301, to: location) : nil }
        _ = try await service.perform(notes)
        let last = try #require(await transport.sent.last)
        #expect(last.url == location)
        #expect(last.authorization == nil)
    }

    @Test func aChainThatLeftTheOriginNeverCarriesTheCredentialAgain() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { request in
            switch request.url {
            case "https://auth.test/notes": return .redirect(302, to: "https://cdn.test/bounce")
            case "https://cdn.test/bounce": return .redirect(302, to: "https://auth.test/landing")
            case "https://auth.test/landing": return RoutingTransport.Answer(status: 200, body: "[]")
            default: return nil
            }
        }
        _ = try await service.perform(notes)
        let sent = await transport.sent.suffix(3)
        #expect(sent.map(\.url) == ["https://auth.test/notes", "https://cdn.test/bounce", "https://auth.test/landing"])
        #expect(sent.map(\.authorization) == ["Bearer at-1", nil, nil])
    }

    @Test func aRedirectLoopStopsAfterFiveRedirectsWithATypedError() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/notes" ? .redirect(302, to: "/notes") : nil }
        let before = await transport.sent.count
        await #expect(throws: SesameError.transport(operation: "listNotes", reason: "more than 5 redirects")) {
            try await service.perform(notes)
        }
        // The request and five redirects, then nothing more.
        #expect(await transport.sent.count - before == 6)
        #expect(await service.state.isAuthenticated)
    }

    @Test func aRejectionAtTheEndOfASameOriginChainRefreshesAndRetriesTheWholeChain() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/old-notes" ? .redirect(308, to: "/notes") : nil }
        await transport.backEnd.revokeAccessTokens()
        let response = try await service.perform(OperationRequest(RequestDescription(name: "oldNotes", method: .get, path: "/old-notes")))
        #expect(response.status == 200)
        #expect(await transport.refreshes == 1)
        let sent = await transport.sent.filter { $0.path.hasSuffix("notes") }.map { "\($0.path) \($0.authorization ?? "none")" }
        #expect(sent == ["/old-notes Bearer at-1", "/notes Bearer at-1", "/old-notes Bearer at-2", "/notes Bearer at-2"])
    }

    @Test func aRejectionFromAnotherOriginAfterARedirectIsNotTheAuthServers() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { request in
            if request.url == "https://auth.test/notes" { return .redirect(302, to: "https://cdn.test/private") }
            if request.url == "https://cdn.test/private" {
                return RoutingTransport.Answer(
                    status: 401,
                    headerFields: [
                        .wwwAuthenticate: "Bearer error=\"invalid_token\"",
                        .contentType: "application/json",
                    ],
                    body: #"{"error":"invalid_token"}"#)
            }
            return nil
        }
        await #expect(throws: TestServerError.self) { try await service.perform(notes) }
        #expect(await transport.refreshes == 0)
        #expect(await service.state.isAuthenticated)
    }

    @Test func seeOtherTurnsAPostIntoAGetWithoutItsBody() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/notes/new" ? .redirect(303, to: "/notes/created") : nil }
        _ = try await service.perform(OperationRequest(Self.createNote, body: try .json(["text": "hello"])))
        let last = try #require(await transport.sent.last)
        #expect(last.method == .get)
        #expect(last.path == "/notes/created")
        #expect(last.body.isEmpty)
        #expect(last.headerFields[.contentType] == nil)
        #expect(last.authorization == "Bearer at-1")
    }

    @Test(arguments: [
        (301, HTTPRequest.Method.post, HTTPRequest.Method.get), (302, .post, .get), (302, .delete, .delete),
        (303, .delete, .get), (307, .post, .post), (308, .post, .post),
    ])
    func methodsFollowTheFetchStandard(status: Int, method: HTTPRequest.Method, expected: HTTPRequest.Method) async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/notes/x" ? .redirect(status, to: "/notes/y") : nil }
        let description = RequestDescription(name: "x", method: try #require(RequestMethod(rawValue: method.rawValue)), path: "/notes/x")
        _ = try await service.perform(OperationRequest(description, body: method == .post ? try .json(["text": "hi"]) : nil))
        let last = try #require(await transport.sent.last)
        #expect(last.path == "/notes/y")
        #expect(last.method == expected)
        #expect(last.body == (expected == .post ? #"{"text":"hi"}"# : ""))
    }

    @Test func aBodyIsNeverResentToAnotherOrigin() async throws {
        let (service, transport, _) = try await signedIn()
        await transport.setRoute { $0.path == "/notes/new" ? .redirect(307, to: "https://elsewhere.test/notes") : nil }
        do {
            _ = try await service.perform(OperationRequest(Self.createNote, body: try .json(["text": "secret"])))
            Issue.record("expected the 307 to be returned")
        } catch let error as TestServerError {
            #expect(error.response.status == 307)
        }
        #expect(await transport.count { $0.url.hasPrefix("https://elsewhere.test") } == 0)
    }

    @Test func theRefreshRequestIsNotReplayedToAnotherOrigin() async throws {
        let (service, transport, clock) = try await signedIn()
        await transport.setRoute { request in
            request.url == "https://auth.test/oauth/token" ? .redirect(307, to: "https://evil.test/oauth/token") : nil
        }
        clock.advance(by: 4000)
        await #expect(throws: TestServerError.self) { try await service.perform(notes) }
        #expect(await transport.count { $0.url.hasPrefix("https://evil.test") } == 0)
    }

    @Test func clientAuthenticationIsDroppedWhenARedirectLeavesTheOrigin() async throws {
        let (service, transport, clock) = try await signedIn()
        // 303: the refresh becomes a GET without its body; its Basic header must not follow.
        await transport.setRoute { request in
            request.url == "https://auth.test/oauth/token" ? .redirect(303, to: "https://evil.test/token") : nil
        }
        clock.advance(by: 4000)
        _ = try? await service.perform(notes)
        let evil = await transport.sent.filter { $0.url.hasPrefix("https://evil.test") }
        #expect(evil.count == 1)
        #expect(evil.first?.authorization == nil)
        #expect(evil.first?.body == "")
    }

    @Test func thePublicMiddlewareFollowsRedirectsForOpenAPIClients() async throws {
        let (service, _, _) = try await signedIn()
        let seen = LogCapture()
        let (response, _) = try await service.credentialMiddleware.intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
            baseURL: URL(string: "https://auth.test")!, operationID: "x"
        ) { request, _, baseURL in
            seen.append("\(baseURL.absoluteString)\(request.path ?? "") \(request.headerFields[.authorization] ?? "none")")
            if baseURL.host == "auth.test" {
                return (HTTPResponse(status: .found, headerFields: [.location: "https://cdn.test/y?z=1"]), nil)
            }
            return (HTTPResponse(status: .ok), nil)
        }
        #expect(response.status == .ok)
        #expect(seen.text == "https://auth.test/x Bearer at-1\nhttps://cdn.test/y?z=1 none")
    }

    @Test func anAppsOwnAuthorizationIsDroppedWhenARedirectChangesOrigin() async throws {
        let (service, _, _) = try await signedIn()
        let seen = LogCapture()
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/a")
        request.headerFields[.authorization] = "Bearer third-party"
        request.headerFields[.cookie] = "id=1"
        _ = try await service.credentialMiddleware.intercept(
            request, body: nil, baseURL: URL(string: "https://api.other.test")!,
            operationID: "x"
        ) { request, _, baseURL in
            seen.append(
                "\(baseURL.host ?? "") \(request.headerFields[.authorization] ?? "none") \(request.headerFields[.cookie] ?? "none")")
            if baseURL.host == "api.other.test" {
                return (HTTPResponse(status: .temporaryRedirect, headerFields: [.location: "https://cdn.test/a"]), nil)
            }
            return (HTTPResponse(status: .ok), nil)
        }
        #expect(seen.text == "api.other.test Bearer third-party id=1\ncdn.test none none")
    }

    // MARK: Where a redirect goes

    func hop(
        _ status: Int, _ location: String?, path: String = "/notes", base: String = "https://auth.test",
        method: HTTPRequest.Method = .get
    ) -> (url: String, changedOrigin: Bool)? {
        var fields = HTTPFields()
        if let location { fields[.location] = location }
        let current = RedirectFollower.Hop(
            request: HTTPRequest(method: method, scheme: nil, authority: nil, path: path),
            body: nil, baseURL: URL(string: base)!)
        guard
            let hop = RedirectFollower.hop(
                after: HTTPResponse(status: .init(code: status), headerFields: fields),
                from: current, strippingOnOriginChange: [.authorization])
        else { return nil }
        return (RedirectFollower.url(of: hop.next.request, baseURL: hop.next.baseURL)?.absoluteString ?? "?", hop.changedOrigin)
    }

    @Test func locationsResolveAgainstTheRequestsURL() {
        #expect(hop(302, "next", path: "/v1/notes", base: "https://auth.test/api")?.url == "https://auth.test/api/v1/next")
        #expect(hop(302, "/a?b=c#frag")?.url == "https://auth.test/a?b=c")
        #expect(hop(302, "//cdn.test/a")?.url == "https://cdn.test/a")
        #expect(hop(302, "https://user:pw@cdn.test:8443")?.url == "https://cdn.test:8443/")
        #expect(hop(302, "//cdn.test/a")?.changedOrigin == true)
        #expect(hop(302, "/a")?.changedOrigin == false)
    }

    @Test func onlyFollowableRedirectsAreFollowed() {
        #expect(hop(300, "/a") == nil)
        #expect(hop(304, "/a") == nil)
        #expect(hop(305, "/a") == nil)
        #expect(hop(302, nil) == nil)
        #expect(hop(302, "ftp://files.test/a") == nil)
        #expect(hop(302, "javascript:alert(1)") == nil)
        #expect(hop(200, "/a") == nil)
    }

    // MARK: The transport

    /// The default transport, `StreamingURLSessionTransport.shared`, and one made with a
    /// session of its own decline every redirect.
    @Test func theDefaultTransportDoesNotFollowRedirects() throws {
        let configuration = AuthenticationServiceConfiguration<TestDetails>()
        let streaming = try #require(configuration.transport as? StreamingURLSessionTransport)
        #expect(streaming === StreamingURLSessionTransport.shared)
        // Kept alive to the end: a transport invalidates its session when it goes away, and an
        // invalidated session has no delegate left.
        let own = StreamingURLSessionTransport(configuration: .ephemeral)
        defer { withExtendedLifetime(own) {} }
        for session in [streaming.session, own.session] {
            let delegate = try #require(session.delegate as? RedirectRefusal)
            let url = URL(string: "https://auth.test/notes")!
            let task = URLSession(configuration: .ephemeral).dataTask(with: url)
            let response = HTTPURLResponse(
                url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": "https://cdn.test/"])!
            let followed = LogCapture()
            delegate.urlSession(
                session, task: task, willPerformHTTPRedirection: response,
                newRequest: URLRequest(url: URL(string: "https://cdn.test/")!)
            ) { request in
                followed.append(request == nil ? "declined" : "followed")
            }
            #expect(followed.text == "declined")
        }
    }

    /// swift-openapi-urlsession's `URLSessionTransport` buffers whole bodies on Linux, so live
    /// events would never arrive through it: the service reads its event stream through a
    /// `StreamingURLSessionTransport` instead (it recognises the transport by name, as the
    /// runtime does not link that package), and keeps any other transport for events.
    @Test func aURLSessionTransportIsNotTheEventStreamsOnLinux() async {
        let service = AuthenticationService<TestSchema>(configuration: .init(transport: URLSessionTransport()))
        #if canImport(FoundationNetworking)
        #expect(await service.eventPipeline.transport is StreamingURLSessionTransport)
        #else
        #expect(await service.eventPipeline.transport is URLSessionTransport)
        #endif
        let own = StreamingURLSessionTransport(configuration: .ephemeral)
        let other = AuthenticationService<TestSchema>(configuration: .init(transport: own))
        #expect(await other.eventPipeline.transport as? StreamingURLSessionTransport === own)
    }
}
