import Foundation
import Testing
import ScandCore
@testable import ScandDecoding
import ScandTestSupport

/// The isolated decoder process: a pass that aborts, segfaults or hangs costs that pass only.
@Suite struct IsolationTests {
    init() {}
    func threeCodePage() -> (LumaImage, [DecodePass]) {
        let image = Scene.page(
            width: 900, height: 300,
            [
                (Scene.symbol(.qrCode, "left", module: 4), x: 150, y: 150, degrees: 0),
                (Scene.symbol(.qrCode, "middle", module: 4), x: 450, y: 150, degrees: 0),
                (Scene.symbol(.qrCode, "right", module: 4), x: 750, y: 150, degrees: 0)
            ])
        let passes = (0..<3).map { i in
            DecodePass(label: "third \(i)", crop: PixelRect(x: 300 * i, y: 0, width: 300, height: 300), formats: BarcodeFormats(.qrCode))
        }
        return (image, passes)
    }

    @Test(arguments: [(DecoderFault.abort, PassFailure.Kind.crashed), (.segfault, .crashed), (.hang, .timeout)])
    func faultInOnePassKeepsTheOthers(_ fault: DecoderFault, _ kind: PassFailure.Kind) {
        var (image, passes) = threeCodePage()
        passes[1].injectedFault = fault
        let report = ZXingDecoder(isolated: true, passTimeoutMilliseconds: 1500).decode(image, passes: passes)
        #expect(Set(report.detections.map(\.text)) == ["left", "right"])
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.pass == "third 1")
        #expect(report.failures.first?.kind == kind)
    }

    @Test func fallbackPassesRecoverACrashedPass() {
        let (image, passes) = threeCodePage()
        var crashing = passes[1]
        crashing.injectedFault = .abort
        var rescue = passes[1]
        rescue.label = "rescue"
        var doomed = rescue
        doomed.label = "doomed"
        doomed.injectedFault = .segfault
        crashing.fallbacks = [doomed, rescue]
        // The first pass aborts; its fallbacks run next: one crashes too, the other finds the code.
        let report = ZXingDecoder(isolated: true).decode(image, passes: [crashing])
        #expect(report.failures.map(\.pass) == ["third 1", "doomed"])
        #expect(report.detections.map(\.text) == ["middle"])
        #expect(report.passesRun == 3)
    }

    @Test func inProcessAndIsolatedAgree() {
        let (image, passes) = threeCodePage()
        let a = ZXingDecoder(isolated: false).decode(image, passes: passes)
        let b = ZXingDecoder(isolated: true).decode(image, passes: passes)
        #expect(a.detections == b.detections)
        #expect(a.detections.count == 3)
    }

    @Test func badGeometryNeverReachesTheLibrary() throws {
        let bytes = [UInt8](repeating: 255, count: 100)
        let pass = DecodePass(label: "x", crop: PixelRect(x: 0, y: 0, width: 10, height: 10), formats: .all)
        try bytes.withUnsafeBytes { raw in
            #expect(throws: ImageGeometryError.self) {
                try ZXingDecoder().decode(LumaView(raw, width: 20, height: 10, rowStride: 20, pixelStride: 1), passes: [pass])
            }
            #expect(throws: ImageGeometryError.self) {
                try ZXingDecoder().decode(LumaView(raw, width: 10, height: 10, rowStride: 5, pixelStride: 1), passes: [pass])
            }
            var outside = pass
            outside.crop = PixelRect(x: 5, y: 5, width: 10, height: 10)
            let report = try ZXingDecoder().decode(LumaView(raw, width: 10, height: 10, rowStride: 10, pixelStride: 1), passes: [outside])
            #expect(report.failures.first?.kind == .badArgument)
        }
    }

    @Test func readsTheLumaOfAYUYVFrameInPlace() throws {
        let luma = Scene.page(width: 320, height: 240, [(Scene.symbol(.qrCode, "yuyv", module: 3), x: 160, y: 120, degrees: 0)])
        var yuyv = [UInt8](repeating: 128, count: 320 * 240 * 2)
        for i in 0..<luma.pixels.count { yuyv[2 * i] = luma.pixels[i] }
        let pass = DecodePass(label: "yuyv", crop: Scene.full(luma), formats: BarcodeFormats(.qrCode))
        let report = try yuyv.withUnsafeBytes {
            try ZXingDecoder().decode(LumaView($0, width: 320, height: 240, rowStride: 640, pixelStride: 2), passes: [pass])
        }
        #expect(report.detections.map(\.text) == ["yuyv"])
    }
}

/// The persistent decoder process: the same answers as a process per call, a crash or hang replaced at the
/// next read, and a sandbox around the decoder.
@Suite struct DecoderWorkerTests {
    let page = IsolationTests().threeCodePage()

    @Test(arguments: [1, 2])
    func answersLikeAProcessPerCallAndSurvivesFaults(lanes: Int) throws {
        let (image, passes) = page
        let worker = try #require(DecoderWorker(lanes: lanes))
        let decoder = ZXingDecoder(isolated: true, passTimeoutMilliseconds: 1500, worker: worker)
        #expect(
            decoder.decode(image, passes: passes).detections == ZXingDecoder().decode(image, passes: passes).detections,
            "the same detections in the same order")
        #expect(worker.generation == lanes)
        for (fault, kind) in [(DecoderFault.abort, PassFailure.Kind.crashed), (.segfault, .crashed), (.hang, .timeout)] {
            var faulty = passes
            faulty[1].injectedFault = fault
            let report = decoder.decode(image, passes: faulty)
            #expect(Set(report.detections.map(\.text)) == ["left", "right"], "\(fault)")
            #expect(report.failures.map(\.kind) == [kind])
        }
        // Frames keep coming: a replacement answers (started when its lane has a pass again), and stays.
        for _ in 0..<5 { #expect(decoder.decode(image, passes: passes).detections.count == 3) }
        #expect(worker.generation == lanes + 3, "one new process after each fault, none otherwise")
        #expect(Set(worker.processIDs).count == lanes, "one process per lane, each its own")
    }

    /// Both lanes' processes hang in the same read, driven from one thread: each pass is an overrun of its
    /// own (timed from its own start), each hung process is replaced, and the next read answers in full.
    @Test func passesHangingOnBothLanesAtOnceAreEachAnOverrun() throws {
        let (image, passes) = page
        let worker = try #require(DecoderWorker(lanes: 2))
        let decoder = ZXingDecoder(isolated: true, passTimeoutMilliseconds: 500, worker: worker)
        var hanging = passes
        for k in hanging.indices { hanging[k].injectedFault = .hang }
        let report = decoder.decode(image, passes: hanging)
        #expect(report.detections.isEmpty)
        #expect(report.failures.map(\.kind) == Array(repeating: .timeout, count: passes.count), "\(report.failures)")
        #expect(decoder.decode(image, passes: passes).detections.count == 3)
        #expect(worker.generation == 2 + passes.count, "a process for each lane, and one after each overrun")
        #expect(Set(worker.processIDs).count == 2)
    }

    /// Issue 31, 9: a decoder stopped (SIGSTOP) before it took the pass is replaced at the deadline; that was
    /// reported as a system error, so the daemon's restart count stayed 0. It is an overrun, as a hang is.
    @Test func aStoppedDecoderIsAnOverrunAndIsReplaced() throws {
        let (image, passes) = page
        let worker = try #require(DecoderWorker(lanes: 1))
        let decoder = ZXingDecoder(isolated: true, passTimeoutMilliseconds: 500, worker: worker)
        #expect(decoder.decode(image, passes: passes).detections.count == 3)
        let stopped = try #require(worker.processIDs.first)
        #expect(kill(stopped, SIGSTOP) == 0)
        let report = decoder.decode(image, passes: passes)
        #expect(report.failures.map(\.kind) == [.timeout], "\(report.failures)")
        #expect(report.failures.first?.description.contains("no answer within 500 ms") == true, "\(report.failures)")
        #expect(decoder.decode(image, passes: passes).detections.count == 3)
        #expect(worker.processIDs.first != stopped && worker.generation == 2)
    }

    @Test func passesAreSharedBetweenLanesByCost() {
        #expect(LaneAssignment.lanes(costs: [10, 1, 1, 8], count: 2) == [0, 1, 1, 1], "10 against 8+1+1")
        #expect(LaneAssignment.lanes(costs: [5, 4, 3, 3, 1], count: 2) == [0, 1, 1, 0, 1], "5+3 against 4+3+1")
        #expect(LaneAssignment.lanes(costs: [3, 3, 3], count: 1) == [0, 0, 0])
        let matrix = DecodePass(label: "m", crop: PixelRect(x: 0, y: 0, width: 1280, height: 720), formats: .matrix)
        var linear = matrix
        linear.formats = .linear
        linear.tryHarder = false
        #expect(matrix.estimatedCost > 5 * linear.estimatedCost, "a linear scan reads a few rows; the matrix detectors binarize all")
    }

    @Test func framesCapturedIntoSharedMemoryAreReadWithoutACopy() throws {
        let worker = try #require(DecoderWorker())
        var decoder = FrameDecoder(formats: BarcodeFormats(.qrCode), decoder: ZXingDecoder(worker: worker))
        let luma = Scene.page(width: 640, height: 480, [(Scene.symbol(.qrCode, "shared", module: 4), x: 320, y: 240, degrees: 0)])
        let camera = Frame.yuyv(luma)
        let allocate = try #require(decoder.frameMemory)
        for _ in 0..<3 {
            let memory = try #require(allocate(640 * 480))
            let frame = try #require(
                camera.withUnsafeBytes {
                    Frame.capturingLuma(of: $0, format: camera.format, into: memory, sequence: 1, timestampMicroseconds: 0)
                })
            #expect(frame.format.fourcc == .grey && frame.byteCount == 640 * 480)
            #expect(try decoder.decode(frame).detections.map(\.text) == ["shared"])
        }
        #expect(worker.copiedReads == 0)
        #expect(try decoder.decode(camera).detections.map(\.text) == ["shared"])
        #expect(worker.copiedReads == 1, "a frame in an array is copied in, once")
    }

    @Test func frameMemoryIsBoundedAndComesBackWhenTheFrameGoes() throws {
        let worker = try #require(DecoderWorker())
        var held = (0..<6).compactMap { _ in worker.frameMemory(count: 4096) }
        #expect(held.count == 6)
        #expect(worker.frameMemory(count: 4096) == nil, "every buffer in use: the capture falls back to an array")
        held.removeLast()
        #expect(worker.frameMemory(count: 4096) != nil)
        held.removeAll()
        #expect(worker.frameMemory(count: 1 << 20) != nil, "free buffers that are too small make room for bigger ones")
    }

    @Test func readsTheLumaOfAYUYVFrameAndLargerImagesLater() throws {
        let worker = try #require(DecoderWorker())
        let decoder = ZXingDecoder(worker: worker)
        for (w, h) in [(320, 240), (2560, 1440), (640, 480)] {
            let luma = Scene.page(width: w, height: h, [(Scene.symbol(.qrCode, "\(w)", module: 3), x: Double(w) / 2, y: Double(h) / 2, degrees: 0)])
            var yuyv = [UInt8](repeating: 128, count: w * h * 2)
            for i in 0..<luma.pixels.count { yuyv[2 * i] = luma.pixels[i] }
            let pass = DecodePass(label: "yuyv", crop: Scene.full(luma), formats: BarcodeFormats(.qrCode))
            let report = try yuyv.withUnsafeBytes {
                try decoder.decode(LumaView($0, width: w, height: h, rowStride: 2 * w, pixelStride: 2), passes: [pass])
            }
            #expect(report.detections.map(\.text) == ["\(w)"])
        }
    }

    @Test func theWorkerHoldsNoDescriptorOfTheDaemon() throws {
        // Like the camera's: a descriptor the worker kept open would keep an unplugged camera from coming back.
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        let worker = try #require(DecoderWorker())
        let (image, passes) = page
        _ = ZXingDecoder(worker: worker).decode(image, passes: passes)
        #expect(!worker.processIDs.isEmpty)
        for pid in worker.processIDs {
            let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap { Int32($0) }.sorted()
            #expect(!fds.contains(held))
            #expect(fds.count <= 6, "stdin, stdout, stderr and its three channels: \(fds)")
        }
    }

    /// The decoder processes are scand-decoder, exec'd (posix_spawn): not a fork of this threaded process
    /// running on in its image, and none of this process's memory beyond the frame buffers it was given.
    @Test func theWorkerRunsTheDecoderExecutableNotAFork() throws {
        let decoderPath = try DecoderExecutable.path()
        #expect(decoderPath.hasSuffix("/scand-decoder"))
        let worker = try #require(DecoderWorker(lanes: 2))
        let (image, passes) = page
        #expect(ZXingDecoder(worker: worker).decode(image, passes: passes).detections.count == 3)
        #expect(worker.processIDs.count == 2)
        for pid in worker.processIDs {
            let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
            #expect(URL(fileURLWithPath: exe).resolvingSymlinksInPath().path == URL(fileURLWithPath: decoderPath).resolvingSymlinksInPath().path)
            let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
            #expect(!maps.contains("libswiftFoundation") && !maps.contains("scandPackageTests"), "no image of this process")
            #expect(maps.contains("/memfd:scand-frame"), "the frame buffers, shared")
        }
    }

    /// Run by hand, scand-decoder says what it is for and exits 64 (EX_USAGE), serving nothing; asked for
    /// another layout of requests (a scand of another build), it says so.
    @Test func theDecoderExecutableRefusesToRunByHand() throws {
        let v1 = "requests-v1", me = "\(getpid())"
        for arguments in [[], ["1", "2", "3"], [me, "3", "4", "5"], [v1, me, "x", "4", "5"], [v1, me, "3", "4", "5", "0:9:bad"]] {
            let run = try ScandBinary.runTool(try DecoderExecutable.path(), arguments)
            #expect(run.status == 64, "\(arguments): \(run.status)")
            #expect(run.stderr.hasPrefix("scand-decoder: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
        let other = try ScandBinary.runTool(try DecoderExecutable.path(), ["requests-v0", me, "3", "4", "5"])
        #expect(other.status == 64)
        #expect(
            other.stderr
                == "scand-decoder: scand sends requests-v0, this scand-decoder reads requests-v1: they are from different builds (restart scand)\n")
    }

    /// Each call a decoder exploited through a hostile image could use against the daemon, tried for real in the
    /// per-call child and in the persistent worker: every one fails with EPERM, and what the child writes to its
    /// stdout does not reach the parent's (the daemon's event stream).
    @Test func decoderChildrenAreConfinedToTheirPipes() throws {
        let (image, passes) = page
        var probe = passes[0]
        probe.injectedFault = .sandboxProbe
        let denied = ["socket", "create", "openat2", "mknodat", "/etc/shadow", "kill", "ptrace", "process_vm_readv", "io_uring_setup"]
        for decoder in [ZXingDecoder(), ZXingDecoder(worker: DecoderWorker())] {
            let (report, printed) = try capturingStdout { decoder.decode(image, passes: [probe]) }
            // The probe's finding rides in the outcome's message; the pass itself succeeded.
            #expect(report.detections.map(\.text) == ["left"])
            #expect(report.notes == ["sandbox: " + denied.map { "\($0) EPERM" }.joined(separator: ", ")], "\(report.notes)")
            #expect(!printed.contains("SCAND-SANDBOX-PROBE"), "the child's stdout is not the parent's")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/scand-sandbox-probe-fifo"))
    }

    /// Runs `body` with this process's stdout on a pipe, and returns what reached it. (Other tests' output in
    /// that moment lands there too; it is only searched for the probe's line.)
    func capturingStdout<R>(_ body: () -> R) throws -> (R, String) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        fflush(nil)
        let saved = dup(1)
        dup2(fds[1], 1)
        let result = body()
        fflush(nil)
        dup2(saved, 1)
        close(saved)
        close(fds[1])
        // Not to the end: a child that inherited the pipe as its stdout would hold it open.
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var text = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = read(fds[0], &chunk, chunk.count), n > 0 { text += chunk[0..<n] }
        close(fds[0])
        return (result, String(decoding: text, as: UTF8.self))
    }
}
