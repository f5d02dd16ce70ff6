import ScandCommands
import ScandConfigFile
@testable import ScandMQTT
import Testing
@testable import ScandCore

/// `[mqtt] classes`, `formats` and `topic_prefix` as the file gives them.
@Suite struct MQTTFilterSettingsTests {
    static func mqtt(_ toml: String) throws -> MQTTSettings { try ScandConfig().applying(toml: "[mqtt]\n" + toml, table: .scand).mqtt }

    static func refusal(_ toml: String) -> String? {
        do {
            _ = try mqtt(toml)
            return nil
        } catch let problem as ScandConfig.Problem { return problem.message } catch { return "\(error)" }
    }

    @Test func theClassesAreJournaledOnesInAnyCaseOrAllAndTheScansByDefault() throws {
        #expect(MQTTSettings().classes == ["SCAN"] && MQTTSettings().formats == nil && MQTTSettings().topicPrefix == "scand")
        #expect(try Self.mqtt(#"classes = ["scan", "LOST"]"#).classes == ["SCAN", "LOST"])
        #expect(try Self.mqtt(#"classes = ["all"]"#).classes == Set(MQTTSettings.publishableClasses))
        #expect(
            SettingsTable.scand.settings.first { $0.section == "mqtt" && $0.key == "classes" }?.read(
                try ScandConfig().applying(toml: "[mqtt]\nclasses = [\"all\"]", table: .scand))
                == .texts(["all"]))
        for refused in [#"classes = []"#, #"classes = ["VERSION"]"#, #"classes = ["WATCH"]"#, #"classes = ["SCAN", "bogus"]"#] {
            #expect(
                Self.refusal(refused)?.hasPrefix(
                    "classes must be event classes the journal keeps (DEVICE, JOURNAL, LOST, SCAN, STATS, UPDATE) or all") == true, "\(refused)")
        }
    }

    @Test func theFormatsAreAFormatListAndAllIsNone() throws {
        #expect(try Self.mqtt(#"formats = ["qr", "ean13"]"#).formats == BarcodeFormats.parse("qr,ean13"))
        #expect(try Self.mqtt(#"formats = ["all"]"#).formats == nil)
        #expect(Self.refusal(#"formats = ["bogus"]"#)?.hasPrefix("formats lists an") == true)
        #expect(Self.refusal(#"formats = []"#)?.hasPrefix("formats must name at least one format") == true)
    }

    /// One level or more, as MQTT allows in a PUBLISH: no wildcard, no `$` topic of the broker's, no NUL or
    /// other control, at most what leaves a topic 65535 bytes; a trailing slash is dropped.
    @Test func theTopicPrefixIsAPublishableTopicWithoutItsTrailingSlash() throws {
        #expect(try Self.mqtt(#"topic_prefix = "site/berlin/scand""#).topicPrefix == "site/berlin/scand")
        #expect(try Self.mqtt(#"topic_prefix = "shop//""#).topicPrefix == "shop")
        #expect(try Self.mqtt(#"topic_prefix = "/leading""#).topicPrefix == "/leading")
        #expect(try Self.mqtt(#"topic_prefix = "kasse/größe""#).topicPrefix == "kasse/größe")
        let longest = String(repeating: "é", count: MQTTSettings.topicPrefixLimit / 2) + (MQTTSettings.topicPrefixLimit % 2 == 1 ? "x" : "")
        #expect(try Self.mqtt("topic_prefix = \"\(longest)\"").topicPrefix.utf8.count == MQTTSettings.topicPrefixLimit)
        #expect(MQTTSettings.topicPrefixLimit + 1 + 64 + "/events/journal".utf8.count == 65535)
        let refusals = [
            (#"topic_prefix = """#, "must be one topic level or more"), (#"topic_prefix = "/""#, "must be one topic level or more"),
            (#"topic_prefix = "a/+/b""#, "must not hold the wildcards + or #"), (#"topic_prefix = "a/#""#, "must not hold the wildcards + or #"),
            (#"topic_prefix = "$SYS/scand""#, "must not start with $"),
            // Issue 48, 8: `$` or `+` with a combining mark is one Character, but the broker sees its byte.
            (#"topic_prefix = "$\u0301SYS""#, "must not start with $"), (#"topic_prefix = "a/+\u0301""#, "must not hold the wildcards + or #"),
            (#"topic_prefix = "a/#\u0301/b""#, "must not hold the wildcards + or #"),
            (#"topic_prefix = "a\u0000b""#, "must not contain control characters, got U+0000"),
            (#"topic_prefix = "a\nb""#, "must not contain control characters"),
            ("topic_prefix = \"\(longest)x\"", "must be at most \(MQTTSettings.topicPrefixLimit) bytes (a topic is at most 65535), got 65456")
        ]
        for (toml, message) in refusals {
            let refusal = Self.refusal(toml)
            #expect(refusal?.hasPrefix("topic_prefix " + message) == true && refusal?.contains("\n") == false, "\(toml): \(refusal ?? "accepted")")
        }
        // The file refuses controls in any string; the command line's --topic-prefix comes here.
        #expect(throws: MQTTSettings.Problem(description: "must hold no control characters, got 'a\\u0000b'")) {
            try MQTTSettings.topicPrefix("a\u{0}b")
        }
    }
}
