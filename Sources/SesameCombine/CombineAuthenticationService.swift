#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Sesame

/// An ``AuthenticationService`` with a Combine API (Webcom's `forCombine`): publishers for
/// its events and its state, and a `Future` for each of its async calls.
///
/// Get one with `service.forCombine`. It is a thin value over the service: it keeps the
/// service alive, holds no state of its own, and every call goes to the service, so mixing
/// it with the async API is fine.
///
/// Futures are Combine's own `Future`: the call starts when the future is created, not when
/// it is subscribed to, and cancelling a subscriber of the future stops the delivery of its
/// result, not the call (to stop a sign-in, use `service.cancelAuthentication()`). Wrap it in
/// `Deferred` to start the call on subscription. A failure is the error the async API
/// throws, unchanged: `Schema.ServerError` when the back-end refuses, ``SesameError``
/// otherwise (each method says which).
///
/// On Apple platforms this is Apple's Combine; elsewhere it is OpenCombine, whose types
/// have the same names in the `OpenCombine` module.
public struct CombineAuthenticationService<Schema: SDKSchema>: Sendable, Equatable, CustomDebugStringConvertible {
    /// The wrapped service.
    public let service: AuthenticationService<Schema>

    /// Wraps `service`; the same as `service.forCombine`.
    public init(_ service: AuthenticationService<Schema>) {
        self.service = service
    }

    // MARK: Publishers

    /// The service's events, as ``AuthenticationService/events()`` gives them: the current
    /// state first, then every event in order. Each subscriber gets its own subscription,
    /// which its `AnyCancellable` owns: `unsubscribeFromAll()` does not end it; the service
    /// going away finishes it. It never fails.
    public var events: AuthenticationEventPublisher<Schema> {
        AuthenticationEventPublisher(service: service)
    }

    /// The authentication state: the current state first, then every change. It never
    /// fails, and finishes when the service goes away.
    public var state: AnyPublisher<AuthenticationState<Schema.Details>, Never> {
        events
            .compactMap { event -> AuthenticationState<Schema.Details>? in
                guard case .stateChanged(let state) = event else { return nil }
                return state
            }
            .eraseToAnyPublisher()
    }

    // MARK: Futures

    /// ``AuthenticationService/authenticate(with:context:)`` as a future of the user's details.
    /// It fails with the error that call throws (`Schema.ServerError` when the back-end
    /// refuses the sign-in).
    public func authenticate(with method: some SingleStepAuthenticationMethod) -> Future<Schema.Details, any Error> {
        let service = service
        return FutureBridge.future { try await service.authenticate(with: method) }
    }

    /// ``AuthenticationService/initializeAuthentication(with:context:)`` as a future; fails as that call throws.
    public func initializeAuthentication(
        with method: some MultiStepAuthenticationMethod
    )
        -> Future<AuthenticationProgress<Schema.Details>, any Error>
    {
        let service = service
        return FutureBridge.future { try await service.initializeAuthentication(with: method) }
    }

    /// ``AuthenticationService/continueAuthentication(with:)`` as a future; fails as that call throws.
    public func continueAuthentication(
        with continuation: some AuthenticationContinuation
    )
        -> Future<AuthenticationProgress<Schema.Details>, any Error>
    {
        let service = service
        return FutureBridge.future { try await service.continueAuthentication(with: continuation) }
    }

    /// ``AuthenticationService/unauthenticate()`` as a future of its result; it never fails,
    /// since the user is signed out either way.
    public func unauthenticate() -> Future<UnauthenticationResult, Never> {
        let service = service
        return FutureBridge.future { await service.unauthenticate() }
    }

    /// ``AuthenticationService/restoreSession()`` as a future of the state it ends in; it
    /// never fails.
    public func restoreSession() -> Future<AuthenticationState<Schema.Details>, Never> {
        let service = service
        return FutureBridge.future { await service.restoreSession() }
    }

    /// ``AuthenticationService/detachCurrentIdentity()`` as a future; fails as that call throws.
    public func detachCurrentIdentity() -> Future<OperationResponse, any Error> {
        let service = service
        return FutureBridge.future { try await service.detachCurrentIdentity() }
    }

    /// ``AuthenticationService/destroyAccount()`` as a future; fails as that call throws.
    public func destroyAccount() -> Future<OperationResponse, any Error> {
        let service = service
        return FutureBridge.future { try await service.destroyAccount() }
    }

    /// ``AuthenticationService/perform(_:)`` as a future of the back-end's response; fails
    /// as that call throws. A generated SDK's typed operations decode the response.
    public func perform(_ request: OperationRequest) -> Future<OperationResponse, any Error> {
        let service = service
        return FutureBridge.future { try await service.perform(request) }
    }

    // MARK: Identity

    /// Wrappers are equal when they wrap the same service.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.service === rhs.service }

    /// Names the wrapped schema; never any state or credential.
    public var debugDescription: String { "CombineAuthenticationService<\(Schema.self)>" }
}

extension AuthenticationService {
    /// This service with a Combine API: publishers for its events and state, and futures
    /// for its async calls (see ``CombineAuthenticationService``). Never fails.
    public nonisolated var forCombine: CombineAuthenticationService<Schema> {
        CombineAuthenticationService(self)
    }
}
