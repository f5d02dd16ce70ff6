import ScandCommands
import ScandConfigFile
import ScandCore
import Testing

/// Inputs scripts/fuzz found that stopped the configuration's reader: each must be refused with its line.
@Suite struct ConfigFuzzFindingsTests {
    /// toml++ assumed a key after a table header's '[': `[#camera]` aborted (an assertion in a debug build,
    /// undefined behaviour in a release build) instead of being a syntax error.
    @Test(arguments: [
        ("[#amera]\nfps = 0\n", 1), ("[camera]\nfps = 0\n[\n", 3), ("# x\n  [ [ !x]]\n", 2), ("[\t+]\n", 1), ("[camera]\n[\r\n", 2)
    ])
    func aTableHeaderWithoutANameIsRefusedWithItsLine(_ text: String, _ line: Int) {
        #expect { try ScandConfig().applying(toml: text, table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == line && p.message.contains("a table header needs a table's name")
        }
    }

    @Test func headersArraysOfTablesAndArraysOverLinesStillRead() throws {
        let c = try ScandConfig().applying(toml: "[ camera ]\nfps = 15\n[\"decoding\"]\nformats = [\n  \"qr\",\n]\n", table: .scand)
        #expect(c.framesPerSecond == 15)
    }

    /// toml++ assumed a value after an array's '[' or ',': a '}' there aborted.
    @Test(arguments: [
        ("[tracking]\nconfirm = [\"EAN-8=2\", }ITF=3\"]\n", 2), ("[decoding]\nformats = [\n  # qr\n  }\n", 4), ("a = {b = [1,}}\n", 1)
    ])
    func aClosingBraceWhereAnArrayValueShouldBeIsRefusedWithItsLine(_ text: String, _ line: Int) throws {
        #expect { try ScandConfig().applying(toml: text, table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == line && p.message.contains("expected a value, saw '}'")
        }
        // The same bytes inside strings and comments are only text.
        #expect(try ScandConfig().applying(toml: "[camera]\ndevice = \"/dev/a[,}b\\\"[}c\" # [}\n", table: .scand).device == "/dev/a[,}b\"[}c")
    }

    /// toml++ quotes what it saw, and that was a line break: the refusal ran over two lines.
    @Test func aSyntaxErrorIsOneLineWhateverItQuotes() {
        #expect { try ScandConfig().applying(toml: "[camera]\nmirror = fals\n", table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 2 && !p.description.contains("\n") && p.description.contains("fals\\n")
        }
    }
}
