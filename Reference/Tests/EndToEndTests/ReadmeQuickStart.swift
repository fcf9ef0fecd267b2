// The README's "Using the generated SDK" example, compiled with the tests: ReadmeTests checks
// that the README shows exactly these imports and this function's body. Change both together.
import Foundation
import ReferenceSDK
import SesameStore

/// Never called (it would reach `auth.example.com`): it only has to compile.
func readmeQuickStart() async throws {
    let app = try AppSession<ReferenceSDKSchema>(
        configuration: .init(
            service: .init(
                baseURL: URL(string: "https://auth.example.com")!,
                client: ClientCredentials(clientID: "my-app", clientSecret: "…"))))
    await app.restoreSession()  // at launch: presession, the user's data open

    let user = try await app.auth.authenticate(with: SingleStepMethod.guest)  // opens the user's context
    print("signed in as", user.uid, "with the files of", app.currentContext?.userID ?? "nobody")
    let notes = try await app.auth.listNotes(limit: 20)  // generated operation, typed result
    try await app.currentContext?.stores.persistence.write { db in  // the user's own SQLite files
        for note in notes {
            try ReferenceSDKStore.Persistence.Note(
                id: note.id.uuidString, text: note.text,
                createdAt: note.createdAt.timeIntervalSince1970
            ).save(db)
        }
    }

    try await app.auth.initializeAuthentication(with: MultiStepMethod.internal(identifier: "ada@example.com"))
    try await app.auth.continueAuthentication(with: AuthenticationInput.internalContinue(code: "123456"))
    await app.auth.unauthenticate()  // closes the context; the user's files stay

    for await event in await app.auth.events() { print(event) }  // state changes, refreshes, server events
}
