import GRDB

/// Why the journal cannot do what was asked, in one line: the daemon logs it once and goes on live.
public struct JournalError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Disk or file system full (SQLite's SQLITE_FULL, or a write refused by the file size limit).
        case full
        /// The file is not a journal or is damaged.
        case corrupt
        /// The file or its directory cannot be opened or written.
        case unavailable
        case other
    }

    public var kind: Kind
    public var description: String

    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    /// An error of GRDB or SQLite, about the journal at `path`, while doing `what`.
    init(_ error: any Error, path: String, while what: String) {
        guard let db = error as? DatabaseError else {
            self.init(kind: .other, description: "journal \(path): \(what): \(String(describing: error).split(separator: "\n").first ?? "")")
            return
        }
        let message = db.message ?? "SQLite error \(db.resultCode.rawValue)"
        switch db.resultCode {
        case .SQLITE_FULL:
            self.init(kind: .full, description: "journal \(path): \(what): \(message): the disk is full")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            self.init(kind: .corrupt, description: "journal \(path): \(what): \(message): scand moves the file aside and starts a new journal")
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            self.init(kind: .unavailable, description: "journal \(path): \(what): \(message): is its directory there and writable by scand?")
        case .SQLITE_IOERR:
            // A write past RLIMIT_FSIZE or onto a full disk can come back as a plain I/O error.
            self.init(kind: .other, description: "journal \(path): \(what): \(message) (SQLite extended code \(db.extendedResultCode.rawValue))")
        default:
            self.init(kind: .other, description: "journal \(path): \(what): \(message)")
        }
    }
}
