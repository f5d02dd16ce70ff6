import ScandConfigFile
import ScandCore
import Testing

@testable import ScandWeb

/// The `[web]` table goes through the settings table like every other: the same parser, checks and line
/// numbers as the daemon's file.
@Suite struct WebSettingsTests {
    func web(_ text: String) throws -> WebSettings {
        try ScandConfig().applying(toml: text, table: SettingsTable(registering: [WebSettings.self]))[section: WebSettings.self]
    }

    @Test func theWebTableSetsListenSocketAndHosts() throws {
        let s = try web(
            """
            # scand web
            [web]
            listen = "[::1]:9000"
            socket = "/tmp/s.sock"
            hosts = [
                "Kiosk.local",
                "scanner-3",
            ]
            """)
        #expect(s.listen == ListenAddress(host: "::1", port: 9000))
        #expect(s.listen.description == "[::1]:9000")
        #expect(s.socket == "/tmp/s.sock")
        #expect(s.hosts == ["kiosk.local", "scanner-3"])
        #expect(try web("[web]\n") == WebSettings())
        let browser = try web(
            """
            [web]
            allowed_origins = ["http://localhost:3000", "HTTPS://Kiosk.Example:443", "http://localhost:3000"]
            token = "0123456789abcdef0123456789abcdef"
            """)
        #expect(browser.allowedOrigins == ["http://localhost:3000", "https://kiosk.example"])
        #expect(browser.token == "0123456789abcdef0123456789abcdef")
        #expect(WebSettings().allowedOrigins.isEmpty && WebSettings().token.isEmpty)
        #expect(WebSettings().listen.description == "127.0.0.1:8088")
    }

    @Test(
        arguments: [
            ("[web]\nlisten = \"127.0.0.1\"\n", "line 2: listen must be HOST:PORT (127.0.0.1:8088, [::1]:8088), got '127.0.0.1'"),
            ("[web]\nlisten = \"127.0.0.1:70000\"\n", "line 2: listen must be 0…65535, got 70000"),
            ("[web]\nlisten = 8088\n", "line 2: listen must be a string, not an integer"),
            ("[web]\n\nsocket = \"scand.sock\"\n", "line 3: socket must be an absolute path (e.g. /run/scand/scand.sock), got 'scand.sock'"),
            ("[web]\nport = 1\n", "line 2: unknown key 'port' in [web] (known: listen, socket, hosts, allowed_origins, token)"),
            ("[webb]\nlisten = \"127.0.0.1:1\"\n", "line 1: unknown table [webb]"),
            ("listen = \"127.0.0.1:1\"\n", "line 1: unknown key 'listen' outside any table"),
            ("[web]\nhosts = [1]\n", "line 2: hosts must be an array of strings, not an integer at position 1"),
            ("[web]\nhosts = [\"a b\"]\n", "line 2: hosts must be host names (no spaces, '/' or ':'), got 'a b'"),
            ("[web]\nallowed_origins = [\"http://localhost:3000/\"]\n", "line 2: allowed_origins must be origins as a browser sends them"),
            ("[web]\nallowed_origins = [\"*\"]\n", "line 2: allowed_origins must be origins as a browser sends them, scheme://host[:port]"),
            (
                "[web]\ntoken = \"short\"\n",
                "line 2: token must be empty or 16…256 letters, digits, '-', '_', '.' or '~' (openssl rand -hex 32 makes one), got 5 characters"
            ),
            ("[web]\ntoken = \"0123456789abcdef 0123\"\n", "line 2: token must be empty or 16…256"),
            ("[web\n", "line 1, column ")
        ] as [(String, String)])
    func aWrongFileIsRefusedWithItsLineAndReason(file: String, message: String) {
        #expect {
            _ = try web(file)
        } throws: { error in
            ((error as? ScandConfig.Problem)?.description ?? "").hasPrefix(message)
        }
    }

    @Test func listenAddresses() throws {
        #expect(try ListenAddress(parsing: "0.0.0.0:80") == ListenAddress(host: "0.0.0.0", port: 80))
        #expect(try ListenAddress(parsing: "localhost:0") == ListenAddress(host: "localhost", port: 0))
        for bad in ["::1:8088", ":8088", "[::1]8088", "host:port", "a b:1", "127.0.0.1:-1"] {
            #expect(throws: ListenAddress.Problem.self, "\(bad)") { try ListenAddress(parsing: bad) }
        }
    }
}
