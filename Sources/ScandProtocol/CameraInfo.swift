import ScandCore

/// A video device as `scand devices` lists it: what the node is, its stable names and what it offers.
public struct CameraInfo: Sendable, Equatable {
    public struct Format: Sendable, Equatable {
        public var fourcc: FourCC
        public var description: String
        /// Converted by libv4lconvert rather than sent by the camera.
        public var emulated: Bool
        public var sizes: [Size]

        public init(fourcc: FourCC, description: String, emulated: Bool, sizes: [Size]) {
            self.fourcc = fourcc
            self.description = description
            self.emulated = emulated
            self.sizes = sizes
        }
    }

    public struct Size: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var framesPerSecond: [Double]

        public init(width: Int, height: Int, framesPerSecond: [Double]) {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
        }
    }

    public var path: String
    /// /dev/v4l/by-id and by-path names that point at this node.
    public var stableNames: [String]
    public var driver: String
    public var card: String
    public var busInfo: String
    public var isCapture: Bool
    public var formats: [Format]
    /// Why the device could not be inspected, when it could not.
    public var problem: String?
    /// What `scand run` captures in at the size asked (`scand devices --size`), and why.
    public var choice: PixelFormatChoice?
    /// Its V4L2 controls with their ranges and values (`scand devices --controls`).
    public var controls: [CameraControl] = []

    public init(
        path: String, stableNames: [String], driver: String, card: String, busInfo: String, isCapture: Bool, formats: [Format],
        problem: String? = nil
    ) {
        self.path = path
        self.stableNames = stableNames
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.isCapture = isCapture
        self.formats = formats
        self.problem = problem
    }
}
