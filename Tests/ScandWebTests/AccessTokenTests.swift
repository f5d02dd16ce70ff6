import Testing

@testable import ScandWeb

/// The token: found where a page can put it, compared whole, and not at all when none is set.
@Suite struct AccessTokenTests {
    let token = AccessToken("0123456789abcdef-kiosk")!

    @Test func onlyTheWholeTokenMatches() {
        #expect(AccessToken("") == nil)
        #expect(token.matches("0123456789abcdef-kiosk"))
        for other in ["", "0123456789abcdef-kios", "0123456789abcdef-kiosk ", "0123456789abcdef-kiosK", "1123456789abcdef-kiosk", "x"] {
            #expect(!token.matches(other), "\(other)")
        }
    }

    @Test func theTokenIsTakenFromABearerHeaderTheCookieOrTheQuery() {
        #expect(token.verdict(authorization: ["Bearer 0123456789abcdef-kiosk"], cookies: [], query: nil) == .granted(byQuery: false))
        #expect(token.verdict(authorization: ["bearer  0123456789abcdef-kiosk"], cookies: [], query: nil) == .granted(byQuery: false))
        #expect(
            token.verdict(authorization: [], cookies: ["theme=dark; scand_token=0123456789abcdef-kiosk"], query: nil) == .granted(byQuery: false))
        #expect(token.verdict(authorization: [], cookies: [], query: "0123456789abcdef-kiosk") == .granted(byQuery: true))
        // A stale cookie does not spoil a right query.
        #expect(token.verdict(authorization: [], cookies: ["scand_token=old"], query: "0123456789abcdef-kiosk") == .granted(byQuery: true))
        #expect(token.verdict(authorization: [], cookies: [], query: nil) == .missing)
        #expect(token.verdict(authorization: ["Basic dXNlcjpwYXNz"], cookies: ["other=1"], query: nil) == .missing)
        #expect(token.verdict(authorization: ["Bearer nope"], cookies: [], query: nil) == .wrong)
        #expect(token.verdict(authorization: [], cookies: ["scand_token=nope"], query: "nope") == .wrong)
        #expect(token.verdict(authorization: [], cookies: ["xscand_token=0123456789abcdef-kiosk"], query: nil) == .missing)
    }

    @Test func theCookieIsHttpOnlyAndStrict() {
        let cookie = token.cookie()
        #expect(cookie.hasPrefix("scand_token=0123456789abcdef-kiosk;"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
    }

    @Test func tokensAreCheckedInTheSettings() {
        #expect(WebSettings.isValidToken("0123456789abcdef"))
        #expect(!WebSettings.isValidToken("short"))
        #expect(!WebSettings.isValidToken("0123456789abcdef with space"))
        #expect(!WebSettings.isValidToken("0123456789abcdef%"))
        #expect(WebSettings.isValidToken(String(repeating: "a", count: 256)))
        #expect(!WebSettings.isValidToken(String(repeating: "a", count: 257)))
    }
}
