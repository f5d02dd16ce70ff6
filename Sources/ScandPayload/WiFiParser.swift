import ScandCore

extension Payload {
    /// A Wi-Fi network: `WIFI:T:WPA;S:ssid;P:password;H:true;;`.
    public struct WiFi: Sendable, Equatable {
        public var ssid: String
        public var password: String?
        /// As written: "WPA", "WEP", "SAE", "nopass", …; nil when the code does not say.
        public var encryption: String?
        public var hidden = false
    }
}

enum WiFiParser {
    /// `s` is the trimmed payload, starting with `WIFI:` in any case.
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.WiFi? {
        guard PayloadBytes.hasPrefix(s, "WIFI:") else { return nil }
        let fields = MeCardFields.parse(s.dropFirst(5))
        // 802.11 limits an SSID to 32 bytes: anything longer is not a network a phone could join.
        guard let ssid = fields.first("S"), ssid.utf8.count <= 32 else { return nil }
        let encryption = fields.first("T")
        let open = encryption.map { $0.lowercased() == "nopass" } ?? false
        let hidden = fields.first("H").map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
        return Payload.WiFi(ssid: ssid, password: open ? nil : fields.first("P"), encryption: encryption, hidden: hidden)
    }
}
