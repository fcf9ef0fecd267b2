import Foundation
import Testing
@testable import Sesame

/// Every state × connectivity × input of the state machine, written out as a table: the
/// expected state, connectivity and actions of each of the 4 × 2 × 14 combinations.
@Suite struct AuthenticationStateMachineTests {
    typealias Machine = AuthenticationStateMachine<TestDetails>
    typealias Action = Machine.Action

    static let d1 = TestDetails(uid: "u1", provider: "guest")
    static let d2 = TestDetails(uid: "u2", provider: "internal")

    enum Start: CaseIterable {
        case unauthenticated, presession, authenticated, invalid
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
            refreshTransient, rejected, expired, goOnline, goOffline, attachNewDetails, attachSameDetails

        func apply(to machine: inout Machine) -> [Action] {
            switch self {
            case .signIn: return machine.authenticationSucceeded(d2)
            case .signInFailed: return machine.authenticationFailed()
            case .signOut: return machine.unauthenticate()
            case .restore: return machine.sessionRestored(d2)
            case .trust: return machine.restorationTrusted()
            case .refreshNewDetails: return machine.refreshSucceeded(d2)
            case .refreshSameDetails: return machine.refreshSucceeded(d1)
            case .refreshTransient: return machine.refreshFailedTransiently()
            case .rejected: return machine.credentialRejected()
            case .expired: return machine.credentialExpired()
            case .goOnline: return machine.connectivityChanged(online: true)
            case .goOffline: return machine.connectivityChanged(online: false)
            case .attachNewDetails: return machine.identityAttached(d2)
            case .attachSameDetails: return machine.identityAttached(d1)
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var start: Start
        var online: Bool
        var input: Input
        var state: AuthenticationState<TestDetails>
        var actions: [Action]
        var testDescription: String { "\(start) \(online ? "online" : "offline") + \(input)" }
    }

    static let U = AuthenticationState<TestDetails>.unauthenticated
    static let P1 = AuthenticationState<TestDetails>.presession(d1)
    static let P2 = AuthenticationState<TestDetails>.presession(d2)
    static let A1 = AuthenticationState<TestDetails>.authenticated(d1)
    static let A2 = AuthenticationState<TestDetails>.authenticated(d2)
    static let I = AuthenticationState<TestDetails>.invalid
    static let signedIn: [Action] = [.startEpoch, .persistSession, .publish(A2)]
    static let invalidated: [Action] = [.startEpoch, .clearSession, .publish(I)]
    static let signedOut: [Action] = [.startEpoch, .clearSession, .publish(U)]

    static func row(
        _ start: Start, _ online: Bool, _ input: Input, _ state: AuthenticationState<TestDetails>,
        _ actions: [Action]
    ) -> Row {
        Row(start: start, online: online, input: input, state: state, actions: actions)
    }

    static let on = true, off = false

    static let table: [Row] = [
        // A successful sign-in always ends in authenticated, and starts a new epoch.
        row(.unauthenticated, on, .signIn, A2, signedIn), row(.unauthenticated, off, .signIn, A2, signedIn),
        row(.presession, on, .signIn, A2, signedIn), row(.presession, off, .signIn, A2, signedIn),
        row(.authenticated, on, .signIn, A2, signedIn), row(.authenticated, off, .signIn, A2, signedIn),
        row(.invalid, on, .signIn, A2, signedIn), row(.invalid, off, .signIn, A2, signedIn),
        // A failed sign-in never changes the state.
        row(.unauthenticated, on, .signInFailed, U, []), row(.unauthenticated, off, .signInFailed, U, []),
        row(.presession, on, .signInFailed, P1, []), row(.presession, off, .signInFailed, P1, []),
        row(.authenticated, on, .signInFailed, A1, []), row(.authenticated, off, .signInFailed, A1, []),
        row(.invalid, on, .signInFailed, I, []), row(.invalid, off, .signInFailed, I, []),
        // Sign-out always ends in unauthenticated; the back-end is asked only when online.
        row(.unauthenticated, on, .signOut, U, [.clearSession]), row(.unauthenticated, off, .signOut, U, [.clearSession]),
        row(.presession, on, .signOut, U, [.startEpoch, .clearSession, .revokeSession, .publish(U)]),
        row(.presession, off, .signOut, U, signedOut),
        row(.authenticated, on, .signOut, U, [.startEpoch, .clearSession, .revokeSession, .publish(U)]),
        row(.authenticated, off, .signOut, U, signedOut),
        row(.invalid, on, .signOut, U, signedOut), row(.invalid, off, .signOut, U, signedOut),
        // A restored session is presession; the delegate is consulted when online.
        row(.unauthenticated, on, .restore, P2, [.startEpoch, .publish(P2), .consultRestorationDelegate]),
        row(.unauthenticated, off, .restore, P2, [.startEpoch, .publish(P2)]),
        row(.presession, on, .restore, P1, []), row(.presession, off, .restore, P1, []),
        row(.authenticated, on, .restore, A1, []), row(.authenticated, off, .restore, A1, []),
        row(.invalid, on, .restore, I, []), row(.invalid, off, .restore, I, []),
        // The delegate vouching for a restored session makes it authenticated.
        row(.unauthenticated, on, .trust, U, []), row(.unauthenticated, off, .trust, U, []),
        row(.presession, on, .trust, A1, [.publish(A1)]), row(.presession, off, .trust, A1, [.publish(A1)]),
        row(.authenticated, on, .trust, A1, []), row(.authenticated, off, .trust, A1, []),
        row(.invalid, on, .trust, I, []), row(.invalid, off, .trust, I, []),
        // A successful refresh confirms a presession; offline, the state is frozen.
        row(.unauthenticated, on, .refreshNewDetails, U, []), row(.unauthenticated, off, .refreshNewDetails, U, []),
        row(.presession, on, .refreshNewDetails, A2, [.persistSession, .publish(A2)]),
        row(.presession, off, .refreshNewDetails, P1, []),
        row(.authenticated, on, .refreshNewDetails, A2, [.persistSession, .publish(A2)]),
        row(.authenticated, off, .refreshNewDetails, A1, []),
        row(.invalid, on, .refreshNewDetails, I, []), row(.invalid, off, .refreshNewDetails, I, []),
        row(.unauthenticated, on, .refreshSameDetails, U, []), row(.unauthenticated, off, .refreshSameDetails, U, []),
        row(.presession, on, .refreshSameDetails, A1, [.persistSession, .publish(A1)]),
        row(.presession, off, .refreshSameDetails, P1, []),
        row(.authenticated, on, .refreshSameDetails, A1, []), row(.authenticated, off, .refreshSameDetails, A1, []),
        row(.invalid, on, .refreshSameDetails, I, []), row(.invalid, off, .refreshSameDetails, I, []),
        // A transient refresh failure keeps everything.
        row(.unauthenticated, on, .refreshTransient, U, []), row(.unauthenticated, off, .refreshTransient, U, []),
        row(.presession, on, .refreshTransient, P1, []), row(.presession, off, .refreshTransient, P1, []),
        row(.authenticated, on, .refreshTransient, A1, []), row(.authenticated, off, .refreshTransient, A1, []),
        row(.invalid, on, .refreshTransient, I, []), row(.invalid, off, .refreshTransient, I, []),
        // A rejected credential invalidates a session, except while offline (frozen).
        row(.unauthenticated, on, .rejected, U, []), row(.unauthenticated, off, .rejected, U, []),
        row(.presession, on, .rejected, I, invalidated), row(.presession, off, .rejected, P1, []),
        row(.authenticated, on, .rejected, I, invalidated), row(.authenticated, off, .rejected, A1, []),
        row(.invalid, on, .rejected, I, []), row(.invalid, off, .rejected, I, []),
        // An expired credential that cannot be refreshed: the same.
        row(.unauthenticated, on, .expired, U, []), row(.unauthenticated, off, .expired, U, []),
        row(.presession, on, .expired, I, invalidated), row(.presession, off, .expired, P1, []),
        row(.authenticated, on, .expired, I, invalidated), row(.authenticated, off, .expired, A1, []),
        row(.invalid, on, .expired, I, []), row(.invalid, off, .expired, I, []),
        // Coming back online verifies the session; nothing else happens when already online.
        row(.unauthenticated, on, .goOnline, U, []), row(.unauthenticated, off, .goOnline, U, []),
        row(.presession, on, .goOnline, P1, []), row(.presession, off, .goOnline, P1, [.consultRestorationDelegate]),
        row(.authenticated, on, .goOnline, A1, []), row(.authenticated, off, .goOnline, A1, [.verifyCredential]),
        row(.invalid, on, .goOnline, I, []), row(.invalid, off, .goOnline, I, []),
        // Going offline changes nothing but the flag.
        row(.unauthenticated, on, .goOffline, U, []), row(.unauthenticated, off, .goOffline, U, []),
        row(.presession, on, .goOffline, P1, []), row(.presession, off, .goOffline, P1, []),
        row(.authenticated, on, .goOffline, A1, []), row(.authenticated, off, .goOffline, A1, []),
        row(.invalid, on, .goOffline, I, []), row(.invalid, off, .goOffline, I, []),
        // An identity attached to the current account: a new credential (a new epoch) and
        // fresh details for an authenticated user, online or not; nothing otherwise.
        row(.unauthenticated, on, .attachNewDetails, U, []), row(.unauthenticated, off, .attachNewDetails, U, []),
        row(.presession, on, .attachNewDetails, P1, []), row(.presession, off, .attachNewDetails, P1, []),
        row(.authenticated, on, .attachNewDetails, A2, [.continueEpoch, .persistSession, .publish(A2)]),
        row(.authenticated, off, .attachNewDetails, A2, [.continueEpoch, .persistSession, .publish(A2)]),
        row(.invalid, on, .attachNewDetails, I, []), row(.invalid, off, .attachNewDetails, I, []),
        row(.unauthenticated, on, .attachSameDetails, U, []), row(.unauthenticated, off, .attachSameDetails, U, []),
        row(.presession, on, .attachSameDetails, P1, []), row(.presession, off, .attachSameDetails, P1, []),
        row(.authenticated, on, .attachSameDetails, A1, [.continueEpoch, .persistSession]),
        row(.authenticated, off, .attachSameDetails, A1, [.continueEpoch, .persistSession]),
        row(.invalid, on, .attachSameDetails, I, []), row(.invalid, off, .attachSameDetails, I, []),
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

    @Test(arguments: table) func transition(_ row: Row) {
        var machine = Machine(state: row.start.state, isOnline: row.online)
        let actions = row.input.apply(to: &machine)
        #expect(machine.current == row.state)
        #expect(actions == row.actions)
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
