import Foundation
import NIOCore
import NIOPosix

/// An event loop of its own (NIO's, on one thread) as the serial executor of an actor whose jobs block
/// (poll, ioctl, a decoder process's answer): they never hold a thread of Swift's cooperative pool, nor a
/// loop the socket shares. NIO's loop is already a `SerialExecutor`; this only owns its group, names its
/// thread as `top -H` shows it, and ends the thread once the owner is gone.
public final class OwnEventLoop: Sendable {
    private let group: MultiThreadedEventLoopGroup
    public let loop: any EventLoop

    /// - Parameter name: the thread's name (15 bytes at most).
    public init(name: String) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        // The first job on the loop, so before anything of the actor's.
        loop.execute { setThreadName(name) }
    }

    /// Shut down without waiting: this may be the loop's own thread, releasing its actor's last reference.
    deinit { group.shutdownGracefully { _ in } }

    /// For an actor's `unownedExecutor`: the loop lives as long as this does.
    public var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    /// Whether the caller runs on the loop's thread.
    public var isCurrent: Bool { loop.inEventLoop }
}

/// Names the calling thread as the kernel shows it (`top -H`, /proc): NIO names its threads by group
/// number, and Glibc's module does not offer pthread_setname_np.
private func setThreadName(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
