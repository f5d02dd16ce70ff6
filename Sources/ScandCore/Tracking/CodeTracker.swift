/// Turns per-frame detections into events a kiosk acts on (ML Kit's stream mode, VisionKit's
/// add/update/remove): each code in view keeps a tracking id while it stays in view, matched by payload
/// and position, so two identical codes side by side are two codes. A struct with no I/O: time is
/// passed in (the frame's capture time), so tests replay exact sequences.
public struct CodeTracker: Sendable {
    struct Track: Sendable {
        var id: Int
        var detection: Detection
        var lastSeen: Duration
        /// Agreeing reads so far (for confirmation).
        var reads: Int
        var confirmed: Bool
        var lastUpdate: Duration
        /// Set when the track was lost; it may come back within the forget time.
        var lostAt: Duration?
    }

    public var settings: TrackerSettings
    private var tracks: [Track] = []
    private var nextID = 1
    private var sequences = SequenceAssembler()

    public init(settings: TrackerSettings = TrackerSettings()) {
        self.settings = settings
    }

    /// Codes in view that have been confirmed, with their ids.
    public var visible: [(id: Int, detection: Detection)] {
        tracks.filter { $0.confirmed && $0.lostAt == nil }.map { ($0.id, $0.detection) }
    }

    /// One decoded frame. `detections` are every code read in it (possibly none).
    public mutating func observe(_ detections: [Detection], at now: Duration) -> [TrackEvent] {
        var events: [TrackEvent] = []
        var matched = Set<Int>()
        for d in sequences.add(detections, at: now) {
            if let i = match(d, excluding: matched) {
                matched.insert(i)
                events += seen(i, d, at: now)
            } else if let i = revive(d, excluding: matched, at: now) {
                matched.insert(i)
                events += seen(i, d, at: now)
            } else {
                disagree(with: d)
                tracks.append(Track(id: nextID, detection: d, lastSeen: now, reads: 0, confirmed: false, lastUpdate: now, lostAt: nil))
                nextID += 1
                matched.insert(tracks.count - 1)
                events += seen(tracks.count - 1, d, at: now)
            }
        }
        return events + expire(at: now)
    }

    /// Time passed without a frame (the camera stalled or the scene is static and not re-decoded).
    public mutating func tick(at now: Duration) -> [TrackEvent] {
        expire(at: now)
    }

    /// An existing live track with the same payload near where the code was (an EAN/UPC's add-on read in one
    /// frame and not in another does not make it another code).
    private func match(_ d: Detection, excluding used: Set<Int>) -> Int? {
        var best: (Int, Double)?
        for (i, t) in tracks.enumerated()
        where !used.contains(i) && t.lostAt == nil
            && t.detection.format == d.format && t.detection.mainBytes == d.mainBytes
        {
            let distance = t.detection.corners.center.distance(to: d.corners.center)
            // A code moves between frames: allow about its own size.
            guard distance <= max(t.detection.corners.diagonal, d.corners.diagonal) * 1.5 + 8 else { continue }
            if best == nil || distance < best!.1 { best = (i, distance) }
        }
        return best?.0
    }

    /// A lost, confirmed track with the same payload that is still within the forget time.
    private func revive(_ d: Detection, excluding used: Set<Int>, at now: Duration) -> Int? {
        tracks.indices.first { i in
            !used.contains(i) && tracks[i].confirmed && tracks[i].lostAt.map { now - $0 < settings.forgetAfter } == true
                && tracks[i].detection.format == d.format && tracks[i].detection.mainBytes == d.mainBytes
        }
    }

    /// A read that contradicts an unconfirmed track in the same place resets that track's count:
    /// confirmation needs reads that agree.
    private mutating func disagree(with d: Detection) {
        for i in tracks.indices
        where !tracks[i].confirmed && tracks[i].lostAt == nil && tracks[i].detection.format == d.format
            && tracks[i].detection.mainBytes != d.mainBytes && tracks[i].detection.corners.overlaps(d.corners)
        {
            tracks[i].reads = 0
        }
    }

    private mutating func seen(_ i: Int, _ d: Detection, at now: Duration) -> [TrackEvent] {
        let wasLost = tracks[i].lostAt != nil
        var d = d
        if d.addOn == nil, tracks[i].detection.addOn != nil {
            // Once read, the add-on stays part of the code when a frame misses it.
            (d.text, d.bytes) = (tracks[i].detection.text, tracks[i].detection.bytes)
        }
        tracks[i].detection = d
        tracks[i].lastSeen = now
        tracks[i].lostAt = nil
        tracks[i].reads += 1
        if !tracks[i].confirmed {
            guard tracks[i].reads >= settings.confirmationsNeeded(for: d) else { return [] }
            tracks[i].confirmed = true
            tracks[i].lastUpdate = now
            return [.scan(id: tracks[i].id, d)]
        }
        if wasLost { tracks[i].lastUpdate = now }
        guard let interval = settings.updateInterval, now - tracks[i].lastUpdate >= interval, !wasLost else { return [] }
        tracks[i].lastUpdate = now
        return [.update(id: tracks[i].id, d)]
    }

    private mutating func expire(at now: Duration) -> [TrackEvent] {
        var events: [TrackEvent] = []
        var keep: [Track] = []
        for var t in tracks {
            if let lostAt = t.lostAt {
                if now - lostAt < settings.forgetAfter { keep.append(t) }
                continue
            }
            guard now - t.lastSeen >= settings.lostAfter else {
                keep.append(t)
                continue
            }
            // Unconfirmed candidates just vanish; confirmed codes are LOST and remembered for the forget time.
            guard t.confirmed else { continue }
            events.append(.lost(id: t.id, t.detection))
            // Lost when it went unseen for `lostAfter`, not when that was noticed: a stalled decoder or camera
            // must not stretch the forget time (the code would not be a new scan when it came back).
            t.lostAt = t.lastSeen + settings.lostAfter
            keep.append(t)
        }
        tracks = keep
        sequences.expire(at: now, timeout: settings.sequenceTimeout)
        return events
    }
}
