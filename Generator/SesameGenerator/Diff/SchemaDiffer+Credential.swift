@_spi(Generated) import SesameDescription

/// The SDK, its servers, its credential and its lifecycle.
extension SchemaDiffer {
    mutating func compareSDK() {
        if old.name != new.name {
            add("sdk.renamed", .breaking, "the SDK module was renamed from \(old.name) to \(new.name)", at: new.credential.location)
        }
        if old.baseURL != new.baseURL {
            add(
                "server.base-url-changed", .warning,
                "the base URL changed from \(old.baseURL) to \(new.baseURL); shipped apps still call the old one",
                at: new.credential.location)
        }
        if old.authorizationServerURL != new.authorizationServerURL {
            let before = old.authorizationServerURL ?? "the API's (\(old.baseURL))"
            let after = new.authorizationServerURL ?? "the API's (\(new.baseURL))"
            add(
                "server.authorization-url-changed", .warning,
                "the authorization server moved from \(before) to \(after); shipped apps still send their token requests to the old one",
                at: new.credential.location)
        }
        if old.authorizationIssuer != new.authorizationIssuer {
            let before = old.authorizationIssuer.map { "'\($0.issuer)'\($0.sentInResponses ? " (sent in responses)" : "")" } ?? "none"
            let after = new.authorizationIssuer.map { "'\($0.issuer)'\($0.sentInResponses ? " (sent in responses)" : "")" } ?? "none"
            add(
                "server.issuer-changed", .warning,
                "the authorization server's issuer changed from \(before) to \(after); shipped apps still check browser sign-ins against the old one",
                at: new.credential.location)
        }
        if old.openID?.value != new.openID?.value {
            let what =
                old.openID == nil
                ? "OpenID Connect was declared (openID); shipped apps do not validate ID tokens"
                : new.openID == nil
                    ? "OpenID Connect was removed (openID); shipped apps still validate ID tokens against the old keys"
                    : "openID changed (keys, algorithms, clock skew, userInfo or end session); shipped apps still validate ID tokens, check UserInfo responses and sign out as before"
            add(
                old.openID == nil ? "openid.added" : "openid.changed", old.openID == nil ? .compatible : .warning, what,
                at: new.openID?.location ?? new.credential.location)
        }
        compareLifecycle()
        let o = old.credential
        let n = new.credential
        let oldRefresh = o.value.refresh
        let newRefresh = n.value.refresh
        if let before = oldRefresh?.request.server, let after = newRefresh?.request.server,
            old.baseURL(of: before) != new.baseURL(of: after)
        {
            add(
                "credential.refresh-server-changed", .warning,
                "the refresh request moved to another server; shipped apps still refresh at \(old.baseURL(of: before))",
                at: n.refreshRequestLocation ?? n.location)
        }
        let rules: [(String, Bool, String)] = [
            (
                "credential.header-changed", o.value.header != n.value.header || o.value.format != n.value.format,
                "the credential is applied differently (header or format)"
            ),
            (
                "credential.token-fields-changed",
                o.value.accessTokenField != n.value.accessTokenField || o.value.refreshTokenField != n.value.refreshTokenField
                    || o.value.expiresInField != n.value.expiresInField,
                "the token response's fields changed"
            ),
            (
                "credential.rejection-changed", o.value.rejection != n.value.rejection,
                "the auth server's rejection is recognised differently"
            ),
            (
                "credential.refresh-request-changed",
                oldRefresh?.request.method != newRefresh?.request.method || oldRefresh?.request.path != newRefresh?.request.path
                    || oldRefresh?.request.encoding != newRefresh?.request.encoding
                    || oldRefresh?.request.clientAuthentication != newRefresh?.request.clientAuthentication
                    || oldRefresh?.fields != newRefresh?.fields,
                "the refresh request changed (method, path, encoding, client authentication or fields)"
            ),
            (
                "credential.details-source-changed", (o.value.details == nil) != (n.value.details == nil),
                n.value.details == nil
                    ? "the user's details are now the ID token's claims (details: idToken), no longer an operation's response"
                    : "the user's details are now an operation's response, no longer the ID token's claims (details: idToken)"
            ),
            (
                "credential.user-id-changed", o.value.userIDField != n.value.userIDField,
                "the user id is read from '\(n.value.userIDField)', no longer '\(o.value.userIDField)' (each user's stores open under it)"
            ),
        ]
        for (kind, changed, message) in rules where changed {
            add(kind, .breaking, "\(message): shipped apps still use the old rule", at: n.location)
        }
        if let oldRefresh, let newRefresh,
            oldRefresh.leeway != newRefresh.leeway || oldRefresh.maxRefreshes != newRefresh.maxRefreshes
                || oldRefresh.window != newRefresh.window
        {
            add("credential.refresh-limits-changed", .warning, "the refresh leeway or window changed", at: n.location)
        }
    }

    /// `lifecycle.revoke`: adding it is compatible (new apps also revoke at sign-out);
    /// removing or changing it is worth a look, since shipped apps keep sending the old one.
    mutating func compareLifecycle() {
        let before = old.lifecycle.value.revocation
        let after = new.lifecycle.value.revocation
        switch (before, after) {
        case (nil, _?):
            add(
                "lifecycle.revocation-added", .compatible, "sign-out now revokes the token (lifecycle.revoke)",
                at: new.lifecycle.revocationLocation)
        case (_?, nil):
            add(
                "lifecycle.revocation-removed", .warning, "lifecycle.revoke was removed; shipped apps still send it at sign-out",
                at: old.lifecycle.revocationLocation)
        case (let removed?, let added?)
        where removed.request.method != added.request.method || removed.request.path != added.request.path
            || old.baseURL(of: removed.request.server) != new.baseURL(of: added.request.server)
            || removed.request.encoding != added.request.encoding
            || removed.request.clientAuthentication != added.request.clientAuthentication
            || removed.fields != added.fields:
            add(
                "lifecycle.revocation-changed", .warning,
                "the revocation request changed; shipped apps still send the old one at sign-out", at: new.lifecycle.revocationLocation)
        default:
            break
        }
    }
}
