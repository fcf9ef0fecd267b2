import Foundation
import NotesAPISDK
import ReferenceServer
import SesameTestSupport
import Testing

/// The SDK of docs/tutorial/existing-back-end.md (Reference/Sources/NotesAPISDK: its models
/// are the OpenAPI document's, its authorization server what `sesame discover` wrote) against
/// the back-end the document describes, the reference server, over loopback.
@Suite("The existing back-end tutorial's SDK")
struct ExistingBackEndTests {
    @Test("a browser sign-in, then the document's models sent and decoded")
    func signInAndNotes() async throws {
        let server = ReferenceServer(configuration: .init(port: 0))
        let endpoint = try await server.start()
        let service = AuthenticationService<NotesAPISDKSchema>(
            configuration: .init(
                baseURL: endpoint.baseURL, client: ClientCredentials(clientID: "sesame-demo-app"),
                receivesServerEvents: false, authorizationServerURL: endpoint.baseURL,
                browser: HeadlessBrowser(username: "alice", password: "wonderland"),
                authorizationServerIssuer: .init(issuer: endpoint.baseURL.absoluteString, sentInResponses: true)))
        do {
            let user = try await service.authenticate(with: SingleStepMethod.openid)
            #expect(user.uid == "pw-alice")
            #expect(user.provider == .password)
            let note = try await service.createNote(NewNote(text: "From the OpenAPI document"))
            #expect(note.text == "From the OpenAPI document" && note.pinned == false)
            #expect(try await service.listNotes() == [note])
            #expect(await server.state.counters().tokenGrants["authorization_code"] == 1)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
