import Foundation
import NIOCore
import ScandCore
import ScandProtocol

/// The body of POST /api/controls, `{"set":[{"name":"brightness","value":520}],"keep":true}`, checked
/// here by the protocol's own decoder, so a wrong one gets 400 with its reason and never reaches the daemon;
/// the request's encoder writes it on one line whatever the body's layout.
struct CameraControlsBody: Equatable {
    var change: CameraControlChange

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(json body: ByteBuffer) throws(Problem) {
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        do { change = try ClientRequest.cameraControlChange(json: text) } catch { throw Problem(description: error.description) }
    }

    var request: ClientRequest { .setCameraControls(change) }
}
