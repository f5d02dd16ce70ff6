import Testing
@testable import ScandWeb

@Suite struct WebSettingsTests {
    let defaults = WebSettings(socket: "/run/scand/scand.sock")

    @Test func theWebTableSetsListenSocketAndHosts() throws {
        let s = try defaults.reading(
            file: """
                # scand web
                [web]
                listen = "[::1]:9000"
                socket = "/tmp/s.sock"
                hosts = ["Kiosk.local", "scanner-3"]
                """, path: "web.toml")
        #expect(s.listen == ListenAddress(host: "::1", port: 9000))
        #expect(s.listen.description == "[::1]:9000")
        #expect(s.socket == "/tmp/s.sock")
        #expect(s.hosts == ["kiosk.local", "scanner-3"])
        #expect(try defaults.reading(file: "[web]\n", path: "web.toml") == defaults)
        #expect(defaults.listen.description == "127.0.0.1:8088")
    }

    @Test(
        arguments: [
            ("[web]\nlisten = \"127.0.0.1\"\n", "web.toml: line 2: listen address must be HOST:PORT (127.0.0.1:8088, [::1]:8088), got '127.0.0.1'"),
            ("[web]\nlisten = \"127.0.0.1:70000\"\n", "web.toml: line 2: listen port must be 0…65535, got 70000"),
            ("[web]\nlisten = 8088\n", "web.toml: line 2: listen must be a string, got an integer"),
            ("[web]\n\nsocket = \"scand.sock\"\n", "web.toml: line 3: socket must be an absolute path, got 'scand.sock'"),
            ("[web]\nport = 1\n", "web.toml: line 2: unknown key 'port' in [web] (known: listen, socket, hosts)"),
            ("[camera]\nfps = 30\n", "web.toml: line 1: unknown table [camera] (known: web)"),
            ("listen = \"127.0.0.1:1\"\n", "web.toml: line 1: settings go in the [web] table"),
            ("[web]\nhosts = [1]\n", "web.toml: line 2: hosts must be an array of host names"),
            ("[web\n", nil)
        ] as [(String, String?)])
    func aWrongFileIsRefusedWithItsLineAndReason(file: String, message: String?) {
        #expect {
            _ = try defaults.reading(file: file, path: "web.toml")
        } throws: { error in
            let text = (error as? WebSettings.Problem)?.description ?? ""
            return message.map { text == $0 } ?? text.hasPrefix("web.toml: line 1: ")
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
