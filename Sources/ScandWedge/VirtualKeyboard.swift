import Foundation
import ScandCore
import ScandUInputShim

/// A keyboard made through /dev/uinput: the input stack (X, Wayland compositors, the console) takes it as
/// one more USB keyboard and applies the session's layout to its keys. Destroyed on `close` or deinit.
public final class VirtualKeyboard: KeySink, @unchecked Sendable {  // @unchecked: a C file descriptor, used from one thread at a time
    public static let defaultPath = "/dev/uinput"

    /// Why the keyboard could not be made, with the errno.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32

        public var description: String {
            switch code {
            case ENOENT, ENODEV, ENXIO:
                "\(path): no uinput device (load the module: modprobe uinput): \(String(cString: strerror(code)))"
            case EACCES, EPERM:
                "\(path): permission denied (the user needs the group of /dev/uinput: scand-uinput with the package's udev rule)"
            default:
                "\(path): cannot create a virtual keyboard: \(String(cString: strerror(code)))"
            }
        }
    }

    private let fd: Int32
    public let name: String

    /// Declares exactly `keys` (the layout's, with the modifiers, Enter and Tab).
    public init(path: String = defaultPath, name: String, keys: [KeyCode]) throws(Failure) {
        let codes = keys.map(\.rawValue)
        let fd = codes.withUnsafeBufferPointer { scand_uinput_create(path, name, $0.baseAddress, $0.count) }
        guard fd >= 0 else { throw Failure(path: path, code: -fd) }
        self.fd = fd
        self.name = name
    }

    deinit { scand_uinput_destroy(fd) }

    public func send(_ events: [KeyEvent], delay: Duration) throws(KeySinkError) {
        let pause = delay.components
        for event in events {
            let r = scand_uinput_key(fd, event.key.rawValue, event.pressed ? 1 : 0)
            guard r == 0 else {
                // A key left down would repeat: release what this code pressed before giving up.
                for held in events where held.pressed { _ = scand_uinput_key(fd, held.key.rawValue, 0) }
                throw KeySinkError("writing to the virtual keyboard failed: \(String(cString: strerror(-r)))")
            }
            guard delay > .zero else { continue }
            var wait = timespec(tv_sec: Int(pause.seconds), tv_nsec: Int(pause.attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
        }
    }
}
