public struct RectError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = "rect of interest: " + description }
}
