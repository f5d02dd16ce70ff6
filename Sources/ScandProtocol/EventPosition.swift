import Foundation

/// Where an event stands in a daemon's numbering: the boot that published it (32 lowercase hex digits,
/// random per daemon start) and its sequence number (> 0, growing by one per published event and going on
/// across restarts from the journal's last one). Consumers deduplicate with it.
public struct EventPosition: Sendable, Hashable, CustomStringConvertible {
    public var boot: String
    public var seq: Int

    public init(boot: String, seq: Int) {
        self.boot = boot
        self.seq = seq
    }

    /// The highest seq a position may carry: 2^53 − 1, the largest integer a JSON number holds exactly in
    /// every client (a browser's `Number`). A daemon publishing a million events a day reaches it in 24
    /// million years; a seq from outside above it is refused where it is read, so `seq + 1` never traps.
    public static let maxSeq = (1 << 53) - 1

    /// The seqs a position may carry: 1…`maxSeq`.
    public static let seqs = 1...maxSeq

    /// Whether `seq` can be a published event's (1…`maxSeq`).
    public static func isSeq(_ seq: Int) -> Bool { seqs.contains(seq) }

    /// `{"boot":"…","seq":N}`: the `since` of a WATCH request, and the bridge's state file.
    public var json: String { #"{"boot":"\#(boot)","seq":\#(seq)}"# }
    public var description: String { json }

    public static func isBootID<S: StringProtocol>(_ text: S) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new boot id from 128 random bits of the system's generator.
    public static func randomBootID() -> String {
        // Not through `randomBootID(using:)` with an inout SystemRandomNumberGenerator: ThreadSanitizer's
        // runtime crashes (SEGV) instrumenting the inout access of that empty struct in generic code.
        bootID(UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    }

    /// A new boot id from 128 bits of `generator` (a seeded one in tests).
    public static func randomBootID<G: RandomNumberGenerator>(using generator: inout G) -> String {
        bootID(generator.next(), generator.next())
    }

    /// 32 lowercase hex digits, the low nibble of each word first.
    static func bootID(_ high: UInt64, _ low: UInt64) -> String {
        var digits: [UInt8] = []
        for var word in [high, low] {
            for _ in 0..<16 {
                let digit = UInt8(word & 0xF)
                digits.append(digit < 10 ? 0x30 + digit : 0x57 + digit)
                word >>= 4
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// A JSON object of exactly `boot` (32 lowercase hex digits) and `seq` (1…`maxSeq`); nil for anything else.
    public static func parse(json text: String) -> EventPosition? {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(text.utf8)), isBootID(fields.boot), isSeq(fields.seq) else {
            return nil
        }
        return EventPosition(boot: fields.boot, seq: fields.seq)
    }

    /// `{"boot":…,"seq":…}` and no other key.
    private struct Fields: Decodable {
        var boot: String
        var seq: Int

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: ClientRequest.AnyKey.self)
            guard Set(c.allKeys.map(\.stringValue)) == ["boot", "seq"] else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a position has a boot and a seq only"))
            }
            boot = try c.decode(String.self, forKey: .init(stringValue: "boot"))
            seq = try c.decode(Int.self, forKey: .init(stringValue: "seq"))
        }
    }
}
