/// Why something is refused, in one line: what the setting, request, event line or camera control
/// checks say (`Setting.Problem`, `ClientRequest.Problem`, … are this type).
public struct Problem: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
