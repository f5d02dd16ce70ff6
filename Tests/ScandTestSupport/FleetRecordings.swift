import Foundation
import ScandCore
import ScandProtocol

/// Recordings and readings for the journal and fleet tests: a till where tickets come and go, so a replay
/// yields a known number of scans, and the numbered lines of a daemon's output.
public enum FleetRecordings {
    /// `tickets` QR codes ("ticket-1", …) shown one after another for 8 frames each with 8 empty frames
    /// between, after `leadIn` empty seconds and before `tail` empty seconds (at 4 fps), at 30 fps, 640×360.
    public static func till(tickets: Int, leadIn: Double = 0.5, tail: Double = 0.5, to path: String) throws -> String {
        try till(texts: (1...tickets).map { "ticket-\($0)" }, leadIn: leadIn, tail: tail, to: path)
    }

    /// A QR code for each of `texts`, shown as `till(tickets:)` shows tickets.
    public static func till(texts: [String], leadIn: Double = 0.5, tail: Double = 0.5, to path: String) throws -> String {
        let blank = LumaImage(width: 640, height: 360, fill: 235)
        var pages: [LumaImage] = []
        for text in texts {
            let page = Scene.page(
                width: 640, height: 360, background: 235, centred: [(Scene.symbol(.qrCode, text, module: 3), x: 320, y: 180)])
            pages += Array(repeating: page, count: 8) + Array(repeating: blank, count: 8)
        }
        return try Scene.record(pages: pages, leadIn: leadIn, tail: tail, blank: blank, to: path)
    }

    /// The (boot, seq) of each numbered line, in order.
    public static func positions(_ lines: [String]) -> [EventPosition] { lines.compactMap { ReceivedEvent(reading: $0)?.position } }

    public static func scans(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix(#"{"class":"SCAN""#) } }

    public static func since(_ p: EventPosition) -> String { #"?WATCH={"enable":true,"since":\#(p.json)};"# + "\n" }
}
