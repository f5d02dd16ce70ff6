import Foundation
import Testing
import ScandTestSupport
@testable import ScandRuntime

@Suite struct OwnEventLoopTests {
    actor Probe {
        nonisolated let executor: OwnEventLoop
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }
        private var inside = 0
        private(set) var most = 0

        init(name: String) { executor = OwnEventLoop(name: name) }

        /// Whether this runs on the loop's thread, and that thread's name.
        func whereAmI() -> (onLoop: Bool, thread: String?) {
            (executor.isCurrent, ThreadName.current())
        }

        /// Blocks its thread a moment, counting how many calls are inside at once.
        func block() {
            inside += 1
            most = max(most, inside)
            Monotonic.pause(microseconds: 1000)
            inside -= 1
        }
    }

    @Test func anActorsJobsRunOnItsOwnNamedLoop() async {
        let probe = Probe(name: "scand-probe")
        let inside = await probe.whereAmI()
        #expect(inside.onLoop && inside.thread == "scand-probe")
        #expect(!probe.executor.isCurrent, "the test itself runs on the cooperative pool")
        let fromPool = await Task.detached { probe.executor.isCurrent }.value
        #expect(!fromPool)
    }

    @Test func jobsRunOneAtATime() async {
        let probe = Probe(name: "scand-serial")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { await probe.block() } }
        }
        #expect(await probe.most == 1)
    }

    /// Names of this process's threads, as the kernel has them.
    func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func theThreadEndsWithTheActor() async throws {
        do {
            let probe = Probe(name: "scand-ending")
            _ = await probe.whereAmI()
            #expect(threadNames().contains("scand-ending"))
        }
        #expect(await Eventually.check(seconds: 5) { !threadNames().contains("scand-ending") }, "a replaced pipeline leaves no thread behind")
    }
}
