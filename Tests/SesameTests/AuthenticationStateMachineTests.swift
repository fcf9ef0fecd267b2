import Foundation
import Testing
@_spi(Generated) @testable import Sesame

/// Every state × connectivity × input of the state machine, written out as a table: the
/// expected state, session, epoch and actions of each of the 4 × 2 × 23 combinations.
/// Each starting state is reached through inputs from a new machine, as the service
/// reaches it, so the session it carries and its epoch are the machine's own.
@Suite struct AuthenticationStateMachineTests {
    typealias Machine = AuthenticationStateMachine<TestDetails>
    typealias Action = Machine.Action
    typealias Session = StoredSession<TestDetails>

    static let d1 = TestDetails(uid: "u1", provider: "guest")
    static let d2 = TestDetails(uid: "u2", provider: "internal")
    static let c1 = Credential(accessToken: "a1", refreshToken: "r1", expiresAt: Date(timeIntervalSince1970: 1_000))
    static let c2 = Credential(accessToken: "a2", refreshToken: "r2", expiresAt: Date(timeIntervalSince1970: 2_000))
    /// A refresh's answer that does not rotate the refresh token.
    static let c3 = Credential(accessToken: "a3", refreshToken: nil, expiresAt: Date(timeIntervalSince1970: 3_000))
    /// A refresh's answer that rotates it.
    static let c4 = Credential(accessToken: "a4", refreshToken: "r4", expiresAt: Date(timeIntervalSince1970: 4_000))
    static let t0 = Date(timeIntervalSince1970: 0)
    static let t1 = Date(timeIntervalSince1970: 10)

    static let s1 = Session(credential: c1, details: d1, signedInAt: t0)
    static let s2 = Session(credential: c2, details: d2, signedInAt: t1)
    /// `s1` after a refresh of the details that returned `d2`.
    static let s1d2 = Session(credential: c1, details: d2, signedInAt: t0)
    /// `s1` after a refresh that returned `c3`: its access token, the old refresh token.
    static let s1c3 = Session(
        credential: Credential(accessToken: "a3", refreshToken: "r1", expiresAt: c3.expiresAt), details: d1, signedInAt: t0)
    /// `s1` after a refresh that returned `c4`.
    static let s1c4 = Session(credential: c4, details: d1, signedInAt: t0)
    /// The session of an identity attached to `s1`'s account: the same details, a new credential.
    static let attachedSame = Session(credential: c2, details: d1, signedInAt: t1)

    enum Start: CaseIterable {
        case unauthenticated, presession, authenticated, invalid

        /// A machine in this state, reached as the service reaches it, then told the
        /// connectivity.
        func machine(online: Bool) -> Machine {
            var machine = Machine()
            switch self {
            case .unauthenticated:
                _ = machine.authenticationSucceeded(s1)
                _ = machine.unauthenticate()
            case .presession:
                _ = machine.sessionRestored(s1)
            case .authenticated:
                _ = machine.authenticationSucceeded(s1)
            case .invalid:
                _ = machine.authenticationSucceeded(s1)
                _ = machine.credentialRejected()
            }
            _ = machine.connectivityChanged(online: online)
            return machine
        }

        var state: AuthenticationState<TestDetails> {
            switch self {
            case .unauthenticated: return .unauthenticated
            case .presession: return .presession(d1)
            case .authenticated: return .authenticated(d1)
            case .invalid: return .invalid
            }
        }
    }

    enum Input: CaseIterable {
        case signIn, signInFailed, signOut, restore, trust, refreshNewDetails, refreshSameDetails,
            refreshTransient, rejected, expired, goOnline, goOffline, attachNewDetails, attachSameDetails,
            credentialRefreshed, credentialRotated, credentialOfOlderEpoch,
            signedOutElsewhere, invalidatedElsewhere, signedInElsewhere, refreshedElsewhere, detailsChangedElsewhere,
            unchangedElsewhere

        func apply(to machine: inout Machine) -> Outcome {
            switch self {
            case .signIn: return .actions(machine.authenticationSucceeded(s2))
            case .signInFailed: return .actions(machine.authenticationFailed())
            case .signOut: return .actions(machine.unauthenticate())
            case .restore: return .actions(machine.sessionRestored(s2))
            case .trust: return .actions(machine.restorationTrusted())
            case .refreshNewDetails: return .actions(machine.refreshSucceeded(d2))
            case .refreshSameDetails: return .actions(machine.refreshSucceeded(d1))
            case .refreshTransient: return .actions(machine.refreshFailedTransiently())
            case .rejected: return .actions(machine.credentialRejected())
            case .expired: return .actions(machine.credentialExpired())
            case .goOnline: return .actions(machine.connectivityChanged(online: true))
            case .goOffline: return .actions(machine.connectivityChanged(online: false))
            case .attachNewDetails: return .actions(machine.identityAttached(s2))
            case .attachSameDetails: return .actions(machine.identityAttached(attachedSame))
            case .credentialRefreshed: return Outcome(machine.credentialRefreshed(c3, epoch: machine.epoch))
            case .credentialRotated: return Outcome(machine.credentialRefreshed(c4, epoch: machine.epoch))
            case .credentialOfOlderEpoch: return Outcome(machine.credentialRefreshed(c4, epoch: machine.epoch - 1))
            case .signedOutElsewhere: return .actions(machine.sessionChangedElsewhere(nil, sameUser: false, ending: .signOut))
            case .invalidatedElsewhere: return .actions(machine.sessionChangedElsewhere(nil, sameUser: true, ending: .invalidated))
            case .signedInElsewhere: return .actions(machine.sessionChangedElsewhere(s2, sameUser: false, ending: .signOut))
            case .refreshedElsewhere: return .actions(machine.sessionChangedElsewhere(s1c4, sameUser: true, ending: .signOut))
            case .detailsChangedElsewhere: return .actions(machine.sessionChangedElsewhere(s1d2, sameUser: true, ending: .signOut))
            case .unchangedElsewhere: return .actions(machine.sessionChangedElsewhere(s1, sameUser: true, ending: .signOut))
            }
        }
    }

    /// What an input returned: the actions, or what became of a refreshed credential.
    enum Outcome: Hashable {
        case actions([Action])
        case install(Credential, [Action])
        case discard

        init(_ action: Machine.CredentialAction) {
            switch action {
            case .install(let credential, let actions): self = .install(credential, actions)
            case .discard: self = .discard
            }
        }
    }

    /// How the epochs moved.
    enum Epoch: Hashable {
        /// Neither did.
        case kept
        /// Both did: a new session, or none.
        case new
        /// Only the session epoch: the same user goes on.
        case sameUser
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var start: Start
        var online: Bool
        var input: Input
        var state: AuthenticationState<TestDetails>
        var session: Session?
        var epoch: Epoch
        var outcome: Outcome
        var testDescription: String { "\(start) \(online ? "online" : "offline") + \(input)" }
    }

    static let U = AuthenticationState<TestDetails>.unauthenticated
    static let P1 = AuthenticationState<TestDetails>.presession(d1)
    static let P2 = AuthenticationState<TestDetails>.presession(d2)
    static let A1 = AuthenticationState<TestDetails>.authenticated(d1)
    static let A2 = AuthenticationState<TestDetails>.authenticated(d2)
    static let I = AuthenticationState<TestDetails>.invalid
    static let nothing = Outcome.actions([])
    static let signedIn = Outcome.actions([.startEpoch, .persistSession(s2, replacing: nil), .publish(A2)])
    static let invalidated = Outcome.actions([.startEpoch, .clearSession(ending: .invalidated), .publish(I)])
    static let revoked = Outcome.actions([.startEpoch, .clearSession(ending: .signOut), .revokeSession(c1), .publish(U)])
    static let signedOut = Outcome.actions([.startEpoch, .clearSession(ending: .signOut), .publish(U)])
    static let installedC3 = Outcome.install(s1c3.credential, [.persistSession(s1c3, replacing: c1)])
    static let installedC4 = Outcome.install(c4, [.persistSession(s1c4, replacing: c1)])

    static func row(
        _ start: Start, _ online: Bool, _ input: Input, _ state: AuthenticationState<TestDetails>, _ session: Session?,
        _ epoch: Epoch, _ outcome: Outcome
    ) -> Row {
        Row(start: start, online: online, input: input, state: state, session: session, epoch: epoch, outcome: outcome)
    }

    static let on = true, off = false

    static let table: [Row] = transitions + sharedSessionTransitions

    static let transitions: [Row] = [
        // A successful sign-in always ends in authenticated with its session, in a new epoch.
        row(.unauthenticated, on, .signIn, A2, s2, .new, signedIn), row(.unauthenticated, off, .signIn, A2, s2, .new, signedIn),
        row(.presession, on, .signIn, A2, s2, .new, signedIn), row(.presession, off, .signIn, A2, s2, .new, signedIn),
        row(.authenticated, on, .signIn, A2, s2, .new, signedIn), row(.authenticated, off, .signIn, A2, s2, .new, signedIn),
        row(.invalid, on, .signIn, A2, s2, .new, signedIn), row(.invalid, off, .signIn, A2, s2, .new, signedIn),
        // A failed sign-in never changes the state, nor the session.
        row(.unauthenticated, on, .signInFailed, U, nil, .kept, nothing),
        row(.unauthenticated, off, .signInFailed, U, nil, .kept, nothing),
        row(.presession, on, .signInFailed, P1, s1, .kept, nothing), row(.presession, off, .signInFailed, P1, s1, .kept, nothing),
        row(.authenticated, on, .signInFailed, A1, s1, .kept, nothing),
        row(.authenticated, off, .signInFailed, A1, s1, .kept, nothing),
        row(.invalid, on, .signInFailed, I, nil, .kept, nothing), row(.invalid, off, .signInFailed, I, nil, .kept, nothing),
        // Sign-out always ends in unauthenticated without a session; the back-end is asked
        // to revoke the signed-out credential only when online.
        row(.unauthenticated, on, .signOut, U, nil, .kept, .actions([.clearSession(ending: nil)])),
        row(.unauthenticated, off, .signOut, U, nil, .kept, .actions([.clearSession(ending: nil)])),
        row(.presession, on, .signOut, U, nil, .new, revoked), row(.presession, off, .signOut, U, nil, .new, signedOut),
        row(.authenticated, on, .signOut, U, nil, .new, revoked), row(.authenticated, off, .signOut, U, nil, .new, signedOut),
        row(.invalid, on, .signOut, U, nil, .new, .actions([.startEpoch, .clearSession(ending: nil), .publish(U)])),
        row(.invalid, off, .signOut, U, nil, .new, .actions([.startEpoch, .clearSession(ending: nil), .publish(U)])),
        // A restored session is presession; the delegate is consulted when online.
        row(.unauthenticated, on, .restore, P2, s2, .new, .actions([.startEpoch, .publish(P2), .consultRestorationDelegate])),
        row(.unauthenticated, off, .restore, P2, s2, .new, .actions([.startEpoch, .publish(P2)])),
        row(.presession, on, .restore, P1, s1, .kept, nothing), row(.presession, off, .restore, P1, s1, .kept, nothing),
        row(.authenticated, on, .restore, A1, s1, .kept, nothing), row(.authenticated, off, .restore, A1, s1, .kept, nothing),
        row(.invalid, on, .restore, I, nil, .kept, nothing), row(.invalid, off, .restore, I, nil, .kept, nothing),
        // The delegate vouching for a restored session makes it authenticated, same session.
        row(.unauthenticated, on, .trust, U, nil, .kept, nothing), row(.unauthenticated, off, .trust, U, nil, .kept, nothing),
        row(.presession, on, .trust, A1, s1, .kept, .actions([.publish(A1)])),
        row(.presession, off, .trust, A1, s1, .kept, .actions([.publish(A1)])),
        row(.authenticated, on, .trust, A1, s1, .kept, nothing), row(.authenticated, off, .trust, A1, s1, .kept, nothing),
        row(.invalid, on, .trust, I, nil, .kept, nothing), row(.invalid, off, .trust, I, nil, .kept, nothing),
        // A successful refresh confirms a presession and takes the new details into the
        // session (the credential stays); offline, the state and the session are frozen.
        row(.unauthenticated, on, .refreshNewDetails, U, nil, .kept, nothing),
        row(.unauthenticated, off, .refreshNewDetails, U, nil, .kept, nothing),
        row(.presession, on, .refreshNewDetails, A2, s1d2, .kept, .actions([.persistSession(s1d2, replacing: c1), .publish(A2)])),
        row(.presession, off, .refreshNewDetails, P1, s1, .kept, nothing),
        row(.authenticated, on, .refreshNewDetails, A2, s1d2, .kept, .actions([.persistSession(s1d2, replacing: c1), .publish(A2)])),
        row(.authenticated, off, .refreshNewDetails, A1, s1, .kept, nothing),
        row(.invalid, on, .refreshNewDetails, I, nil, .kept, nothing), row(.invalid, off, .refreshNewDetails, I, nil, .kept, nothing),
        row(.unauthenticated, on, .refreshSameDetails, U, nil, .kept, nothing),
        row(.unauthenticated, off, .refreshSameDetails, U, nil, .kept, nothing),
        row(.presession, on, .refreshSameDetails, A1, s1, .kept, .actions([.persistSession(s1, replacing: c1), .publish(A1)])),
        row(.presession, off, .refreshSameDetails, P1, s1, .kept, nothing),
        row(.authenticated, on, .refreshSameDetails, A1, s1, .kept, nothing),
        row(.authenticated, off, .refreshSameDetails, A1, s1, .kept, nothing),
        row(.invalid, on, .refreshSameDetails, I, nil, .kept, nothing),
        row(.invalid, off, .refreshSameDetails, I, nil, .kept, nothing),
        // A transient refresh failure keeps everything.
        row(.unauthenticated, on, .refreshTransient, U, nil, .kept, nothing),
        row(.unauthenticated, off, .refreshTransient, U, nil, .kept, nothing),
        row(.presession, on, .refreshTransient, P1, s1, .kept, nothing),
        row(.presession, off, .refreshTransient, P1, s1, .kept, nothing),
        row(.authenticated, on, .refreshTransient, A1, s1, .kept, nothing),
        row(.authenticated, off, .refreshTransient, A1, s1, .kept, nothing),
        row(.invalid, on, .refreshTransient, I, nil, .kept, nothing), row(.invalid, off, .refreshTransient, I, nil, .kept, nothing),
        // A rejected credential invalidates a session and drops it, except while offline (frozen).
        row(.unauthenticated, on, .rejected, U, nil, .kept, nothing), row(.unauthenticated, off, .rejected, U, nil, .kept, nothing),
        row(.presession, on, .rejected, I, nil, .new, invalidated), row(.presession, off, .rejected, P1, s1, .kept, nothing),
        row(.authenticated, on, .rejected, I, nil, .new, invalidated), row(.authenticated, off, .rejected, A1, s1, .kept, nothing),
        row(.invalid, on, .rejected, I, nil, .kept, nothing), row(.invalid, off, .rejected, I, nil, .kept, nothing),
        // An expired credential that cannot be refreshed: the same.
        row(.unauthenticated, on, .expired, U, nil, .kept, nothing), row(.unauthenticated, off, .expired, U, nil, .kept, nothing),
        row(.presession, on, .expired, I, nil, .new, invalidated), row(.presession, off, .expired, P1, s1, .kept, nothing),
        row(.authenticated, on, .expired, I, nil, .new, invalidated), row(.authenticated, off, .expired, A1, s1, .kept, nothing),
        row(.invalid, on, .expired, I, nil, .kept, nothing), row(.invalid, off, .expired, I, nil, .kept, nothing),
        // Coming back online verifies the session; nothing else happens when already online.
        row(.unauthenticated, on, .goOnline, U, nil, .kept, nothing), row(.unauthenticated, off, .goOnline, U, nil, .kept, nothing),
        row(.presession, on, .goOnline, P1, s1, .kept, nothing),
        row(.presession, off, .goOnline, P1, s1, .kept, .actions([.consultRestorationDelegate])),
        row(.authenticated, on, .goOnline, A1, s1, .kept, nothing),
        row(.authenticated, off, .goOnline, A1, s1, .kept, .actions([.verifyCredential])),
        row(.invalid, on, .goOnline, I, nil, .kept, nothing), row(.invalid, off, .goOnline, I, nil, .kept, nothing),
        // Going offline changes nothing but the flag.
        row(.unauthenticated, on, .goOffline, U, nil, .kept, nothing), row(.unauthenticated, off, .goOffline, U, nil, .kept, nothing),
        row(.presession, on, .goOffline, P1, s1, .kept, nothing), row(.presession, off, .goOffline, P1, s1, .kept, nothing),
        row(.authenticated, on, .goOffline, A1, s1, .kept, nothing), row(.authenticated, off, .goOffline, A1, s1, .kept, nothing),
        row(.invalid, on, .goOffline, I, nil, .kept, nothing), row(.invalid, off, .goOffline, I, nil, .kept, nothing),
        // An identity attached to the current account: its session (a new credential, in a
        // new epoch of the same user) replaces an authenticated one, online or not; the
        // state is published when the details changed. Nothing happens otherwise.
        row(.unauthenticated, on, .attachNewDetails, U, nil, .kept, nothing),
        row(.unauthenticated, off, .attachNewDetails, U, nil, .kept, nothing),
        row(.presession, on, .attachNewDetails, P1, s1, .kept, nothing),
        row(.presession, off, .attachNewDetails, P1, s1, .kept, nothing),
        row(
            .authenticated, on, .attachNewDetails, A2, s2, .sameUser,
            .actions([.continueEpoch, .persistSession(s2, replacing: c1), .publish(A2)])),
        row(
            .authenticated, off, .attachNewDetails, A2, s2, .sameUser,
            .actions([.continueEpoch, .persistSession(s2, replacing: c1), .publish(A2)])),
        row(.invalid, on, .attachNewDetails, I, nil, .kept, nothing), row(.invalid, off, .attachNewDetails, I, nil, .kept, nothing),
        row(.unauthenticated, on, .attachSameDetails, U, nil, .kept, nothing),
        row(.unauthenticated, off, .attachSameDetails, U, nil, .kept, nothing),
        row(.presession, on, .attachSameDetails, P1, s1, .kept, nothing),
        row(.presession, off, .attachSameDetails, P1, s1, .kept, nothing),
        row(
            .authenticated, on, .attachSameDetails, A1, attachedSame, .sameUser,
            .actions([.continueEpoch, .persistSession(attachedSame, replacing: c1)])),
        row(
            .authenticated, off, .attachSameDetails, A1, attachedSame, .sameUser,
            .actions([.continueEpoch, .persistSession(attachedSame, replacing: c1)])),
        row(.invalid, on, .attachSameDetails, I, nil, .kept, nothing), row(.invalid, off, .attachSameDetails, I, nil, .kept, nothing),
        // A refreshed credential goes into the session in use, online or not (the refresh
        // reached the back-end), keeping the refresh token unless rotated; the state stays.
        row(.unauthenticated, on, .credentialRefreshed, U, nil, .kept, .discard),
        row(.unauthenticated, off, .credentialRefreshed, U, nil, .kept, .discard),
        row(.presession, on, .credentialRefreshed, P1, s1c3, .kept, installedC3),
        row(.presession, off, .credentialRefreshed, P1, s1c3, .kept, installedC3),
        row(.authenticated, on, .credentialRefreshed, A1, s1c3, .kept, installedC3),
        row(.authenticated, off, .credentialRefreshed, A1, s1c3, .kept, installedC3),
        row(.invalid, on, .credentialRefreshed, I, nil, .kept, .discard), row(.invalid, off, .credentialRefreshed, I, nil, .kept, .discard),
        row(.unauthenticated, on, .credentialRotated, U, nil, .kept, .discard),
        row(.unauthenticated, off, .credentialRotated, U, nil, .kept, .discard),
        row(.presession, on, .credentialRotated, P1, s1c4, .kept, installedC4),
        row(.presession, off, .credentialRotated, P1, s1c4, .kept, installedC4),
        row(.authenticated, on, .credentialRotated, A1, s1c4, .kept, installedC4),
        row(.authenticated, off, .credentialRotated, A1, s1c4, .kept, installedC4),
        row(.invalid, on, .credentialRotated, I, nil, .kept, .discard), row(.invalid, off, .credentialRotated, I, nil, .kept, .discard),
        // A refresh that started before a sign-out, a sign-in, a restore or an invalidation
        // is discarded, whatever the state now.
        row(.unauthenticated, on, .credentialOfOlderEpoch, U, nil, .kept, .discard),
        row(.unauthenticated, off, .credentialOfOlderEpoch, U, nil, .kept, .discard),
        row(.presession, on, .credentialOfOlderEpoch, P1, s1, .kept, .discard),
        row(.presession, off, .credentialOfOlderEpoch, P1, s1, .kept, .discard),
        row(.authenticated, on, .credentialOfOlderEpoch, A1, s1, .kept, .discard),
        row(.authenticated, off, .credentialOfOlderEpoch, A1, s1, .kept, .discard),
        row(.invalid, on, .credentialOfOlderEpoch, I, nil, .kept, .discard),
        row(.invalid, off, .credentialOfOlderEpoch, I, nil, .kept, .discard),
    ]

    @Test func tableCoversEveryStateConnectivityAndInput() {
        #expect(Self.table.count == Start.allCases.count * 2 * Input.allCases.count)
        for start in Start.allCases {
            for online in [true, false] {
                for input in Input.allCases {
                    let matches = Self.table.filter { $0.start == start && $0.online == online && $0.input == input }
                    #expect(matches.count == 1, "\(start) \(online) \(input)")
                }
            }
        }
    }

    @Test(arguments: Start.allCases, [true, false])
    func startingStatesAreWhatTheTableAssumes(_ start: Start, online: Bool) {
        let machine = start.machine(online: online)
        #expect(machine.current == start.state)
        #expect(machine.session == (start == .presession || start == .authenticated ? Self.s1 : nil))
        #expect(machine.isOnline == online)
        #expect(machine.epoch > 0)
    }

    @Test(arguments: table) func transition(_ row: Row) {
        var machine = row.start.machine(online: row.online)
        let before = (machine.epoch, machine.userEpoch)
        let outcome = row.input.apply(to: &machine)
        #expect(machine.current == row.state)
        #expect(machine.session == row.session)
        // The details are held once: the state's are the session's.
        #expect(machine.current.details == machine.session?.details)
        #expect(outcome == row.outcome)
        let moved = (machine.epoch - before.0, machine.userEpoch - before.1)
        let epoch: Epoch? =
            switch moved {
            case (0, 0): .kept
            case (1, 1): .new
            case (1, 0): .sameUser
            default: nil
            }
        #expect(epoch == row.epoch, "the epochs moved by \(moved)")
        let expectedOnline: Bool =
            switch row.input {
            case .goOnline: true
            case .goOffline: false
            default: row.online
            }
        #expect(machine.isOnline == expectedOnline)
    }

    @Test func stateDescriptionsNameTheCaseOnly() {
        let details = TestDetails(uid: "u1", provider: "guest", displayName: "Ada Lovelace")
        #expect(AuthenticationState.authenticated(details).description == "authenticated")
        #expect(AuthenticationState.presession(details).description == "presession")
        #expect(!"\(AuthenticationState.authenticated(details))".contains("Ada"))
    }

    @Test func stateRoundTripsThroughCodable() throws {
        for state in [Self.U, Self.P1, Self.A2, Self.I] {
            let data = try JSONEncoder().encode(state)
            #expect(try JSONDecoder().decode(AuthenticationState<TestDetails>.self, from: data) == state)
        }
    }
}
