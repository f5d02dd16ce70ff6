import ScandCore

extension Payload {
    /// A place: `geo:lat,lon[,alt][;params][?q=query]` (RFC 5870, plus Android's `q=`).
    public struct Geo: Sendable, Equatable {
        /// Degrees, −90…90.
        public var latitude: Double
        /// Degrees, −180…180.
        public var longitude: Double
        /// Metres, when given.
        public var altitude: Double?
        /// A search (`geo:0,0?q=1600 Amphitheatre Parkway`), percent- and plus-decoded.
        public var query: String?
    }
}

enum GeoParser {
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.Geo? {
        guard PayloadBytes.hasPrefix(s, "geo:") else { return nil }
        let rest = s.dropFirst(4)
        let q = rest.firstIndex(of: 0x3F) ?? rest.endIndex
        var coordinates = rest[rest.startIndex..<q]
        // ";crs=wgs84;u=35" parameters follow the coordinates; only WGS-84 (the default) is understood.
        if let semi = coordinates.firstIndex(of: 0x3B) {
            let params = coordinates[(semi + 1)...]
            for p in PayloadBytes.split(params, on: 0x3B) where PayloadBytes.hasPrefix(p, "crs=") {
                guard PayloadBytes.equals(p.dropFirst(4), "wgs84") else { return nil }
            }
            coordinates = coordinates[coordinates.startIndex..<semi]
        }
        let parts = PayloadBytes.split(coordinates, on: 0x2C)
        guard parts.count == 2 || parts.count == 3,
            let lat = PayloadBytes.decimal(PayloadBytes.trimmed(parts[0])),
            let lon = PayloadBytes.decimal(PayloadBytes.trimmed(parts[1])),
            (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        var altitude: Double?
        if parts.count == 3 {
            guard let alt = PayloadBytes.decimal(PayloadBytes.trimmed(parts[2])) else { return nil }
            altitude = alt
        }
        var query: String?
        if q < rest.endIndex {
            query = PayloadBytes.queryItems(rest[(q + 1)...], plusAsSpace: true).first { $0.key == "q" }?.value
            if query?.isEmpty == true { query = nil }
        }
        return Payload.Geo(latitude: lat, longitude: lon, altitude: altitude, query: query)
    }
}
