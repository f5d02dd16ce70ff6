import Foundation

/// stdout and stderr written as scand writes them: one write(2) a line where it fits, so lines never interleave.
public enum StandardStream {
    public static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }  // a closed stdout is the reader's choice; nothing to do about it here
            offset += n
        }
    }
}
