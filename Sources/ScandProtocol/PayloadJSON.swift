import ScandCore
import ScandPayload

/// The `value` object of SCAN events: `type` first, then the fields found. Fields that do not apply are
/// omitted, never null; empty lists and false flags are omitted too. `.text` is just `{"type":"text"}`,
/// because the event already carries the text beside it.
extension Payload {
    public var json: JSONValue {
        var f = JSONFields()
        f.add("type", typeName)
        switch self {
        case .url(let u):
            f.add("url", u.url)
            f.add("scheme", u.scheme)
            f.add("host", u.host)
            f.add("title", u.title)
        case .wifi(let w):
            f.add("ssid", w.ssid)
            f.add("password", w.password)
            f.add("encryption", w.encryption)
            f.add("hidden", w.hidden)
        case .contact(let c):
            f.add("source", c.source)
            f.add("name", c.name)
            f.add("organization", c.organization)
            f.add("title", c.title)
            f.add("phones", c.phones)
            f.add("emails", c.emails)
            f.add("urls", c.urls)
            f.add("addresses", c.addresses)
            f.add("note", c.note)
        case .email(let e):
            f.add("to", e.to)
            f.add("cc", e.cc)
            f.add("bcc", e.bcc)
            f.add("subject", e.subject)
            f.add("body", e.body)
        case .phone(let p):
            f.add("number", p.number)
        case .sms(let s):
            f.add("number", s.number)
            f.add("body", s.body)
        case .geo(let g):
            f.fields.append(("latitude", .double(g.latitude)))
            f.fields.append(("longitude", .double(g.longitude)))
            if let alt = g.altitude { f.fields.append(("altitude", .double(alt))) }
            f.add("query", g.query)
        case .event(let e):
            f.add("summary", e.summary)
            f.add("start", e.start)
            f.add("end", e.end)
            f.add("location", e.location)
            f.add("description", e.description)
        case .driverLicense(let d):
            f.add("documentType", d.documentType)
            f.add("issuerIIN", d.issuerIIN)
            if let v = d.aamvaVersion { f.fields.append(("aamvaVersion", .int(v))) }
            f.add("licenseNumber", d.licenseNumber)
            f.add("familyName", d.familyName)
            f.add("givenNames", d.givenNames)
            f.add("birthDate", d.birthDate)
            f.add("expiryDate", d.expiryDate)
            f.add("issueDate", d.issueDate)
            f.add("sex", d.sex)
            f.add("street", d.street)
            f.add("city", d.city)
            f.add("state", d.state)
            f.add("postalCode", d.postalCode)
            f.add("country", d.country)
        case .isbn(let i):
            f.add("isbn13", i.isbn13)
            f.add("isbn10", i.isbn10)
            f.add("addOn", i.addOn)
        case .product(let p):
            f.add("gtin", p.gtin)
            f.add("format", p.format.name)
            f.add("addOn", p.addOn)
        case .gs1(let g):
            f.add("gtin", g.gtin)
            f.add("expiry", g.expiry)
            f.add("batch", g.batch)
            f.add("serial", g.serial)
            f.add("resolver", g.resolver)
            f.fields.append(
                (
                    "elements",
                    .array(
                        g.elements.map {
                            .object([("ai", .string($0.ai)), ("title", .string($0.title)), ("value", .string($0.value))])
                        })
                ))
        case .text:
            break
        }
        return .object(f.fields)
    }
}

/// Builds an object, skipping what does not apply.
private struct JSONFields {
    var fields: [(String, JSONValue)] = []

    mutating func add(_ key: String, _ value: String?) {
        if let value { fields.append((key, .string(value))) }
    }

    mutating func add(_ key: String, _ values: [String]) {
        if !values.isEmpty { fields.append((key, .array(values.map(JSONValue.string)))) }
    }

    mutating func add(_ key: String, _ flag: Bool) {
        if flag { fields.append((key, .bool(true))) }
    }
}
