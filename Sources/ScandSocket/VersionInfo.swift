import ScandProtocol
import ScandDecoding

/// What VERSION says: first on stdout and first to every socket client (gpsd's banner). `proto` is the
/// event schema's version: the major number changes when a field changes meaning or goes away, the minor
/// when fields or classes are added.
public enum VersionInfo {
    public static let release = "0.1.0"
    public static let protoMajor = 1
    public static let protoMinor = 5

    public static var banner: VersionBanner {
        VersionBanner(release: release, protoMajor: protoMajor, protoMinor: protoMinor, zxing: ZXingDecoder.libraryVersion)
    }
}
