/// The fields of a decoded symbol on the wire, shared by every event that carries one.
/// Fields that do not apply are omitted, never null.
extension Detection {
    /// - Parameters:
    ///   - frameWidth/frameHeight: the full image, for the normalized corners.
    ///   - includeValue: add `value`, the typed payload (PayloadParser).
    public func jsonFields(frameWidth: Int, frameHeight: Int, includeValue: Bool = true) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("format", .string(format.name)),
            ("text", .string(text)),
            ("bytes", .string(Base64.encode(bytes))),
            ("corners", .array(corners.corners.map { .array([JSONValue.number($0.x, places: 1), JSONValue.number($0.y, places: 1)]) })),
        ]
        if frameWidth > 0, frameHeight > 0 {
            let w = Double(frameWidth), h = Double(frameHeight)
            fields.append(("normalized", .array(corners.corners.map {
                .array([JSONValue.number($0.x / w, places: 4), JSONValue.number($0.y / h, places: 4)])
            })))
        }
        fields.append(("orientation", .int(orientation)))
        if !symbologyIdentifier.isEmpty { fields.append(("symbology", .string(symbologyIdentifier))) }
        fields.append(("content", .string(contentType.rawValue)))
        if hasECI { fields.append(("eci", .bool(true))) }
        if !ecLevel.isEmpty { fields.append(("ecLevel", .string(ecLevel))) }
        if mirrored { fields.append(("mirrored", .bool(true))) }
        if inverted { fields.append(("inverted", .bool(true))) }
        if readerInit { fields.append(("readerInit", .bool(true))) }
        if let s = sequence {
            // A merged sequence (index -1) carries the whole payload.
            var seq: [(String, JSONValue)] = s.index >= 0 ? [("index", .int(s.index)), ("count", .int(s.count))]
                : [("count", .int(s.count)), ("complete", .bool(true))]
            if !s.id.isEmpty { seq.append(("id", .string(s.id))) }
            fields.append(("sequence", .object(seq)))
        }
        if includeValue { fields.append(("value", PayloadParser.parse(self).json)) }
        return fields
    }
}
