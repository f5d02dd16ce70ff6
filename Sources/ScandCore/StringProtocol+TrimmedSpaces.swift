extension StringProtocol {
    /// Leading and trailing spaces and tabs removed (the core avoids Foundation).
    public func trimmedSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
