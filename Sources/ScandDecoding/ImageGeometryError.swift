/// An image or frame whose size, strides or buffer do not fit together.
public struct ImageGeometryError: Error, CustomStringConvertible, Equatable {
    public let description: String
}
