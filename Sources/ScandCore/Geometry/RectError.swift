public struct RectError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, without the "rect of interest" that `description` starts with.
    public let reason: String
    public var description: String { "rect of interest: " + reason }
    public init(_ reason: String) { self.reason = reason }
}
