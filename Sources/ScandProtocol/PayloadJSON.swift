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
            f.add(c)
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
            f.add(d)
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

    /// A contact's fields (MeCard or vCard).
    mutating func add(_ c: Payload.Contact) {
        add("source", c.source)
        add("name", c.name)
        add("organization", c.organization)
        add("title", c.title)
        add("phones", c.phones)
        add("emails", c.emails)
        add("urls", c.urls)
        add("addresses", c.addresses)
        add("note", c.note)
    }

    /// A driving licence's fields (AAMVA).
    mutating func add(_ d: Payload.DriverLicense) {
        add("documentType", d.documentType)
        add("issuerIIN", d.issuerIIN)
        if let v = d.aamvaVersion { fields.append(("aamvaVersion", .int(v))) }
        add("licenseNumber", d.licenseNumber)
        add("familyName", d.familyName)
        add("givenNames", d.givenNames)
        add("birthDate", d.birthDate)
        add("expiryDate", d.expiryDate)
        add("issueDate", d.issueDate)
        add("sex", d.sex)
        add("street", d.street)
        add("city", d.city)
        add("state", d.state)
        add("postalCode", d.postalCode)
        add("country", d.country)
    }
}
