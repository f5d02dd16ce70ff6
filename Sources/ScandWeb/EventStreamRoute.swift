import HTTPTypes
import Hummingbird
import NIOCore
import ScandClient
import ScandCore
import ScandProtocol

/// GET /events: the daemon's events as Server-Sent Events, for a page's `EventSource` (the setup page's
/// among them, which asks for a VIEW first). Live events come from the shared relay; a client that resumes
/// (Last-Event-ID) first catches up from the daemon's journal (`EventHandover`). Each client has the hub's
/// bounded queue: one that does not keep up is disconnected, never waited on, and its browser's reconnection
/// resumes from the journal, so it loses nothing.
enum EventStreamRoute {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    static func response(
        _ request: Request, context: WebRequestContext, hub: PageHub, socketPath: String, limits: EventStreamLimits, metrics: WebMetrics
    ) async -> Response {
        let query = request.uri.queryParameters
        let asked: EventStreamRequest
        do {
            asked = try EventStreamRequest(
                classes: query["classes"].map(String.init), formats: query["formats"].map(String.init), view: query["view"].map(String.init),
                lastEventID: request.headers[lastEventID], lastEventID: query["lastEventId"].map(String.init))
        } catch {
            return WebApp.json(.badRequest, message: error.description)
        }
        let channel = context.channel
        let (items, latest, view, end) = await hub.subscribe {
            // Too slow: closing the connection also ends a write that waits for it.
            metrics.eventStreamsDropped.increment()
            channel.close(promise: nil)
        }
        let start = EventHandover(watch: asked.watch, since: asked.since, relayed: latest)
        let catchingUp = start.phase != .live
        let first = asked.view && asked.since == nil ? view.map(ServerSentEvent.view) : nil
        let place: EventStreamLimits.Place
        do { place = try limits.admit(catchingUp: catchingUp) } catch {
            end()
            var response = WebApp.json(.serviceUnavailable, message: error.description)
            response.headers[.retryAfter] = "5"
            return response
        }
        // A closed connection ends the stream without waiting for the next event, and gives its place back
        // even when the body never ran; a client that goes away closes it (its side closed, or the next write
        // fails, a keepalive at the latest).
        channel.pipeline.addHandler(EventStreamHangUp(), position: .first).whenFailure { _ in channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in
            end()
            place.end()
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            // A reverse proxy (nginx) must pass each event on at once.
            HTTPField.Name("X-Accel-Buffering")!: "no"
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                metrics.eventStreams.increment()
                defer {
                    place.end()
                    metrics.eventStreams.decrement()
                }
                var handover = start
                try await writer.write(ByteBuffer(string: ServerSentEvent.prelude + (first ?? "")))
                if catchingUp {
                    defer { place.endCatchUp() }
                    try await catchUp(&handover, since: asked.since, socketPath: socketPath, channel: channel, writer: &writer)
                    // The daemon went away, or refused: the browser reconnects, from the last event it got.
                    guard handover.phase == .live else { return try await writer.finish(nil) }
                }
                for await item in items {
                    switch item {
                    case .keepalive: try await writer.write(ByteBuffer(string: ServerSentEvent.keepalive))
                    case .event(let line):
                        if let event = handover.relayed(line) { try await writer.write(ByteBuffer(string: ServerSentEvent.frame(event))) }
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// The journal after `since`, through a subscription of the client's own, until the handover is live.
    static func catchUp(
        _ handover: inout EventHandover, since: EventPosition?, socketPath: String, channel: any Channel, writer: inout any ResponseBodyWriter
    ) async throws {
        // All the relay's classes, filtered here: the handover must see the relay's newest event to stop.
        let watch = ClientRequest.Watch(enable: true, classes: EventRelay.watch.classes, since: since)
        let subscription = EventSubscription(socketPath: socketPath, watch: watch, reconnect: false, bufferLimit: PageHub.queueLimit)
        // Ended when the handover is live, and when the client goes away (it may wait for a first event).
        let running = Task { await subscription.run() }
        channel.closeFuture.whenComplete { _ in running.cancel() }
        defer { running.cancel() }
        do {
            for try await element in subscription {
                guard case .event(let line) = element else { continue }
                if let event = handover.caughtUp(line) { try await writer.write(ByteBuffer(string: ServerSentEvent.frame(event))) }
                if handover.phase == .live { return }
            }
        } catch let error as DaemonError {
            let line = Event.error(error.description).line
            if let event = try? EventDecoder.decode(line) { try await writer.write(ByteBuffer(string: ServerSentEvent.frame(event))) }
        }
    }
}
