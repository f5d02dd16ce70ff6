import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// A serial executor with a thread of its own: an actor that uses it (`unownedExecutor`) runs every job
/// there, so its blocking calls (poll, ioctl, a decoder process's answer) never hold a thread of Swift's
/// cooperative pool. As a task executor (`Task(executorPreference:)`) it also runs the task that drives the
/// actor, so starting one needs no free thread in the pool either. The thread ends once the executor is
/// gone and its queue is empty.
public final class DedicatedThreadExecutor: SerialExecutor, TaskExecutor {
    private let queue: JobQueue

    /// - Parameter name: the thread's name (15 bytes at most), as `top -H` and debuggers show it.
    public init(name: String) {
        let queue = JobQueue()
        self.queue = queue
        let serial = UnownedSerialExecutor(ordinary: self), task = UnownedTaskExecutor(ordinary: self)
        let thread = Thread {
            nameThisThread(name)
            queue.run(isolatedTo: serial, taskExecutor: task)
        }
        thread.start()
    }

    deinit { queue.close() }

    public func enqueue(_ job: consuming ExecutorJob) {
        queue.push(UnownedJob(job))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrent: Bool { queue.isCurrentThread }

    public func checkIsolated() {
        precondition(isCurrent, "not on the executor's own thread")
    }
}

/// Names the calling thread as the kernel shows it (`top -H`, /proc): Linux threads otherwise keep their
/// creator's name, and Glibc's module does not offer pthread_setname_np.
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// The jobs waiting for the thread: one semaphore signal per job pushed, and one for the close.
private final class JobQueue: Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        var closed = false
        var thread: pthread_t?
    }
    private let state = NIOLockedValueBox(State())
    private let ready = DispatchSemaphore(value: 0)

    func push(_ job: UnownedJob) {
        state.withLockedValue { $0.jobs.append(job) }
        ready.signal()
    }

    func close() {
        state.withLockedValue { $0.closed = true }
        ready.signal()
    }

    var isCurrentThread: Bool {
        state.withLockedValue { s in s.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// The thread's body: runs jobs in order until closed and drained.
    func run(isolatedTo serial: UnownedSerialExecutor, taskExecutor task: UnownedTaskExecutor) {
        state.withLockedValue { $0.thread = pthread_self() }
        while true {
            ready.wait()
            let job: UnownedJob? = state.withLockedValue { s in
                guard s.head < s.jobs.count else { return nil }
                let job = s.jobs[s.head]
                s.head += 1
                if s.head == s.jobs.count { s.jobs.removeAll(keepingCapacity: true); s.head = 0 }
                return job
            }
            if let job {
                job.runSynchronously(isolatedTo: serial, taskExecutor: task)
            } else if state.withLockedValue({ $0.closed && $0.head == $0.jobs.count }) {
                return
            }
        }
    }
}
