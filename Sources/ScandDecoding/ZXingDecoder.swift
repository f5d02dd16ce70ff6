import Foundation
import ScandCore
import ScandZXingShim

/// Runs decode passes through the zxing-cpp shim.
///
/// With `isolated` (the default) the passes run in a sandboxed decoder process (scand-decoder): a library fault on a
/// hostile or unlucky image must cost one pass, not the daemon.
/// Detections come back in source-image pixels. Blocking: call it off Swift's cooperative pool.
public struct ZXingDecoder: Sendable {
    public var isolated: Bool
    /// Per-pass deadline in the isolated child; 0 for none.
    public var passTimeoutMilliseconds: Int
    /// A persistent isolated decoder process instead of one per call (the live path, frame after frame).
    public var worker: DecoderWorker?

    public init(isolated: Bool = true, passTimeoutMilliseconds: Int = 10_000, worker: DecoderWorker? = nil) {
        self.isolated = isolated
        self.passTimeoutMilliseconds = passTimeoutMilliseconds
        self.worker = worker
    }

    public static var libraryVersion: String { String(cString: szx_version()) }

    public func decode(_ image: LumaImage, passes: [DecodePass]) -> DecodeReport {
        image.withView { luma in
            // Safe: `decode(_:passes:)` checks geometry against the buffer before the library sees it.
            (try? decode(luma, passes: passes)) ?? DecodeReport()
        }
    }

    /// Decodes luminance samples in place: `pixelStride` 2 reads the Y of a YUYV frame without a copy.
    public func decode(_ luma: LumaView, passes: [DecodePass]) throws(ImageGeometryError) -> DecodeReport {
        let buffer = luma.buffer, width = luma.width, height = luma.height, rowStride = luma.rowStride, pixelStride = luma.pixelStride
        guard width > 0, height > 0, pixelStride >= 1, rowStride >= (width - 1) * pixelStride + 1 else {
            throw ImageGeometryError(description: "bad image geometry \(width)x\(height), row stride \(rowStride), pixel stride \(pixelStride)")
        }
        let needed = (height - 1) * rowStride + (width - 1) * pixelStride + 1
        guard buffer.count >= needed, let base = buffer.baseAddress else {
            throw ImageGeometryError(description: "buffer of \(buffer.count) bytes is smaller than \(needed) needed for \(width)x\(height)")
        }
        var image = szx_image(
            data: base.assumingMemoryBound(to: UInt8.self), width: Int32(width), height: Int32(height),
            row_stride: Int32(rowStride), pix_stride: Int32(pixelStride))
        var report = DecodeReport()
        var pending = passes
        while !pending.isEmpty {
            let batch = pending
            pending = []
            let outcome = run(&image, batch)
            report.passesRun += batch.count
            report.found += outcome.found
            report.notes += outcome.notes
            for (pass, failure) in outcome.failures {
                report.failures.append(failure)
                pending += pass.fallbacks
            }
        }
        return report
    }

    private func run(
        _ image: inout szx_image, _ passes: [DecodePass]
    ) -> (found: [DecodeReport.Found], failures: [(DecodePass, PassFailure)], notes: [String]) {
        // Geometry is refused here, where it is defined; the shim checks the rest.
        let problems = passes.map(PassGeometry.problem)
        let sent = passes.indices.filter { problems[$0] == nil }
        var cPasses = sent.map { passes[$0].cValue }
        if let worker, worker.lanes > 1 {
            for (i, lane) in LaneAssignment.lanes(costs: sent.map { passes[$0].estimatedCost }, count: worker.lanes).enumerated() {
                cPasses[i].lane = Int32(lane)
            }
        }
        var outcomes = [szx_outcome](repeating: szx_outcome(), count: sent.count)
        var results: UnsafeMutablePointer<szx_result>?
        var count: Int32 = 0
        let status =
            sent.isEmpty
            ? Int32(SZX_OK.rawValue)
            : cPasses.withUnsafeBufferPointer { pp in
                outcomes.withUnsafeMutableBufferPointer { op in
                    if let worker {
                        worker.read(&image, pp.baseAddress, Int32(sent.count), Int32(passTimeoutMilliseconds), op.baseAddress, &results, &count)
                    } else {
                        szx_read(
                            &image, pp.baseAddress, Int32(sent.count), isolated ? 1 : 0, Int32(passTimeoutMilliseconds),
                            op.baseAddress, &results, &count)
                    }
                }
            }
        defer { szx_free_results(results, count) }
        guard status == Int32(SZX_OK.rawValue) else {
            let failure = PassFailure(pass: "all", kind: .badArgument, signal: 0, message: "the decoder refused the image")
            return ([], passes.map { ($0, failure) }, [])
        }
        var found: [DecodeReport.Found] = []
        for i in 0..<Int(count) {
            guard let r = results?[i], let format = BarcodeFormat(rawValue: Int(r.format)), sent.indices.contains(Int(r.pass)) else { continue }
            let index = sent[Int(r.pass)], pass = passes[index]
            found.append(DecodeReport.Found(detection: Self.detection(r, format: format, pass: pass), role: pass.role, pass: index))
        }
        let outcome = Dictionary(uniqueKeysWithValues: zip(sent, outcomes))
        var failures: [(DecodePass, PassFailure)] = []
        for (i, pass) in passes.enumerated() {
            if let problem = problems[i] {
                failures.append((pass, PassFailure(pass: pass.label, kind: .badArgument, signal: 0, message: problem)))
            } else if let o = outcome[i], o.status != Int32(SZX_OK.rawValue) {
                failures.append(
                    (
                        pass,
                        PassFailure(
                            pass: pass.label, kind: Self.kind(o.status), signal: o.signal,
                            message: String(fixedCString: o.message))
                    ))
            }
        }
        let notes = outcomes.filter { $0.status == Int32(SZX_OK.rawValue) }.map { String(fixedCString: $0.message) }.filter { !$0.isEmpty }
        return (found, failures, notes)
    }

    static func detection(_ r: szx_result, format: BarcodeFormat, pass: DecodePass) -> Detection {
        let text = r.text.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(r.text_length)), as: UTF8.self) } ?? ""
        let bytes = r.bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(r.bytes_length))) } ?? []
        let c = r.corners, geometry = pass.geometry
        let raw = [
            Point(Double(c.0), Double(c.1)), Point(Double(c.2), Double(c.3)),
            Point(Double(c.4), Double(c.5)), Point(Double(c.6), Double(c.7))
        ]
        let sequence =
            r.sequence_size > 0 && r.sequence_index >= 0
            ? Detection.Sequence(count: Int(r.sequence_size), index: Int(r.sequence_index), id: String(fixedCString: r.sequence_id))
            : nil
        return Detection(
            format: format, text: text, bytes: bytes, corners: Quadrilateral(raw.map(geometry.sourcePoint)),
            orientation: Int(r.orientation), symbologyIdentifier: String(fixedCString: r.symbology), hasECI: r.has_eci != 0,
            ecLevel: String(fixedCString: r.ec_level), mirrored: (r.mirrored != 0) != pass.mirror, inverted: pass.invert || r.inverted != 0,
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
