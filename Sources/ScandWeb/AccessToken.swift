import HTTPTypes

/// `[web] token`: the secret every request carries when one is set, as `Authorization: Bearer`, as the
/// cookie `scand_token`, or (on a GET, where EventSource cannot send a header) as the query parameter
/// `token`. Compared in constant time; it never appears in a message or a log line.
struct AccessToken: Sendable {
    private let secret: [UInt8]

    /// Nil for an empty setting: no token, every request passes.
    init?(_ configured: String) {
        guard !configured.isEmpty else { return nil }
        secret = Array(configured.utf8)
    }

    static let cookieName = "scand_token"
    static let queryName = "token"

    /// Whether `candidate` is the token, in a time that depends on the lengths only: every byte of the
    /// longer is visited and the differences are OR-ed, never a comparison that stops early.
    func matches(_ candidate: some StringProtocol) -> Bool {
        let given = Array(candidate.utf8)
        var difference = UInt(truncatingIfNeeded: given.count ^ secret.count)
        for i in 0..<max(given.count, secret.count) {
            let a = i < given.count ? given[i] : 0
            let b = i < secret.count ? secret[i] : 0
            difference |= UInt(a ^ b)
        }
        return difference == 0
    }

    enum Verdict: Sendable, Equatable {
        /// Granted; `byQuery`: by the query parameter (the setup page then sets the cookie).
        case granted(byQuery: Bool)
        case missing
        case wrong
    }

    /// The credentials a request presents, each tried: granted when one is the token.
    func verdict(authorization: [String], cookies: [String], query: String?) -> Verdict {
        var presented: [(Substring, byQuery: Bool)] = []
        for value in authorization {
            let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            if parts.count == 2, parts[0].lowercased() == "bearer" { presented.append((parts[1].drop { $0 == " " }, false)) }
        }
        for header in cookies {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(Self.cookieName + "=") { presented.append((trimmed.dropFirst(Self.cookieName.count + 1), false)) }
            }
        }
        if let query { presented.append((query[...], true)) }
        guard !presented.isEmpty else { return .missing }
        // Every credential is compared, so the time does not say which one was right.
        var granted: Verdict?
        for (value, byQuery) in presented where matches(value) && granted == nil { granted = .granted(byQuery: byQuery) }
        return granted ?? .wrong
    }

    /// The cookie the setup page gets for a token given as `?token=`: not readable by scripts (HttpOnly),
    /// not sent with another site's requests (SameSite=Strict), gone when the browser closes.
    func cookie() -> String {
        "\(Self.cookieName)=\(String(decoding: secret, as: UTF8.self)); Path=/; HttpOnly; SameSite=Strict"
    }
}
