import Foundation
import NotesSDK
import SesameStore

/// The tutorial's app (docs/tutorial): each launch of `notes` runs one command against the
/// back-end, and the session and each user's notes stay on disk between launches.
struct NotesApp {
    let app: AppSession<NotesSDKSchema>

    /// `server` is the back-end's origin (API and authorization server: the issuer too);
    /// `directory` keeps the saved session and each user's store.
    init(server: URL, directory: URL, browser: any Browser) throws {
        app = try AppSession(
            configuration: .init(
                service: .init(
                    baseURL: server,
                    client: ClientCredentials(clientID: "sesame-demo-app"),  // a public client: no secret
                    authorizationServerURL: server,
                    browser: browser,
                    authorizationServerIssuer: .init(issuer: server.absoluteString, sentInResponses: true)),
                directory: directory))
    }

    /// Runs one command and returns what to print.
    func run(_ arguments: [String]) async throws -> [String] {
        // At launch: the saved session, if any, is refreshed (presession, then authenticated).
        let state = await app.restoreSession()
        switch arguments.first {
        case "sign-in" where arguments.count == 3:
            let user = try await signIn(username: arguments[1], password: arguments[2])
            return ["Signed in as \(user.uid) (\(user.provider))."]
        case "me":
            guard case .authenticated = state else { return ["Not signed in (\(state))."] }
            let user = try await me()
            return ["Signed in as \(user.uid) (\(user.provider)); the session was restored and refreshed."]
        // tutorial:begin case-browser
        case "sign-in" where arguments == ["sign-in", "--browser"]:
            let user = try await signInInBrowser()
            return ["Signed in as \(user.uid) (\(user.provider)) in the browser."]
        // tutorial:end case-browser
        // tutorial:begin case-notes
        case "add" where arguments.count == 2:
            let note = try await add(arguments[1])
            return ["Added \(note.id)."]
        // tutorial:end case-notes
        // tutorial:begin case-store
        case "sync":
            let stored = try await sync()
            return ["\(stored.count) note(s) in \(app.currentContext?.userID ?? "nobody")'s store:"]
                + stored.map { "- \($0.text)" }
        // tutorial:end case-store
        // tutorial:begin case-sign-out
        case "sign-out":
            let result = await signOut()
            return ["Signed out (\(result))."]
        // tutorial:end case-sign-out
        default:
            return ["usage: notes sign-in USER PASSWORD | sign-in --browser | me | add TEXT | sync | sign-out"]
        }
    }

    // tutorial:begin password
    /// Signs in with the `password` method of auth.yaml: the SDK keeps the tokens, refreshes
    /// them and saves the session.
    func signIn(username: String, password: String) async throws -> User {
        try await app.auth.authenticate(with: SingleStepMethod.password(username: username, password: password))
    }

    /// The `me` operation: who the server says is signed in.
    func me() async throws -> User {
        try await app.auth.me()
    }
    // tutorial:end password

    // tutorial:begin browser
    /// Signs in with the `openid` method: the browser opens the server's login page, and the
    /// ID token of the answer is validated before the user is signed in.
    func signInInBrowser() async throws -> User {
        try await app.auth.authenticate(with: SingleStepMethod.openid)
    }
    // tutorial:end browser

    // tutorial:begin notes
    /// The `createNote` operation: the body and the answer are models of models.yaml.
    func add(_ text: String) async throws -> Note {
        try await app.auth.createNote(NewNote(text: text))
    }
    // tutorial:end notes

    // tutorial:begin store
    /// Copies the user's notes from the server into their own store, then reads them back.
    func sync() async throws -> [NotesSDKStore.Persistence.Note] {
        let notes = try await app.auth.listNotes()
        guard let context = app.currentContext else { throw SesameError.notAuthenticated }
        return try await context.stores.persistence.write { db in
            for note in notes {
                try NotesSDKStore.Persistence.Note(
                    id: note.id, text: note.text, createdAt: note.createdAt.timeIntervalSince1970
                ).save(db)
            }
            return try NotesSDKStore.Persistence.Note.order(NotesSDKStore.Persistence.Note.Columns.createdAt).fetchAll(db)
        }
    }
    // tutorial:end store

    // tutorial:begin sign-out
    /// Signs out: the `logout` operation ends the session on the server, the saved session is
    /// forgotten and the user's store is closed (its files stay for their next sign-in).
    func signOut() async -> UnauthenticationResult {
        await app.auth.unauthenticate()
    }
    // tutorial:end sign-out
}
