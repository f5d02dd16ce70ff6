import Foundation
import ScandCore
import ScandZXingShim
import NIOConcurrencyHelpers

/// Runs decode passes through the zxing-cpp shim.
///
/// With `isolated` (the default) the passes run in a forked, sandboxed child process: a library fault on a
/// hostile or unlucky image (zxing-cpp 1.4 aborted on many; 3.1 has none known) must cost one pass, not the
/// daemon.
/// Detections come back in source-image pixels. Blocking: call it off Swift's cooperative pool.
public struct ZXingDecoder: Sendable {
    public var isolated: Bool
    /// Per-pass deadline in the isolated child; 0 for none.
    public var passTimeoutMilliseconds: Int
    /// A persistent isolated decoder process instead of a fork per call (the live path, frame after frame).
    public var worker: DecoderWorker?

    public init(isolated: Bool = true, passTimeoutMilliseconds: Int = 10_000, worker: DecoderWorker? = nil) {
        self.isolated = isolated
        self.passTimeoutMilliseconds = passTimeoutMilliseconds
        self.worker = worker
    }

    public static var libraryVersion: String { String(cString: szx_version()) }

    public func decode(_ image: LumaImage, passes: [DecodePass]) -> DecodeReport {
        image.pixels.withUnsafeBytes { raw in
            // Safe: `decode(buffer:)` checks geometry against the buffer before the library sees it.
            (try? decode(buffer: raw, width: image.width, height: image.height, rowStride: image.width, pixelStride: 1,
                         passes: passes)) ?? DecodeReport()
        }
    }

    /// Decodes luminance samples in place: `pixelStride` 2 reads the Y of a YUYV frame without a copy.
    public func decode(buffer: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int, pixelStride: Int,
                       passes: [DecodePass]) throws(ImageGeometryError) -> DecodeReport {
        guard width > 0, height > 0, pixelStride >= 1, rowStride >= (width - 1) * pixelStride + 1 else {
            throw ImageGeometryError(description: "bad image geometry \(width)x\(height), row stride \(rowStride), pixel stride \(pixelStride)")
        }
        let needed = (height - 1) * rowStride + (width - 1) * pixelStride + 1
        guard buffer.count >= needed, let base = buffer.baseAddress else {
            throw ImageGeometryError(description: "buffer of \(buffer.count) bytes is smaller than \(needed) needed for \(width)x\(height)")
        }
        var image = szx_image(data: base.assumingMemoryBound(to: UInt8.self), width: Int32(width), height: Int32(height),
                              row_stride: Int32(rowStride), pix_stride: Int32(pixelStride))
        var report = DecodeReport()
        var pending = passes
        while !pending.isEmpty {
            let batch = pending
            pending = []
            let outcome = run(&image, batch)
            report.passesRun += batch.count
            report.detections += outcome.detections.map(\.detection)
            report.foundBy += outcome.detections.map(\.pass)
            report.notes += outcome.notes
            for (pass, failure) in outcome.failures {
                report.failures.append(failure)
                pending += pass.fallbacks
            }
        }
        return report
    }

    private func run(_ image: inout szx_image, _ passes: [DecodePass]) -> (detections: [(detection: Detection, pass: String)], failures: [(DecodePass, PassFailure)], notes: [String]) {
        var cPasses = passes.map(\.cValue)
        if let worker, worker.lanes > 1 {
            for (i, lane) in LaneAssignment.lanes(costs: passes.map(\.estimatedCost), count: worker.lanes).enumerated() {
                cPasses[i].lane = Int32(lane)
            }
        }
        var outcomes = [szx_outcome](repeating: szx_outcome(), count: passes.count)
        var results: UnsafeMutablePointer<szx_result>?
        var count: Int32 = 0
        let status = cPasses.withUnsafeBufferPointer { pp in
            outcomes.withUnsafeMutableBufferPointer { op in
                if let worker {
                    worker.read(&image, pp.baseAddress, Int32(passes.count), Int32(passTimeoutMilliseconds), op.baseAddress, &results, &count)
                } else {
                    szx_read(&image, pp.baseAddress, Int32(passes.count), isolated ? 1 : 0, Int32(passTimeoutMilliseconds),
                             op.baseAddress, &results, &count)
                }
            }
        }
        defer { szx_free_results(results, count) }
        guard status == Int32(SZX_OK.rawValue) else {
            let failure = PassFailure(pass: "all", kind: .badArgument, signal: 0, message: "the decoder refused the image")
            return ([], passes.map { ($0, failure) }, [])
        }
        var detections: [(detection: Detection, pass: String)] = []
        for i in 0..<Int(count) {
            guard let r = results?[i], let format = BarcodeFormat(rawValue: Int(r.format)), passes.indices.contains(Int(r.pass)) else { continue }
            let pass = passes[Int(r.pass)]
            detections.append((Self.detection(r, format: format, pass: pass), pass.label))
        }
        var failures: [(DecodePass, PassFailure)] = []
        for (i, o) in outcomes.enumerated() where o.status != Int32(SZX_OK.rawValue) {
            failures.append((passes[i], PassFailure(pass: passes[i].label, kind: Self.kind(o.status), signal: o.signal,
                                                   message: String(fixedCString: o.message))))
        }
        let notes = outcomes.filter { $0.status == Int32(SZX_OK.rawValue) }.map { String(fixedCString: $0.message) }.filter { !$0.isEmpty }
        return (detections, failures, notes)
    }

    static func detection(_ r: szx_result, format: BarcodeFormat, pass: DecodePass) -> Detection {
        let text = r.text.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(r.text_length)), as: UTF8.self) } ?? ""
        let bytes = r.bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(r.bytes_length))) } ?? []
        let c = r.corners
        let raw = [Point(Double(c.0), Double(c.1)), Point(Double(c.2), Double(c.3)),
                   Point(Double(c.4), Double(c.5)), Point(Double(c.6), Double(c.7))]
        let sequence = r.sequence_size > 0 && r.sequence_index >= 0
            ? Detection.Sequence(count: Int(r.sequence_size), index: Int(r.sequence_index), id:String(fixedCString: r.sequence_id))
            : nil
        return Detection(
            format: format, text: text, bytes: bytes, corners: Quadrilateral(raw.map(pass.sourcePoint)),
            orientation: Int(r.orientation), symbologyIdentifier:String(fixedCString: r.symbology), hasECI: r.has_eci != 0,
            ecLevel:String(fixedCString: r.ec_level), mirrored: (r.mirrored != 0) != pass.mirror, inverted: pass.invert || r.inverted != 0,
            contentType: contentType(r.content_type), sequence: sequence, readerInit: r.reader_init != 0,
            lineCount: Int(r.line_count))
    }

    static func contentType(_ raw: Int32) -> Detection.ContentType {
        switch raw {
        case 1: .binary
        case 2: .mixed
        case 3: .gs1
        case 4: .iso15434
        case 5: .unknownECI
        default: .text
        }
    }

    static func kind(_ status: Int32) -> PassFailure.Kind {
        switch UInt32(status) {
        case SZX_BAD_ARGUMENT.rawValue: .badArgument
        case SZX_EXCEPTION.rawValue: .exception
        case SZX_CRASHED.rawValue: .crashed
        case SZX_TIMEOUT.rawValue: .timeout
        default: .system
        }
    }
}

public struct ImageGeometryError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

/// The persistent decoder processes (szx_worker): forked once, fed through shared memory, replaced when
/// one crashes or overruns a deadline. With two lanes (the default on a machine with two cores) the passes
/// of one frame are shared between two processes that run at once, so the second core shortens each frame.
/// One reader at a time (the handle is under a lock for it); frame memory may be taken from any thread.
public final class DecoderWorker: Sendable {
    /// For reads, retiring and the process ids: one caller at a time.
    private let reader: NIOLockedValueBox<WorkerHandle>
    /// For the shim's thread-safe calls (buffers and counters), which must not wait for a read.
    private let handle: WorkerHandle
    /// Decoder processes a read's passes are shared between.
    public let lanes: Int

    /// One lane per core, up to two: more would take cores the capture and the service need.
    public static var defaultLanes: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    public init?(lanes: Int = DecoderWorker.defaultLanes) {
        guard let h = WorkerHandle(lanes: lanes) else { return nil }
        handle = h
        reader = NIOLockedValueBox(h)
        self.lanes = Int(szx_worker_lanes(h.pointer))
    }

    /// Ends the worker processes now, as a pipeline that stops must not leave them behind; the next read
    /// starts new ones.
    public func retire() { reader.withLockedValue { szx_worker_retire($0.pointer) } }

    /// The process id of each lane's process while one runs.
    public var processIDs: [Int32] {
        reader.withLockedValue { h in (0..<lanes).map { szx_worker_pid(h.pointer, Int32($0)) }.filter { $0 > 0 } }
    }

    /// The first lane's process id while one runs.
    public var processID: Int32? { processIDs.first }

    /// How many worker processes have been started: one per lane used in a healthy run, one more after each crash.
    public var generation: Int { Int(szx_worker_generation(handle.pointer)) }

    /// Reads whose image was copied into shared memory first, because it had not been captured into `frameMemory`.
    public var copiedReads: Int { Int(szx_worker_copies(handle.pointer)) }

    /// Shared memory to capture a frame into: the decoder processes then read it where it is, with no copy.
    /// nil when every buffer is in use.
    public func frameMemory(count: Int) -> (any FrameMemory)? {
        // Not under `reader`: the capture thread must not wait for a decode to finish.
        guard count > 0, let p = szx_worker_acquire_buffer(handle.pointer, count) else { return nil }
        return SharedFrameBuffer(handle: handle, bytes: UnsafeMutableRawBufferPointer(start: p, count: count))
    }

    func read(_ image: inout szx_image, _ passes: UnsafePointer<szx_pass>?, _ count: Int32, _ timeout: Int32,
              _ outcomes: UnsafeMutablePointer<szx_outcome>?, _ results: inout UnsafeMutablePointer<szx_result>?,
              _ resultCount: inout Int32) -> Int32 {
        reader.withLockedValue { szx_worker_read($0.pointer, &image, passes, count, timeout, outcomes, &results, &resultCount) }
    }
}

/// Sendable by hand: a C handle (szx_worker); its buffer and counter calls are thread-safe, the rest go through `DecoderWorker.reader`.
private final class WorkerHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init?(lanes: Int) {
        guard let p = szx_worker_create(Int32(lanes)) else { return nil }
        pointer = p
    }

    deinit { szx_worker_destroy(pointer) }
}

/// A buffer of the worker's shared memory holding one captured frame; given back when the frame goes.
/// Sendable by hand: mmap'd shared memory, written once by the capture and then only read.
private final class SharedFrameBuffer: FrameMemory, @unchecked Sendable {
    let handle: WorkerHandle
    let bytes: UnsafeMutableRawBufferPointer

    init(handle: WorkerHandle, bytes: UnsafeMutableRawBufferPointer) {
        self.handle = handle
        self.bytes = bytes
    }

    deinit { if let p = bytes.baseAddress { szx_worker_release_buffer(handle.pointer, p.assumingMemoryBound(to: UInt8.self)) } }
}

/// Shares a read's passes between decoder processes: longest first, each to the least loaded lane.
enum LaneAssignment {
    static func lanes(costs: [Double], count: Int) -> [Int] {
        guard count > 1 else { return costs.map { _ in 0 } }
        var load = [Double](repeating: 0, count: count), lane = [Int](repeating: 0, count: costs.count)
        for i in costs.indices.sorted(by: { costs[$0] > costs[$1] }) {
            let l = load.indices.min { load[$0] < load[$1] }!
            lane[i] = l
            load[l] += costs[i]
        }
        return lane
    }
}
