import Logging
import NIOConcurrencyHelpers
import ScandCapture
import ScandCore
import ScandDecoding
import ScandTestSupport
import ServiceLifecycle
import Testing
@testable import ScandPipeline

/// The live pipeline as a service of a group: a new configuration that changes the camera swaps pipelines inside
/// the service's run loop; one that does not keeps the pipeline; graceful shutdown stops the one running.
@Suite struct PipelineServiceTests {
    /// A service whose pipelines play a grey frame until stopped, each source named by its configured size (each
    /// pipeline's DEVICE events are told apart), counted in `made`; and a group that runs it.
    static func service(
        writingTo lines: LivePipelineTests.Lines, made: NIOLockedValueBox<Int> = NIOLockedValueBox(0)
    ) -> (
        PipelineService, ServiceGroup
    ) {
        let frame = Frame.yuyv(LumaImage(width: 64, height: 48, fill: 120))
        let service = PipelineService(config: ScandConfig(), output: lines.sink) { config in
            made.withLockedValue { $0 += 1 }
            let source = SyntheticSource(name: "\(config.width)x\(config.height)", frames: [frame], count: .max, framesPerSecond: 30)
            return LivePipeline(source: source, decoder: FrameDecoder(), output: lines.sink)
        }
        return (service, ServiceGroup(configuration: .init(services: [.init(service: service)], logger: Logger(label: "test"))))
    }

    @Test func aCameraChangeSwapsThePipelineInsideTheRunLoop() async throws {
        let lines = LivePipelineTests.Lines()
        let made = NIOLockedValueBox(0)
        let (service, group) = Self.service(writingTo: lines, made: made)
        async let running: Void = group.run()
        let first = await service.current
        #expect(await Eventually.check { first.deviceStatus?.state == .streaming })

        var decoding = await service.config
        decoding.formats = BarcodeFormats(.code128)
        #expect(await service.apply(decoding) == [], "decoding settings only")
        #expect(await service.current === first)

        var resized = await service.config
        resized.width = 320
        resized.height = 240
        let changes = await service.apply(resized)
        #expect(changes.count == 1 && changes.first?.hasPrefix("size ") == true, "\(changes)")
        let second = await service.current
        #expect(second !== first)
        #expect(await Eventually.check { second.deviceStatus?.state == .streaming }, "the run loop went on with the new pipeline")
        #expect(first.deviceStatus?.state == .stopped)
        let reason = first.deviceStatus?.reason ?? ""
        #expect(reason.hasPrefix("restarting for the new configuration: size "), "\(reason)")

        await group.triggerGracefulShutdown()
        try await running
        #expect(second.deviceStatus?.state == .stopped && second.deviceStatus?.reason == "shutting down")
        #expect(lines.all.last?.contains(#""class":"STATS""#) == true, "\(lines.all.suffix(3))")
        #expect(made.withLockedValue { $0 } == 2)
    }

    /// A reload that comes once shutdown has stopped the pipeline makes a new one, which is never run: the
    /// camera is not opened again on the way out.
    @Test func aPipelineThatReplacesTheStoppedOneDuringShutdownIsNotRun() async throws {
        let lines = LivePipelineTests.Lines()
        let (service, group) = Self.service(writingTo: lines)
        async let running: Void = group.run()
        let first = await service.current
        #expect(await Eventually.check { first.deviceStatus?.state == .streaming })
        await group.triggerGracefulShutdown()
        #expect(await Eventually.check { first.deviceStatus?.state == .stopped })
        var resized = await service.config
        resized.width = 320
        resized.height = 240
        _ = await service.apply(resized)
        try await running
        let replacement = await service.current
        #expect(replacement !== first && replacement.deviceStatus == nil, "the replacement never opened the camera")
        #expect(first.deviceStatus?.reason == "shutting down")
    }
}
