import ScandCore

public struct DecodeReport: Sendable {
    /// One symbol a pass read, with that pass's role.
    public struct Found: Sendable {
        public var detection: Detection
        public var role: DecodePass.Role
        /// Which of the decode's passes read it (its index), when known.
        public var pass: Int?

        public init(detection: Detection, role: DecodePass.Role, pass: Int? = nil) {
            self.detection = detection
            self.role = role
            self.pass = pass
        }
    }

    /// Every symbol read, in the order the passes ran, each with the role of the pass that read it.
    public var found: [Found]
    public var failures: [PassFailure]
    /// Passes that ran, fallbacks included.
    public var passesRun: Int
    /// Messages of passes that succeeded but had something to say (the sandbox probe of the tests).
    public var notes: [String] = []

    public var detections: [Detection] { found.map(\.detection) }

    public init(found: [Found] = [], failures: [PassFailure] = [], passesRun: Int = 0) {
        self.found = found
        self.failures = failures
        self.passesRun = passesRun
    }

    /// `other`'s reads, failures, notes and passes after these.
    public static func += (report: inout DecodeReport, other: DecodeReport) {
        report.found += other.found
        report.failures += other.failures
        report.notes += other.notes
        report.passesRun += other.passesRun
    }
}
