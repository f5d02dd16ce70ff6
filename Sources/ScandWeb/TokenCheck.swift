import HTTPTypes
import Hummingbird

/// Asks every request for `[web] token` (`AccessToken`) when one is set: 401 without it or with a wrong
/// one, before any route runs. The setup page opened as `/?token=…` gets the token as its cookie and is
/// sent on to `/`, so the token leaves the address bar and the page's own requests carry the cookie.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken
    var metrics: WebMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // In a query only on a GET: a page cannot set a header on EventSource, and nothing that changes
        // anything may be asked with a link.
        let reads = request.method == .get || request.method == .head
        let query = reads ? request.uri.queryParameters[AccessToken.queryName[...]].map(String.init) : nil
        let verdict = token.verdict(
            authorization: request.headers[values: .authorization], cookies: request.headers[values: .cookie], query: query)
        switch verdict {
        case .granted(let byQuery):
            if byQuery, reads, request.uri.path == "/" {
                return Response(status: .seeOther, headers: [.location: "/", .setCookie: token.cookie(), .cacheControl: "no-store"])
            }
            return try await next(request, context)
        case .missing, .wrong:
            metrics?.refusedToken.increment()
            let message =
                verdict == .wrong
                ? "wrong token"
                : "this scand web asks for its token ([web] token): send Authorization: Bearer TOKEN, open /?token=TOKEN once "
                    + "(the page keeps it as a cookie), or add ?token=TOKEN to /events"
            var response = WebApp.json(.unauthorized, message: message)
            response.headers[.wwwAuthenticate] = #"Bearer realm="scand web""#
            return response
        }
    }
}
