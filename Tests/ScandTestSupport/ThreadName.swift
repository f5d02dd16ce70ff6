import Foundation

public enum ThreadName {
    /// The calling thread's name, as the kernel has it.
    public static func current() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }
}
