import Testing
import ScandCore
@testable import ScandPayload

@Suite struct CalendarEventPayloadTests {
    static let calendar = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example//EN
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:STANDARD
        DTSTART:19701025T030000
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        SUMMARY:Team meeting
        DTSTART;TZID=Europe/Berlin:20250314T090000
        DTEND;TZID=Europe/Berlin:20250314T100000
        LOCATION:Room 4\\, Building B
        DESCRIPTION:Quarterly review\\nBring numbers
        BEGIN:VALARM
        DESCRIPTION:Reminder
        END:VALARM
        END:VEVENT
        END:VCALENDAR
        """

    @Test func eventInsideACalendar() {
        #expect(
            payloadOf(Self.calendar)
                == .event(
                    .init(
                        summary: "Team meeting", start: "20250314T090000", end: "20250314T100000", location: "Room 4, Building B",
                        description: "Quarterly review\nBring numbers")))
    }

    @Test func bareEventsAllDayAndUTC() {
        #expect(
            payloadOf("begin:vevent\nsummary:Launch\ndtstart:20250401T120000Z\nend:vevent")
                == .event(.init(summary: "Launch", start: "20250401T120000Z")))
        #expect(
            payloadOf("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20240229\r\nDTEND;VALUE=DATE:20240301\r\nEND:VEVENT\r\n")
                == .event(.init(start: "20240229", end: "20240301")))
    }

    @Test func malformedEventsAreText() {
        for text in [
            "BEGIN:VEVENT\nSUMMARY:No start\nEND:VEVENT", "BEGIN:VEVENT\nDTSTART:20250314T090000Z",
            "BEGIN:VEVENT\nDTSTART:20251314\nEND:VEVENT", "BEGIN:VEVENT\nDTSTART:20230229\nEND:VEVENT",
            "BEGIN:VEVENT\nDTSTART:20250314T250000\nEND:VEVENT", "BEGIN:VEVENT\nDTSTART:2025-03-14\nEND:VEVENT",
            "BEGIN:VEVENT\nDTSTART:20250314\nDTEND:tomorrow\nEND:VEVENT", "BEGIN:VCALENDAR\nEND:VCALENDAR",
            String(Self.calendar.prefix(300))
        ] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}

@Suite struct DriverLicensePayloadTests {
    /// The AAMVA 2016 (version 9) sample layout, California IIN.
    static let v9 =
        "@\n\u{1e}\rANSI 636014090002DL00410278ZC03190024DLDAQD1234562\nDCSPUBLIC\nDDEN\nDACJOHN\nDDFN\n"
        + "DADQUINCY\nDDGN\nDCAC\nDCBNONE\nDCDNONE\nDBD08312013\nDBB08311977\nDBA08312018\nDBC1\nDAU069 in\nDAYGRN\n"
        + "DAG789 E OAK ST\nDAIANYTOWN\nDAJCA\nDAK902230000  \nDCF83D9BN217QO983B1\nDCGUSA\nDAW180\nDAZBRO\n"
        + "DCK12345678900000000000\nDDB02142014\nDDK1\r" + "ZCZCAY\nZCBCORR LENS\nZCCBRN\nZCDXYZ\r"

    @Test func version9() {
        #expect(
            payloadOf(Self.v9, format: .pdf417)
                == .driverLicense(
                    .init(
                        documentType: "DL", issuerIIN: "636014", aamvaVersion: 9, licenseNumber: "D1234562", familyName: "PUBLIC",
                        givenNames: "JOHN QUINCY", birthDate: "1977-08-31", expiryDate: "2018-08-31", issueDate: "2013-08-31", sex: "M",
                        street: "789 E OAK ST", city: "ANYTOWN", state: "CA", postalCode: "902230000", country: "USA")))
    }

    @Test func version1CanadianDatesAndFullName() {
        let text = "@\n\u{1e}\rAAMVA6360000101DL00290182DLDAQ123456789\nDAANOVAK,JANE,M\nDBB19850214\nDBA20300214\nDBC2\r"
        #expect(
            payloadOf(text, format: .pdf417)
                == .driverLicense(
                    .init(
                        documentType: "DL", issuerIIN: "636000", aamvaVersion: 1, licenseNumber: "123456789", familyName: "NOVAK",
                        givenNames: "JANE M", birthDate: "1985-02-14", expiryDate: "2030-02-14", sex: "F")))
    }

    @Test func toleratesMangledHeaderSeparatorsAndIDCards() {
        // A keyboard wedge turned the header's RS/CR into spaces; an identification card, version 2 DCT names.
        let text = "@\n  ANSI 636026020102ID00410150IDDAQX99\nDCSROE\nDCTRICHARD,MILES\nDBB13011990\nDBC9"
        guard case .driverLicense(let d) = payloadOf(text, format: .pdf417) else {
            Issue.record("not parsed")
            return
        }
        #expect(d.documentType == "ID")
        #expect(d.aamvaVersion == 2)
        #expect(d.givenNames == "RICHARD MILES")
        #expect(d.birthDate == "13011990")  // not a date either way: kept as written
        #expect(d.sex == "X")
    }

    @Test func withoutHeaderOrElementsIsText() {
        for text in [
            "ANSI 636014090002DLDAQD1234562\nDCSPUBLIC", "@\n\u{1e}\rANSI 636014090002DL00410278",
            "@\n\u{1e}\rANSI 636014090002DL00410278DLDBB01011990\nDBC1\r", "@hello ANSI DLDAQ1",
            "@\n\u{1e}\rANSX 636014090002DLDAQD1234562\n"
        ] {
            #expect(payloadOf(text, format: .pdf417) == .text(text), "\(text.debugDescription)")
        }
    }
}
