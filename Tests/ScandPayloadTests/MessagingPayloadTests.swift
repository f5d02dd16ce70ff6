import Testing
import ScandCore
@testable import ScandPayload

@Suite struct EmailPayloadTests {
    @Test func mailtoWithQuery() {
        #expect(
            payloadOf("mailto:alice@example.com,carol@example.net?subject=Hello%20there&body=See%20you%20at%203&cc=bob@example.com")
                == .email(
                    .init(
                        to: ["alice@example.com", "carol@example.net"], cc: ["bob@example.com"],
                        subject: "Hello there", body: "See you at 3")))
        #expect(
            payloadOf("MAILTO:?to=dave@example.org&bcc=eve@example.org")
                == .email(.init(to: ["dave@example.org"], bcc: ["eve@example.org"])))
        #expect(payloadOf("MailTo:frank%40example.com") == .email(.init(to: ["frank@example.com"])))
    }

    @Test func docomoSMTPAndBareAddresses() {
        #expect(
            payloadOf(#"MATMSG:TO:alice@example.com;SUB:Lunch\; today?;BODY:Meet at 12\:30;;"#)
                == .email(.init(to: ["alice@example.com"], subject: "Lunch; today?", body: "Meet at 12:30")))
        #expect(
            payloadOf("SMTP:alice@example.com:Hi:Body: with a colon")
                == .email(.init(to: ["alice@example.com"], subject: "Hi", body: "Body: with a colon")))
        #expect(payloadOf("jane.roe+tag@mail.example.co.uk") == .email(.init(to: ["jane.roe+tag@mail.example.co.uk"])))
    }

    @Test func malformedAddressesAreText() {
        for text in [
            "mailto:", "mailto:?subject=no%20recipient", "mailto:not-an-address", "mailto:a@b", "mailto:a@-b.com",
            "mailto:a b@example.com", "MATMSG:SUB:hi;;", "SMTP::subject:body", "user@example", "@example.com",
            "two@@example.com", "a@example.c0m"
        ] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}

@Suite struct PhoneAndSMSPayloadTests {
    @Test func telephone() {
        #expect(payloadOf("tel:+1-555-0100") == .phone(.init(number: "+1-555-0100")))
        #expect(payloadOf("TEL:+15550100;ext=12") == .phone(.init(number: "+15550100;ext=12")))
        #expect(payloadOf("Tel:%2B44%2020%207946%200000") == .phone(.init(number: "+44 20 7946 0000")))
    }

    @Test func textMessages() {
        #expect(payloadOf("SMSTO:+15550100:Hello: world") == .sms(.init(number: "+15550100", body: "Hello: world")))
        #expect(payloadOf("smsto:+15550100") == .sms(.init(number: "+15550100")))
        #expect(payloadOf("sms:+15550100?body=Hello%20there") == .sms(.init(number: "+15550100", body: "Hello there")))
        #expect(payloadOf("SMS:+15550100,+15550101;?body=x") == .sms(.init(number: "+15550100,+15550101", body: "x")))
        #expect(payloadOf("sms:+15550100&body=iOS") == .sms(.init(number: "+15550100", body: "iOS")))
        #expect(payloadOf("MMSTO:5550100:pic") == .sms(.init(number: "5550100", body: "pic")))
    }

    @Test func malformedNumbersAreText() {
        for text in [
            "tel:", "tel:12", "tel:call me", "tel:<script>", "tel:" + String(repeating: "1", count: 80),
            "sms:", "sms:?body=hi", "SMSTO::body", "sms:+1555,,x?body=a", "tel:-"
        ] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}

@Suite struct GeoPayloadTests {
    @Test func coordinatesAltitudeAndQuery() {
        #expect(payloadOf("geo:48.8583701,2.2944813") == .geo(.init(latitude: 48.8583701, longitude: 2.2944813)))
        #expect(
            payloadOf("GEO:-33.8568,151.2153,58.5;crs=wgs84;u=35")
                == .geo(.init(latitude: -33.8568, longitude: 151.2153, altitude: 58.5)))
        #expect(
            payloadOf("geo:0,0?q=1600+Amphitheatre+Parkway%2C+Mountain+View")
                == .geo(.init(latitude: 0, longitude: 0, query: "1600 Amphitheatre Parkway, Mountain View")))
        #expect(payloadOf("geo:90,-180") == .geo(.init(latitude: 90, longitude: -180)))
    }

    @Test func outOfRangeOrMalformedIsText() {
        for text in [
            "geo:90.0001,0", "geo:-91,0", "geo:0,180.5", "geo:0,-181", "geo:1,2,3,4", "geo:1", "geo:",
            "geo:nan,0", "geo:inf,0", "geo:1e3,0", "geo:0x10,0", "geo:.5,1", "geo:5.,1", "geo:1,2,high",
            "geo:1,2;crs=mars", "geo:--1,2"
        ] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}
