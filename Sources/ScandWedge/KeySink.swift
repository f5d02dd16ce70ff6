import ScandCore

/// Where the wedge's key events go: the virtual keyboard, or stdout for `--dry-run`. Calls block (the
/// waits between keys included), so the wedge makes them on a thread of its own.
public protocol KeySink: Sendable {
    /// Sends `events` in order, waiting `delay` after each.
    func send(_ events: [KeyEvent], delay: Duration) throws(KeySinkError)
}

public struct KeySinkError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// `scand wedge --dry-run`: each code's key events as one line on stdout, `KEYS <code><↓|↑> …`, with the
/// text they type under the layout, `TEXT "…"` (control characters escaped), so a layout can be checked
/// without a kiosk.
public struct PrintingKeySink: KeySink {
    let layout: KeyboardLayout
    let write: @Sendable (String) -> Void

    public init(layout: KeyboardLayout, write: @escaping @Sendable (String) -> Void) {
        self.layout = layout
        self.write = write
    }

    public func send(_ events: [KeyEvent], delay: Duration) throws(KeySinkError) {
        let text = layout.decode(events).escapingControlCharacters()
        write("KEYS \(events.map(\.description).joined(separator: " "))\nTEXT \"\(text)\"\n")
    }
}
