import ReferenceSDK
import SesameTestSupport

/// How one soak request ended.
enum SoakOutcome: Sendable, Equatable {
    case success
    /// A success whose content is not what the request asked for.
    case wrongResponse(String)
    /// A typed error, named by its type and case or code (`SesameError.transport`,
    /// `ReferenceSDKError.invalid_token`).
    case typedError(String)
    /// An error of a type the SDK does not document, named by its type.
    case untypedError(String)

    /// The outcome of `error`: typed when it is a ``SesameError``, the SDK's
    /// `ReferenceSDKError` or a `SchemaViolation`, as the generated operations document.
    init(_ error: any Error) {
        switch error {
        case let error as SesameError:
            self = .typedError("SesameError." + Self.caseName(of: error))
        case let error as ReferenceSDKError:
            self = .typedError("ReferenceSDKError." + (error.code ?? "unknown"))
        case is SchemaViolation:
            self = .typedError("SchemaViolation")
        default:
            self = .untypedError(String(reflecting: type(of: error)))
        }
    }

    var isSuccess: Bool { self == .success }

    /// The case's name, never its payload (which may name an operation, never a secret).
    private static func caseName(of error: SesameError) -> String {
        if error == .notAuthenticated { return "notAuthenticated" }
        return Mirror(reflecting: error).children.first?.label ?? "unknown"
    }
}

/// The operations a soak request performs, in the proportions of an app that mostly reads.
enum SoakOperation: Sendable {
    case listNotes, createNote, me, serverStatus

    static func random(using random: inout SeededRandom) -> SoakOperation {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45: .listNotes
        case 45..<70: .createNote
        case 70..<90: .me
        default: .serverStatus
        }
    }

    /// Performs the operation through the generated SDK; request `id` names its note.
    func perform(on service: AuthenticationService<ReferenceSDKSchema>, id: Int) async -> SoakOutcome {
        do {
            switch self {
            case .listNotes:
                let notes = try await service.listNotes(limit: 10)
                return notes.count <= 10 ? .success : .wrongResponse("listNotes returned more notes than its limit")
            case .createNote:
                let text = "soak-\(id)"
                let note = try await service.createNote(NewNote(text: text))
                return note.text == text ? .success : .wrongResponse("createNote returned another note")
            case .me:
                let details = try await service.me()
                return details.provider == .guest ? .success : .wrongResponse("me returned another provider")
            case .serverStatus:
                _ = try await service.serverStatus()
                return .success
            }
        } catch {
            return SoakOutcome(error)
        }
    }
}
