#if os(macOS) || os(Linux)
import Foundation

/// A ``Browser`` for macOS and command-line apps (and Linux): it receives the redirect
/// itself on loopback, as RFC 8252 §7.3 describes. For each sign-in it listens once on the
/// redirect URI's loopback address (`127.0.0.1`, or IPv6's `[::1]`), on its port or, when the
/// URI has none, on a free port the system chooses (the runtime then sends
/// `http://127.0.0.1:<port>/<path>` as the redirect URI); opens the authorization request in the system browser; waits for the one `GET` of
/// the redirect path; answers it with a small page ("you can close this window"); and stops
/// listening.
///
/// ```swift
/// let configuration = AuthenticationServiceConfiguration<AuthenticationDetails>(
///     client: ClientCredentials(clientID: "my-cli", clientSecret: nil),
///     browser: LoopbackBrowser(), redirectURI: URL(string: "http://127.0.0.1/callback")!)
/// ```
///
/// Cancelling the sign-in (``dismiss()``) closes the listener at once. Foundation and POSIX
/// sockets only; reads are bounded (8 KiB, 5 s per request, 16 connections served at once)
/// and requests other than the redirect's `GET` with the authorization request's `state`
/// are refused without ending the wait, so that a probe, a favicon or a forged redirect
/// cannot end the sign-in. The system browser's tab stays open on the page.
public final class LoopbackBrowser: Browser, @unchecked Sendable {
    /// Opens a URL in a browser; the default opens the system browser.
    public typealias Opener = @Sendable (URL) async throws -> Void

    /// The port to listen on when the redirect URI names none; 0 lets the system choose.
    public let port: UInt16
    /// How long to wait for the redirect after opening the browser.
    public let timeout: Duration
    private let opener: Opener
    private let lock = NSLock()
    /// Guarded by `lock`: the listener of the sign-in under way.
    private var listener: LoopbackListener?

    /// Creates a loopback browser.
    /// - Parameters:
    ///   - port: the port to listen on when the redirect URI has none; 0 (the default)
    ///     lets the system choose a free one.
    ///   - timeout: how long to wait for the redirect; 5 minutes by default.
    ///   - opener: opens the authorization request: by default ``openInSystemBrowser``
    ///     (`open` on macOS, `xdg-open` on Linux); tests pass one that loads the page over HTTP.
    public init(port: UInt16 = 0, timeout: Duration = .seconds(300), opener: @escaping Opener = LoopbackBrowser.openInSystemBrowser) {
        self.port = port
        self.timeout = timeout
        self.opener = opener
    }

    /// Opens `url` in the user's default browser: `/usr/bin/open` on macOS, `xdg-open` on
    /// Linux, without waiting for the browser to close.
    /// - Throws: ``LoopbackBrowserError/cannotOpenBrowser(reason:)`` when the command cannot run.
    public static let openInSystemBrowser: Opener = { url in
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        process.arguments = [url.absoluteString]
        #else
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        #endif
        do {
            try process.run()
        } catch {
            throw LoopbackBrowserError.cannotOpenBrowser(reason: "\(type(of: error))")
        }
    }

    /// Starts listening on the redirect URI's loopback address (`127.0.0.1` or `[::1]`) and
    /// returns `redirectURI` with the port listened on.
    /// - Throws: ``LoopbackBrowserError/notLoopback(_:)`` for a redirect URI that is not
    ///   `http://127.0.0.1…` or `http://[::1]…`; ``LoopbackBrowserError/cannotListen(reason:)``.
    public func prepareRedirect(to redirectURI: URL) async throws -> URL {
        guard var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
            components.scheme?.lowercased() == "http", let address = LoopbackListener.Address(uriHost: components.host),
            components.user == nil, components.query == nil, components.fragment == nil
        else { throw LoopbackBrowserError.notLoopback(redirectURI.absoluteString) }
        let listener = try LoopbackListener(address: address, port: components.port.map(UInt16.init(clamping:)) ?? port)
        let previous = lock.withLock {
            defer { self.listener = listener }
            return self.listener
        }
        previous?.close()
        components.port = Int(listener.port)
        if components.path.isEmpty { components.path = "/" }
        guard let prepared = components.url else { throw LoopbackBrowserError.notLoopback(redirectURI.absoluteString) }
        return prepared
    }

    /// Opens `url` with the opener and waits for the redirect on the listener that
    /// ``prepareRedirect(to:)`` started, then stops listening.
    /// - Returns: the redirect, `http://127.0.0.1:<port><target>` (or `http://[::1]:…`).
    /// - Throws: ``BrowserSignInError/cancelled`` on ``dismiss()`` (also one that came
    ///   before, or without ``prepareRedirect(to:)``) or the task's cancellation;
    ///   ``LoopbackBrowserError/notLoopback(_:)`` for a redirect URI of another port than
    ///   the one prepared; ``LoopbackBrowserError`` when opening or waiting fails.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        // Dismissed since it was prepared (or never prepared): nothing listens.
        guard let listener = lock.withLock({ self.listener }) else { throw BrowserSignInError.cancelled }
        guard redirectURI.port == Int(listener.port) else { throw LoopbackBrowserError.notLoopback(redirectURI.absoluteString) }
        defer {
            listener.close()
            lock.withLock { if self.listener === listener { self.listener = nil } }
        }
        let path = redirectURI.path.isEmpty ? "/" : redirectURI.path
        let deadline = ContinuousClock.now + timeout
        return try await withTaskCancellationHandler {
            // Listening before the page opens: an opener may follow the redirect itself.
            async let received = listener.receive(path: path, state: Self.state(of: url), page: Self.page, deadline: deadline)
            do {
                try await opener(url)
            } catch {
                listener.close()
                _ = try? await received
                throw error
            }
            let target = try await received
            guard let redirect = URL(string: "http://\(listener.address.uriHost):\(listener.port)\(target)") else {
                throw BrowserSignInError.malformedRedirect(reason: "the request to the loopback listener is not a URL")
            }
            return redirect
        } onCancel: {
            listener.close()
        }
    }

    /// Stops listening at once: the waiting ``authorize(url:redirectURI:)`` throws
    /// ``BrowserSignInError/cancelled``. The system browser's tab stays open.
    public func dismiss() {
        let listener = lock.withLock {
            defer { self.listener = nil }
            return self.listener
        }
        listener?.close()
    }

    /// The `state` the authorization request sends, which the redirect must bring back; nil
    /// when the URL has none (a pushed request's `request_uri` holds it), and then any
    /// redirect to the path ends the wait and the sign-in checks its `state`.
    static func state(of url: URL) -> String? {
        LoopbackListener.state(in: URLComponents(url: url, resolvingAgainstBaseURL: false))
    }

    /// The page the redirect is answered with.
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>Sign-in</title></head>\
        <body><p>You can close this window and return to the app.</p></body></html>
        """
}
#endif
