import Foundation
import ReferenceServer
import SesameTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The tutorial's app (Reference/Sources/notes, docs/tutorial) run as a reader runs it: one
/// launch of the built `notes` per command, against the reference server on loopback, with
/// the saved session and the user's store in a folder that outlives each launch.
@Suite("The tutorial's app, command by command")
struct TutorialAppTests {
    /// One launch of `notes`: its exit status and its standard output.
    struct Launch {
        var status: Int32
        var lines: [String]
    }

    let server = ReferenceServer(configuration: .init(port: 0))
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("tutorial-\(UUID().uuidString)")

    /// Runs `notes arguments` against `api`, signing in on the login page as alice when the
    /// command opens the browser (what the reader does with the printed address).
    func notes(_ arguments: String..., api: URL) async throws -> Launch {
        let executable = try #require(builtProduct(named: "notes"), "build the notes product first (swift build)")
        let child = try ChildProcess(
            executable, arguments: arguments,
            environment: ["NOTES_SERVER": api.absoluteString, "NOTES_DATA": data.path])
        var lines: [String] = []
        if arguments == ["sign-in", "--browser"] {
            let prompt = try await child.line()
            lines.append(prompt)
            let prefix = "Sign in in your browser (alice, wonderland): "
            let page = try #require(prompt.hasPrefix(prefix) ? URL(string: String(prompt.dropFirst(prefix.count))) : nil)
            let redirectURI = try #require(queryParameters(of: page)["redirect_uri"].flatMap(URL.init(string:)))
            let redirect = try await HeadlessBrowser(username: "alice", password: "wonderland")
                .authorize(url: page, redirectURI: redirectURI)
            // The browser loads the redirect, which the app is listening for on loopback.
            _ = try await URLSession.shared.data(from: redirect)
        }
        let rest = try await child.remainingOutput()
        lines += rest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        return Launch(status: await child.exitStatus(), lines: lines)
    }

    @Test("password, refresh, notes, the user's store, sign-out, browser sign-in: what the tutorial shows")
    func theTutorialsSession() async throws {
        let endpoint = try await server.start()
        defer { try? FileManager.default.removeItem(at: data) }
        do {
            try await walk(endpoint.baseURL)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func walk(_ api: URL) async throws {
        // Chapter 3: a password sign-in, then launches that restore and refresh the session.
        var launch = try await notes("sign-in", "alice", "wonderland", api: api)
        #expect(launch.status == 0)
        #expect(launch.lines == ["Signed in as pw-alice (password)."])
        #expect(await server.state.counters().tokenGrants["password"] == 1)

        for refreshes in 1...2 {
            launch = try await notes("me", api: api)
            #expect(launch.lines == ["Signed in as pw-alice (password); the session was restored and refreshed."])
            // Each launch refreshed with the refresh token the one before saved (the server
            // rotates them: a stale one would have been refused).
            #expect(await server.state.counters().refreshes == refreshes)
        }

        // Chapter 5: an operation.
        launch = try await notes("add", "Buy milk", api: api)
        let added = try #require(launch.lines.first)
        #expect(added.hasPrefix("Added ") && added.count == "Added .".count + 36, "\(launch.lines)")

        // Chapter 6: the notes, copied into alice's own store.
        launch = try await notes("sync", api: api)
        #expect(launch.lines == ["1 note(s) in pw-alice's store:", "- Buy milk"])

        // Chapter 7: sign-out ends the session on the server, and the next launch has none.
        launch = try await notes("sign-out", api: api)
        #expect(launch.lines == ["Signed out (revoked)."])
        #expect(await server.state.counters().requests["POST /auth/logout"] == 1)
        launch = try await notes("me", api: api)
        #expect(launch.lines == ["Not signed in (unauthenticated)."])

        // Chapter 4: OpenID Connect in the browser; alice's store is still on the device.
        launch = try await notes("sign-in", "--browser", api: api)
        #expect(launch.status == 0)
        #expect(launch.lines.last == "Signed in as pw-alice (password) in the browser.", "\(launch.lines)")
        #expect(await server.state.counters().tokenGrants["authorization_code"] == 1)
        launch = try await notes("sync", api: api)
        #expect(launch.lines == ["1 note(s) in pw-alice's store:", "- Buy milk"])
    }
}
