import Foundation
import HTTPTypes
import ReferenceSDK
import ReferenceSDKTestSupport
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// A response the runtime reads, and how a test gets the runtime to read it.
enum MalformedResponseTarget: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case me, logout, identities, detachIdentity, destroyAccount, listNotes, createNote, serverStatus
    case guest = "guest.authenticate"
    case internalInitialize = "internal.initialize"
    case internalContinue = "internal.continue"
    case password = "password.authenticate"
    case custom = "custom.authenticate"
    case refresh
    /// The details the runtime fetches with the new credential at the end of a sign-in.
    case detailsDuringSignIn = "me (during sign-in)"

    var testDescription: String { rawValue }

    /// A UUID for the bodies that need one (a challenge's, a note's).
    static let someUUID = "3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55"

    /// The name of the request, as errors report it.
    var requestName: String { self == .detailsDuringSignIn ? "me" : rawValue }

    /// `METHOD /path` of the request.
    var route: String {
        switch self {
        case .me, .detailsDuringSignIn: "GET /me"
        case .logout: "POST /auth/logout"
        case .identities: "GET /identities"
        case .detachIdentity: "DELETE /identities/guest"
        case .destroyAccount: "DELETE /account"
        case .listNotes: "GET /notes"
        case .createNote: "POST /notes"
        case .serverStatus: "GET /status"
        case .guest: "POST /auth/guest"
        case .internalInitialize: "POST /auth/internal/challenge"
        case .internalContinue: "POST /auth/internal/verify"
        case .password, .refresh: "POST /oauth/token"
        case .custom: "POST /auth/custom"
        }
    }

    /// A well-formed body, nil when the runtime does not read it (the operation declares no response).
    var wellFormed: JSONValue? {
        let token: JSONValue = .object(["access_token": .string("at"), "token_type": .string("Bearer"), "expires_in": .integer(60)])
        let identity: JSONValue = .object(["provider": .string("guest"), "providerUID": .string("p1"), "attachedOn": .string("2024-05-01")])
        let note: JSONValue = .object([
            "id": .string(MalformedResponseTarget.someUUID), "text": .string("milk"), "createdAt": .string("2024-05-01T12:00:00Z"),
        ])
        switch self {
        case .me, .detailsDuringSignIn:
            return .object(["uid": .string("u1"), "provider": .string("guest"), "providerUID": .string("p1")])
        case .logout, .destroyAccount: return nil
        case .identities: return .array([identity])
        case .detachIdentity: return .object(["accountDestroyed": .bool(false)])
        case .listNotes: return .array([note])
        case .createNote: return note
        case .serverStatus: return .object(["status": .string("ok")])
        case .guest, .internalContinue, .password, .custom, .refresh: return token
        case .internalInitialize: return .object(["challengeId": .string(MalformedResponseTarget.someUUID)])
        }
    }

    /// The fields the runtime needs (in the object, or in each item of an array).
    var requiredFields: [String] {
        switch self {
        case .me, .detailsDuringSignIn: ["uid", "provider", "providerUID"]
        case .logout, .destroyAccount: []
        case .identities: ["provider", "providerUID", "attachedOn"]
        case .detachIdentity: ["accountDestroyed"]
        case .listNotes, .createNote: ["id", "text", "createdAt"]
        case .serverStatus: ["status"]
        case .guest, .internalContinue, .password, .custom, .refresh: ["access_token"]
        case .internalInitialize: ["challengeId"]
        }
    }

    /// Whether the runtime rightly accepts this 2xx body: an operation without a response
    /// ignores any body within the size limit, and the runtime checks only that the fields
    /// a later step reads from `initialize` are there (their type is the back-end's to
    /// judge when the next step sends them).
    func accepts(_ body: MalformedBody) -> Bool {
        switch self {
        case .logout, .destroyAccount: body != .tenMegabytes
        case .internalInitialize: body == .wrongTypes || body == .hugeArrayForRequiredFields
        default: false
        }
    }

    /// Sets the world up so that ``run(on:)`` sends this target's request next.
    func prepare(_ world: MalformedResponseWorld) async throws {
        switch self {
        case .internalContinue:
            _ = try await world.service.initializeAuthentication(with: MultiStepMethod.internal(identifier: "ada@example.com"))
        case .refresh:
            world.clock.advance(by: Double(MalformedResponseWorld.tokenLifetime) + 1)
        default:
            break
        }
    }

    /// Makes the runtime send the request and read its response.
    func run(on world: MalformedResponseWorld) async throws {
        let service = world.service
        switch self {
        case .me, .refresh: _ = try await service.me()
        case .logout: try await service.logout()
        case .identities: _ = try await service.identities()
        case .detachIdentity: try await service.detachIdentity(provider: .guest)
        case .destroyAccount: try await generatedDestroyAccount(service)
        case .listNotes: _ = try await service.listNotes()
        case .createNote: try await service.createNote(NewNote(text: "milk"))
        case .serverStatus: _ = try await service.serverStatus()
        case .guest, .detailsDuringSignIn: _ = try await service.authenticate(with: SingleStepMethod.guest)
        case .internalInitialize:
            _ = try await service.initializeAuthentication(with: MultiStepMethod.internal(identifier: "ada@example.com"))
        case .internalContinue: _ = try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: "123456"))
        case .password: _ = try await service.authenticate(with: SingleStepMethod.password(username: "ada", password: "pw"))
        case .custom: _ = try await service.authenticate(with: SingleStepMethod.custom(token: "idp", provider: "corp"))
        }
    }
}

/// The generated `destroyAccount()` operation, which the service's own lifecycle method of
/// the same name hides.
private func generatedDestroyAccount<Performer: OperationPerformer>(_ performer: Performer) async throws
where Performer.Schema == ReferenceSDKSchema {
    try await performer.destroyAccount()
}
