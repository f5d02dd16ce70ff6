import Logging
import NIOConcurrencyHelpers
import Testing

@testable import ScandLogging

/// scand's one log handler: every Logger's line, its level kept for journald, its control bytes escaped.
@Suite struct ScandLogHandlerTests {
    final class Lines: Sendable {
        let all = NIOLockedValueBox<[(String, Logger.Level)]>([])
        var write: @Sendable (String, Logger.Level) -> Void { { line, level in self.all.withLockedValue { $0.append((line, level)) } } }
    }

    @Test func aLoggersLinesReachItsWriterWithTheirLevelAndPrefix() {
        let lines = Lines()
        let logger = Logger.scand("web", write: lines.write)
        logger.warning("a page was refused")
        logger.info("serving")
        logger.debug("not written: below the logger's level")
        logger("composed elsewhere", .error)
        let got = lines.all.withLockedValue { $0 }
        #expect(got.map(\.0) == ["web: a page was refused", "web: serving", "web: composed elsewhere"])
        #expect(got.map(\.1) == [.warning, .info, .error])
    }

    @Test func theDaemonsOwnLinesHaveNoPrefixAndALevelFilters() {
        let lines = Lines()
        let logger = Logger.scand(level: .warning, write: lines.write)
        logger.notice("held back")
        logger.error("camera missing")
        #expect(lines.all.withLockedValue { $0.map(\.0) } == ["camera missing"])
    }

    @Test func aLineOnStderrIsOneLineWithItsControlBytesEscaped() {
        let line = ScandLogHandler.format("file 'a\nb\u{1B}[31m'", .warning)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" && $0 != "\u{1B}" }, "\(line)")
        #expect(line.hasPrefix(ScandLogHandler.toJournal ? "<4>" : "scand: "))
    }

    @Test func levelsAreSyslogPriorities() {
        #expect([Logger.Level.critical, .error, .warning, .notice, .info, .debug].map(ScandLogHandler.priority) == [2, 3, 4, 5, 6, 7])
    }
}
