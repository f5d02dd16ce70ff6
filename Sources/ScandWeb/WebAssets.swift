/// The page's files, compiled into the binary (SwiftPM `embedInCode`): a kiosk has no internet and the
/// package ships no asset directory.
enum WebAssets {
    struct Asset: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    static let byPath: [String: Asset] = [
        "/": Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8"),
        "/app.js": Asset(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8"),
        "/style.css": Asset(bytes: PackageResources.style_css, contentType: "text/css; charset=utf-8")
    ]
}
