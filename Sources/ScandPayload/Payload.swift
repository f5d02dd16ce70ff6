import ScandCore

/// What a symbol's content means, parsed next to its raw text and bytes.
///
/// Each case carries a small struct of the fields found (defined beside its parser, in this folder).
/// Unknown or malformed content is `.text`: parsing never fails, it only declines to interpret.
public enum Payload: Sendable, Equatable {
    case url(URL)
    case wifi(WiFi)
    case contact(Contact)
    case email(Email)
    case phone(Phone)
    case sms(SMS)
    case geo(Geo)
    case event(CalendarEvent)
    case driverLicense(DriverLicense)
    case isbn(ISBN)
    case product(Product)
    case gs1(GS1)
    /// The fallback: the symbol's text as decoded.
    case text(String)

    /// The `type` on the wire.
    public var typeName: String {
        switch self {
        case .url: "url"
        case .wifi: "wifi"
        case .contact: "contact"
        case .email: "email"
        case .phone: "phone"
        case .sms: "sms"
        case .geo: "geo"
        case .event: "event"
        case .driverLicense: "driverLicense"
        case .isbn: "isbn"
        case .product: "product"
        case .gs1: "gs1"
        case .text: "text"
        }
    }
}
