import Testing
import ScandCore
@testable import ScandPayload

@Suite struct URLPayloadTests {
    @Test func linksWithAnAuthority() {
        #expect(
            payloadOf("https://example.com/path?x=1#top")
                == .url(.init(url: "https://example.com/path?x=1#top", scheme: "https", host: "example.com")))
        #expect(
            payloadOf("  HTTP://User:pw@Example.COM:8080/a \n")
                == .url(.init(url: "HTTP://User:pw@Example.COM:8080/a", scheme: "http", host: "example.com")))
        #expect(payloadOf("http://[2001:db8::1]:443/") == .url(.init(url: "http://[2001:db8::1]:443/", scheme: "http", host: "[2001:db8::1]")))
        #expect(
            payloadOf("otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP")
                == .url(.init(url: "otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP", scheme: "otpauth", host: "totp")))
        #expect(
            payloadOf("https://bücher.example/straße") == .url(.init(url: "https://bücher.example/straße", scheme: "https", host: "bücher.example")))
    }

    @Test func bookmarks() {
        #expect(
            payloadOf(#"MEBKM:TITLE:Example\; Inc;URL:https\://example.com/;;"#)
                == .url(.init(url: "https://example.com/", scheme: "https", host: "example.com", title: "Example; Inc")))
        #expect(payloadOf("mebkm:URL:example.org;;") == .url(.init(url: "http://example.org", scheme: "http", host: "example.org")))
        #expect(payloadOf("URLTO:https://example.org/x") == .url(.init(url: "https://example.org/x", scheme: "https", host: "example.org")))
    }

    @Test func malformedLinksAreText() {
        for text in [
            "https://", "https:///path", "https://exa mple.com", "http://example.com:99999/", "http://example.com:8o/",
            "http://[zz::1]/", "https://example.com/\u{7}", "file:///etc/passwd", "://example.com",
            "example.com", "MEBKM:TITLE:no link;;", "1http://example.com"
        ] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}

@Suite struct WiFiPayloadTests {
    @Test func fieldsInAnyOrderAndCase() {
        #expect(
            payloadOf("WIFI:T:WPA;S:HomeNet;P:correct horse;H:true;;")
                == .wifi(.init(ssid: "HomeNet", password: "correct horse", encryption: "WPA", hidden: true)))
        #expect(payloadOf("wifi:s:Cafe;t:WEP;p:12345;;") == .wifi(.init(ssid: "Cafe", password: "12345", encryption: "WEP")))
        #expect(payloadOf("WIFI:S:Guest;T:nopass;P:ignored;;") == .wifi(.init(ssid: "Guest", encryption: "nopass")))
        #expect(payloadOf("WIFI:S:NoTerminator") == .wifi(.init(ssid: "NoTerminator")))
    }

    @Test func backslashEscapesAndQuotes() {
        // \; \, \: \\ \" are literal characters, not separators.
        #expect(
            payloadOf(#"WIFI:T:WPA;S:My\;Net\,work;P:pa\:ss\\wo\"rd;;"#)
                == .wifi(.init(ssid: "My;Net,work", password: #"pa:ss\wo"rd"#, encryption: "WPA")))
        // Unescaped surrounding quotes mark text (not hex) and are removed; escaped ones stay.
        #expect(payloadOf(#"WIFI:S:"123456";P:"abc";;"#) == .wifi(.init(ssid: "123456", password: "abc")))
        #expect(payloadOf(#"WIFI:S:\"quoted\";;"#) == .wifi(.init(ssid: #""quoted""#)))
    }

    @Test func withoutAUsableSSIDIsText() {
        for text in ["WIFI:T:WPA;P:secret;;", "WIFI:S:;T:WPA;;", "WIFI:;;", "WIFI:", "WIFI:S:" + String(repeating: "x", count: 33) + ";;"] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}
