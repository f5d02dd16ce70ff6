import Testing
@testable import ScandCore
@testable import ScandProtocol
@testable import ScandCapture

@Suite struct DeviceStateMachineTests {
    let format = FrameFormat.packed(.yuyv, width: 1280, height: 720)

    func statuses(_ actions: [DeviceStateMachine.Action]) -> [DeviceStatus] {
        actions.compactMap { if case .emit(let s) = $0 { s } else { nil } }
    }

    @Test func absentCameraIsWaitedForWithCappedBackoffAndOneAnnouncement() {
        var m = DeviceStateMachine(device: "/dev/video0", backoff: .init(initial: .milliseconds(100), maximum: .milliseconds(700)))
        #expect(m.start() == [.open])
        var delays: [Duration] = []
        var announced = 0
        for _ in 0..<6 {
            let actions = m.openFailed("no such device")
            announced += statuses(actions).count
            for case .retry(let d) in actions { delays.append(d) }
            #expect(m.retryDue() == [.open])
        }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(700), .milliseconds(700), .milliseconds(700)])
        #expect(announced == 1, "the same reason is announced once")
        let busy = m.openFailed("device busy")
        #expect(statuses(busy).map(\.reason) == ["device busy"], "a new reason is announced")
        #expect(statuses(busy).first?.state == .waiting)
    }

    @Test func unplugTearsDownAnnouncesAndReopens() {
        var m = DeviceStateMachine(device: "/dev/video0")
        _ = m.start()
        #expect(statuses(m.opened(format)).first == DeviceStatus(device: "/dev/video0", state: .streaming, format: format))
        let lost = m.streamFailed("camera disconnected")
        #expect(lost.first == .tearDown)
        #expect(statuses(lost).first?.state == .lost)
        #expect(lost.last == .retry(after: m.backoff.initial))
        #expect(m.retryDue() == [.open])
        _ = m.opened(format)
        #expect(m.state == .streaming(format))
        // After a good stream, backoff starts from the beginning again.
        let again = m.streamFailed("no frame")
        #expect(again.last == .retry(after: m.backoff.initial))
    }

    @Test func stopAndEndingAreFinal() {
        var m = DeviceStateMachine(device: "replay.rec")
        _ = m.start()
        _ = m.opened(format)
        let ended = m.ended()
        #expect(ended.first == .tearDown && statuses(ended).first?.state == .stopped)
        #expect(m.stop().isEmpty)
        #expect(m.retryDue().isEmpty)
        var n = DeviceStateMachine(device: "missing.rec")
        _ = n.start()
        #expect(statuses(n.openFailedForGood("no such file")).first?.reason == "no such file")
        #expect(n.state == .stopped)
    }

    @Test func eventsAreOneLineJSON() {
        let s = DeviceStatus(device: "/dev/video0", state: .waiting, reason: "busy\u{1b}", retryIn: .milliseconds(1500))
        #expect(Event.device(s).line == #"{"class":"DEVICE","path":"/dev/video0","state":"waiting","message":"busy\u001b","retryIn":1.5}"#)
    }

    /// A recording that breaks off ends the session; a camera's loss is waited out instead.
    @Test func aStreamThatFailsForGoodStopsWithTheReason() {
        var m = DeviceStateMachine(device: "cut.rec")
        _ = m.start()
        _ = m.opened(format)
        let actions = m.streamFailedForGood("cut.rec: the recording breaks off in frame 7")
        #expect(actions.first == .tearDown && !actions.contains { if case .retry = $0 { true } else { false } })
        #expect(statuses(actions).map(\.state) == [.stopped] && statuses(actions).allSatisfy(\.failed))
        #expect(m.state == .stopped && m.retryDue().isEmpty)
        var reloading = DeviceStateMachine(device: "/dev/video0")
        _ = reloading.start()
        _ = reloading.opened(format)
        #expect(
            statuses(reloading.stop(reason: "restarting for the new configuration: size")).map(\.reason) == [
                "restarting for the new configuration: size"
            ])
    }
}
