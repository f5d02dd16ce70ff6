import FuzzSupport
import ScandMQTT

// `[mqtt] topic_prefix` and `--topic-prefix` (issue 48: "$\u0301SYS" passed the `$` check as characters).
// What it accepts is a topic a PUBLISH may use, checked on the bytes a broker sees: no wildcard, no `$`
// first, no NUL or other control, no trailing slash, within the limit, and accepted again as it is. A
// refusal is one line.

func seeds() -> [Fuzz.Seed] {
    ["scand", "site/berlin/scand", "shop//", "kasse/größe", "$SYS/scand", "$\u{301}SYS", "a/+\u{301}", "/leading"].enumerated().map {
        (name: "prefix-\($0.offset)", bytes: Array($0.element.utf8))
    }
}

func test(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    let prefix: String
    do throws(MQTTSettings.Problem) { prefix = try MQTTSettings.topicPrefix(text) } catch {
        Fuzz.requireOneLine(error.description, limit: 2000)
        return
    }
    let bytes = Array(prefix.utf8)
    Fuzz.require(!bytes.isEmpty && bytes.count <= MQTTSettings.topicPrefixLimit, "\(bytes.count) bytes accepted")
    Fuzz.require(!bytes.contains { $0 == 0x2B || $0 == 0x23 }, "a wildcard accepted: \(prefix.debugDescription)")
    Fuzz.require(bytes.first != 0x24, "a $ topic accepted: \(prefix.debugDescription)")
    Fuzz.require(bytes.last != 0x2F, "a trailing slash kept: \(prefix.debugDescription)")
    Fuzz.require(!prefix.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "a control accepted")
    Fuzz.require(text.utf8.starts(with: bytes), "\(prefix.debugDescription) is not the start of \(text.debugDescription)")
    Fuzz.require((try? MQTTSettings.topicPrefix(prefix)) == prefix, "\(prefix.debugDescription) is not accepted again as it is")
}

Fuzz.run(seeds: seeds, test: test)
