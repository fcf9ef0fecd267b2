import Foundation
import GRDB
import ReferenceSDK
import SesameStore
import SesameTestSupport

/// An app as it runs: an `AppSession` over the reference back-end, and its service wrapped
/// for the secret scan.
struct TestApp: Sendable {
    let app: AppSession<ReferenceSDKSchema>
    let service: Service

    /// The current user's id, nil without a context.
    var contextUser: String? { app.currentContext?.userID }

    /// The notes in the current user's persistence store.
    func storedNotes() throws -> [String] {
        guard let context = app.currentContext else { throw Unexpected("no user context is open") }
        return try context.stores.persistence.read { db in
            try ReferenceSDKStore.Persistence.Note.order(ReferenceSDKStore.Persistence.Note.Columns.id).fetchAll(db).map(\.text)
        }
    }

    /// Writes a note into the current user's persistence store.
    func storeNote(_ text: String) throws {
        guard let context = app.currentContext else { throw Unexpected("no user context is open") }
        try context.stores.persistence.write { db in
            try ReferenceSDKStore.Persistence.Note(id: UUID().uuidString, text: text, createdAt: 0).insert(db)
        }
    }
}

extension EndToEnd {
    /// Makes an app whose contexts live in `folder`, watched by the test's secret scan like
    /// ``makeService(store:receivesServerEvents:traffic:logs:client:restorationDelegate:)``.
    func makeApp(
        in folder: TemporaryDirectory, userDataOnSignOut: UserDataOnSignOut = .keep, logs: LogCapture = LogCapture(),
        restorationDelegate: any SessionRestorationDelegate<AuthenticationDetails> = DefaultSessionRestorationDelegate(),
        sharing: SessionSharing = .singleProcess
    )
        throws -> TestApp
    {
        let clock = self.clock
        let app = try AppSession<ReferenceSDKSchema>(
            configuration: .init(
                service: .init(
                    baseURL: backEnd.baseURL,
                    client: ClientCredentials(clientID: BackEnd.clientID, clientSecret: BackEnd.clientSecret),
                    now: { clock.now }, logger: logs.logger(label: "e2e.app"),
                    restorationDelegate: restorationDelegate, receivesServerEvents: false,
                    authorizationServerURL: backEnd.authorizationBaseURL, authorizationServerIssuer: backEnd.declaredIssuer),
                directory: folder.url, userDataOnSignOut: userDataOnSignOut, sharing: sharing))
        scan.lookFor(Secret(kind: "clientSecret", value: BackEnd.clientSecret))
        scan.watch(logs)
        scan.watch(app.auth)
        return TestApp(app: app, service: Service(runtime: app.auth, scan: scan))
    }
}

extension EndToEnd {
    /// An earlier launch of the app in `folder`: Ada signs in with a code and writes `note`
    /// into her persistence store; the app then goes away, its session saved.
    func earlierLaunch(in folder: TemporaryDirectory, writing note: String) async throws -> AuthenticationDetails {
        let first = try makeApp(in: folder)
        let ada = try await signInInternal(first.service, identifier: "ada@example.com")
        try first.storeNote(note)
        return ada
    }
}

/// The notes in a user's persistence file, read with GRDB alone (no context open).
func notesOnDisk(ofUser uid: String, in folder: TemporaryDirectory) throws -> [String] {
    let directory = try UserContext.directory(for: uid, root: folder.url)
    let queue = try DatabaseQueue(path: directory.appendingPathComponent(ContextStores.persistenceFileName).path)
    defer { try? queue.close() }
    return try queue.read { db in try String.fetchAll(db, sql: #"SELECT "text" FROM "Note" ORDER BY "id""#) }
}
