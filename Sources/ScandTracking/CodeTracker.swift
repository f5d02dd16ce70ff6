import ScandCore

/// Turns per-frame detections into events a kiosk acts on (ML Kit's stream mode, VisionKit's
/// add/update/remove): each code in view keeps a tracking id while it stays in view, matched by payload
/// and place (for a linear code, the extent of its bars along the code, not the thin box of the scan lines
/// that read it), so that one item gives one SCAN. A struct with no I/O: time is passed in (the frame's
/// capture time), so tests replay exact sequences.
public struct CodeTracker: Sendable {
    struct Track: Sendable {
        var id: Int
        /// The newest read, with the add-on the code is reported with (if any).
        var detection: Detection
        var firstSeen: Duration
        var lastSeen: Duration
        /// Half-looks that agreed on this number so far (`ScanLineEvidence.units`).
        var units: Int
        /// When those half-looks came, the last `forgetAfter`: what this number weighs against another read on
        /// the same bars (`rivalUnits`).
        var recent: [(at: Duration, units: Int)] = []
        /// Looks per EAN-2/EAN-5 add-on: one is reported only when it outweighs the others by two looks.
        var addOnVotes: [String: Int] = [:]
        /// Add-ons whose own bars, looked at again, agreed with them in some frame (`Detection.addOnBarsAgree` true).
        var addOnBarsAgreed: Set<String> = []
        /// Frames that showed an add-on with this code: its bars beside it, or a read of it.
        var addOnShownIn = 0
        /// Frames whose read showed the add-on's place, in view, without one.
        var addOnPlaceEmptyIn = 0
        /// Half-looks of reads of this number that its own bars contradicted (`Detection.barsAgree` false).
        var contradicted = 0
        /// A frame's bars agreed with this number (`Detection.barsAgree` true).
        var barsAgreed = false
        /// SCAN sent.
        var confirmed: Bool
        var lastUpdate: Duration
        /// Set when the track was lost; it may come back within the forget time.
        var lostAt: Duration?
        /// Joined into a scanned code of the same format and text (the duplicate filter): dropped silently.
        var absorbed = false
        /// Read in the last decoded frame (`isSettled`).
        var readInLastFrame = false
        /// The first decoded frame since `lastSeen` that did not read it (`absentSince`).
        var missedSince: Duration?
        /// The last read showed add-on-like bars after the code that it did not read (`Detection.addOnBarsBeside`),
        /// or ended where an add-on would lie beyond the frame's edge (`Detection.addOnBeyondEdge`).
        var addOnMayBeBeside = false
        /// Read on the bars of a scanned code of its format that the same frame read with another number: it needs
        /// two looks (`unitsNeeded(for:)`).
        var contested = false

        /// Neither lost nor joined into another track.
        var inView: Bool { !absorbed && lostAt == nil }
        /// When the code's absence began as far as the frames can tell: its last read, unless no frame was decoded
        /// for `lostAfter` after it (a stalled decoder, a crashed pass), then the first decoded frame without it:
        /// a stall shows nothing leaving, and a code held through it must not be scanned twice. A camera that
        /// sends nothing (only ticks, no decoded frame) still counts from the last read.
        func absentSince(lostAfter: Duration) -> Duration {
            guard let missed = missedSince, missed - lastSeen >= lostAfter else { return lastSeen }
            return missed
        }
        /// When the code was lost, if by `now` it has been gone for `lostAfter` since `absentSince`; nil while it
        /// may still be in view.
        func lostTime(at now: Duration, lostAfter: Duration) -> Duration? {
            let absent = absentSince(lostAfter: lostAfter)
            return now - absent >= lostAfter ? absent + lostAfter : nil
        }
        /// Of `d`'s format and main number.
        func isSameCode(as d: Detection) -> Bool { detection.format.layouts == d.format.layouts && detection.mainBytes == d.mainBytes }
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
        for i in tracks.indices { tracks[i].readInLastFrame = false }
        // Reads shorter than their format's shortest code are no codes (`TrackerSettings.minimumLengths`).
        let reads = Self.oneReadPerCode(sequences.add(detections.filter(settings.isLongEnough), at: now))
        for read in reads {
            let d = read.detection
            if let i = match(d, excluding: matched) ?? twin(of: d, excluding: matched, at: now) ?? candidate(of: d, excluding: matched)
                ?? match(d, excluding: matched, among: { self.isResumable($0, at: now) })
            {
                matched.insert(i)
                events += seen(i, read, among: reads, at: now)
            } else if twin(of: d, excluding: [], at: now) != nil {
                // A second code of a scanned code's format and text in this frame: the duplicate filter's.
                continue
            } else {
                tracks.append(Track(id: nextID, detection: d, firstSeen: now, lastSeen: now, units: 0, confirmed: false, lastUpdate: now))
                nextID += 1
                matched.insert(tracks.count - 1)
                events += seen(tracks.count - 1, read, among: reads, at: now)
            }
        }
        for i in tracks.indices where !matched.contains(i) && tracks[i].inView && tracks[i].missedSince == nil { tracks[i].missedSince = now }
        return events + expire(at: now)
    }

    /// Time passed without a frame (the camera stalled or the scene is static and not re-decoded).
    public mutating func tick(at now: Duration) -> [TrackEvent] {
        expire(at: now)
    }

    /// The frames end (a recording's end, the camera stopped): a code read enough to be scanned but still
    /// waiting for its add-on, which no later frame can bring, is scanned now, without it.
    public mutating func finish(at now: Duration) -> [TrackEvent] {
        var events: [TrackEvent] = []
        for i in tracks.indices where !tracks[i].confirmed { events += confirmIfReady(i, at: now, addOnMayCome: false) }
        return events
    }

    /// Whether every code in view is scanned, was read in the last decoded frame, and nothing is waiting for
    /// confirmation: a still scene in this state may rest (`hold`) until it changes.
    public var isSettled: Bool {
        let inView = tracks.filter(\.inView)
        return !inView.isEmpty && inView.allSatisfy { $0.confirmed && $0.readInLastFrame }
    }

    /// Whether some code in view is read but not scanned (an add-on shown and not agreed, a number contested or
    /// without a look its bars agree with), and every code in view was read in the last decoded frame: a still
    /// scene in this state shows what that frame read, and may be held (`hold`) between decodes.
    public var holdsUnscannedCodes: Bool {
        let inView = tracks.filter(\.inView)
        return inView.allSatisfy(\.readInLastFrame) && inView.contains { !$0.confirmed }
    }

    /// A frame of a still scene that was not decoded: the codes the last decoded frame read are as they were, so
    /// they stay in view (no LOST, and UPDATE at its interval as if read) without the cost of reading them again.
    /// Their waits (an add-on's) go on by the clock; only a decoded frame adds to their evidence.
    public mutating func hold(at now: Duration) -> [TrackEvent] {
        var events: [TrackEvent] = []
        for i in tracks.indices where tracks[i].inView && tracks[i].readInLastFrame {
            (tracks[i].lastSeen, tracks[i].missedSince) = (now, nil)
            guard tracks[i].confirmed, let interval = settings.updateInterval, now - tracks[i].lastUpdate >= interval else { continue }
            tracks[i].lastUpdate = now
            events.append(.update(id: tracks[i].id, tracks[i].detection))
        }
        return events + expire(at: now)
    }

    /// One frame's read of one code, and what it is worth to the code's confirmation (half-looks) and to its
    /// add-on's vote (looks; see `ScanLineEvidence`).
    struct Read {
        var detection: Detection
        var worth = 2
        /// 0 while no read of this frame carried an add-on.
        var addOnWorth = 0
    }

    /// A frame's reads of one linear code on several scan lines (zxing reports lines too far apart as separate
    /// results, and passes over crops add more) become one read: with an add-on if a line read one (none if
    /// lines disagree on it), its outline around all of them, worth what its independent reads are
    /// (`ScanLineEvidence`).
    static func oneReadPerCode(_ detections: [Detection]) -> [Read] {
        var groups: [[Detection]] = []
        for d in detections {
            guard d.format.isLinear,
                let i = groups.indices.first(where: {
                    let o = groups[$0][0]
                    return o.format.layouts == d.format.layouts && o.mainBytes == d.mainBytes
                        && BarsSpan(o.corners, axisOf: o.corners).sameBars(as: BarsSpan(d.corners, axisOf: o.corners))
                })
            else {
                groups.append([d])
                continue
            }
            groups[i].append(d)
        }
        return groups.map { parts in
            var o = parts[0]
            let axis = o.corners
            for d in parts.dropFirst() {
                o.corners = BarsSpan(o.corners, axisOf: axis).union(BarsSpan(d.corners, axisOf: axis))
                o.lineCount += d.lineCount
            }
            o.agreeingReads = ScanLineEvidence.independentReads(parts)
            o.reconstructed = parts.allSatisfy(\.reconstructed)
            // Contradicted if any part's bars contradict it; agreed if one's agree and none contradict.
            let verdicts = parts.compactMap(\.barsAgree)
            o.barsAgree = verdicts.isEmpty ? nil : verdicts.allSatisfy { $0 }
            let addOnVerdicts = parts.filter { $0.addOn != nil }.compactMap(\.addOnBarsAgree)
            o.addOnBarsAgree = addOnVerdicts.isEmpty ? nil : addOnVerdicts.allSatisfy { $0 }
            let addOns = Set(parts.compactMap(\.addOn))
            o.addOnBarsBeside = addOns.isEmpty && parts.contains(where: \.addOnBarsBeside)
            o.addOnBeyondEdge = addOns.isEmpty && !o.addOnBarsBeside && parts.contains(where: \.addOnBeyondEdge)
            var addOnWorth = 0
            if o.format.mainNumberLength != nil {
                let main = Array(o.mainBytes)
                o.bytes = addOns.count == 1 ? main + Array(addOns.first!.utf8) : main
                o.text = String(decoding: o.bytes, as: UTF8.self)
                // The add-on's evidence is that of the reads that carried it, not the main number's.
                if addOns.count == 1 { addOnWorth = ScanLineEvidence.looks(of: parts.filter { $0.addOn != nil }) }
            }
            return Read(detection: o, worth: ScanLineEvidence.units(o), addOnWorth: addOnWorth)
        }
    }

    /// An existing live track of the same code in the same place: a matrix symbol within about its own size of
    /// where it was, a linear code whose bars cover about the same extent along it.
    /// `among`: which tracks may be matched (by default those in view).
    private func match(_ d: Detection, excluding used: Set<Int>, among: (Track) -> Bool = \.inView) -> Int? {
        var best: (Int, Double)?
        for (i, t) in tracks.enumerated() where !used.contains(i) && among(t) && t.isSameCode(as: d) {
            let distance: Double
            if d.format.isLinear {
                let was = BarsSpan(t.detection.corners, axisOf: t.detection.corners)
                let now = BarsSpan(d.corners, axisOf: t.detection.corners)
                guard now.follows(was) else { continue }
                distance = now.distances(to: was).along + max(0, now.distances(to: was).acrossGap)
            } else {
                distance = t.detection.corners.center.distance(to: d.corners.center)
                // A code moves between frames: allow about its own size.
                guard distance <= max(t.detection.corners.diagonal, d.corners.diagonal) * 1.5 + 8 else { continue }
            }
            if best == nil || distance < best!.1 { best = (i, distance) }
        }
        return best?.0
    }

    /// A code not yet scanned that went unread for `lostAfter` less than `forgetAfter` ago: read again where it
    /// was (`match`), it is the same showing, and its looks of the last `forgetAfter` still count (as they count
    /// as a rival's, `rivalUnits`). A code held under glare or defocus is readable in one frame in ten or
    /// twenty as the sensor's noise changes, and gaps of more than `lostAfter` between those frames split its
    /// looks among tracks that each fell short (an ITF-14 held 2 s under glare, read in five frames).
    private func isResumable(_ t: Track, at now: Duration) -> Bool {
        !t.confirmed && !t.absorbed && t.lostAt.map { now - $0 < settings.forgetAfter } == true
    }

    /// A code waiting for its confirmation, of the same format and main number, anywhere in the frame: a swipe
    /// moves a code further between frames than `match` follows, and two agreeing reads of one payload are two
    /// opinions wherever they lie (two identical codes in one frame still get a track each: one is matched
    /// first and excluded).
    private func candidate(of d: Detection, excluding used: Set<Int>) -> Int? {
        tracks.indices.first { i in
            let t = tracks[i]
            return !used.contains(i) && !t.confirmed && t.inView && t.isSameCode(as: d)
        }
    }

    /// A scanned code of the same format and main number, anywhere in the frame, that this read belongs to: one
    /// lost less than `forgetAfter` ago, or one last known in view less than `duplicateFilter` ago (its last read,
    /// or after a stall the first frame without it: `absentSince`).
    private func twin(of d: Detection, excluding used: Set<Int>, at now: Duration) -> Int? {
        tracks.indices.first { i in
            let t = tracks[i]
            guard !used.contains(i), t.confirmed, !t.absorbed, t.isSameCode(as: d) else { return false }
            return t.lostAt.map { now - $0 < settings.forgetAfter } == true
                || now - t.absentSince(lostAfter: settings.lostAfter) < settings.duplicateFilter
        }
    }

    /// Half-looks of other numbers read on track `i`'s bars while it was shown, which its own must outweigh by
    /// what a SCAN needs (formats whose check is weak only): two numbers read on one code's bars are at most
    /// one right, and a wrong one is as likely to come first as second. A rival counts when it was still read
    /// just before `i`'s first read (`concurrentLead`) or since: an unscanned one with its reads from `lostAfter`
    /// before (a misread of the same showing), a scanned one with its reads from just before (reads of an item
    /// taken away before this one came cast no doubt on it).
    func rivalUnits(of i: Int) -> Int {
        let t = tracks[i]
        guard ScanLineEvidence.weakCheck.contains(t.detection.format) else { return 0 }
        let bars = BarsSpan(t.detection.corners, axisOf: t.detection.corners)
        var sum = 0
        for (j, r) in tracks.enumerated() where j != i && !r.absorbed && r.detection.format.isLinear && !r.isSameCode(as: t.detection) {
            guard r.detection.corners.overlaps(t.detection.corners) || BarsSpan(r.detection.corners, axisOf: t.detection.corners).sameBars(as: bars)
            else { continue }
            guard r.lastSeen >= t.firstSeen - Self.concurrentLead else { continue }
            let since = t.firstSeen - (r.confirmed ? Self.concurrentLead : settings.lostAfter)
            sum += r.recent.reduce(0) { $0 + ($1.at >= since ? $1.units : 0) }
        }
        return sum
    }

    /// How long before a track's first read a scanned rival's reads still count against it: three frames at
    /// 30 fps, the same showing.
    static let concurrentLead: Duration = .milliseconds(100)

    private mutating func seen(_ i: Int, _ read: Read, among frameReads: [Read], at now: Duration) -> [TrackEvent] {
        let d = read.detection
        let wasLost = tracks[i].lostAt != nil
        if wasLost && !tracks[i].confirmed {
            // A code resumed (`isResumable`): only the looks of the last `forgetAfter` still vouch for it.
            tracks[i].recent.removeAll { now - $0.at > settings.forgetAfter }
            tracks[i].units = tracks[i].recent.reduce(0) { $0 + $1.units }
        }
        if let a = d.addOn, d.barsAgree != false, d.addOnBarsAgree != false { tracks[i].addOnVotes[a, default: 0] += max(1, read.addOnWorth) }
        if let a = d.addOn, d.barsAgree != false, d.addOnBarsAgree == true { tracks[i].addOnBarsAgreed.insert(a) }
        if d.addOn != nil || d.addOnBarsBeside {
            tracks[i].addOnShownIn += 1
        } else if !d.addOnBeyondEdge {
            tracks[i].addOnPlaceEmptyIn += 1
        }
        tracks[i].detection = withAgreedAddOn(d, tracks[i])
        tracks[i].lastSeen = now
        tracks[i].lostAt = nil
        tracks[i].missedSince = nil
        tracks[i].readInLastFrame = true
        tracks[i].addOnMayBeBeside = d.addOnBarsBeside || d.addOnBeyondEdge
        if d.barsAgree == false {
            tracks[i].contradicted += read.worth
        } else {
            tracks[i].units += read.worth
            tracks[i].recent.append((now, read.worth))
        }
        if d.barsAgree == true { tracks[i].barsAgreed = true }
        if !tracks[i].confirmed && !tracks[i].contested { tracks[i].contested = onScannedBars(d, among: frameReads) }
        if !tracks[i].confirmed { return confirmIfReady(i, at: now, among: frameReads) }
        if wasLost { tracks[i].lastUpdate = now }
        guard let interval = settings.updateInterval, now - tracks[i].lastUpdate >= interval, !wasLost else { return [] }
        tracks[i].lastUpdate = now
        return [.update(id: tracks[i].id, tracks[i].detection)]
    }

    /// `d` with the add-on the track's reads agreed on (`agreedAddOn`), else without one.
    private func withAgreedAddOn(_ d: Detection, _ t: Track) -> Detection {
        guard d.format.mainNumberLength != nil else { return d }
        var d = d
        let main = Array(d.mainBytes)
        let barsAgreed = settings.redundancy > 1 ? t.addOnBarsAgreed : nil
        d.bytes = main + Array((Self.agreedAddOn(t.addOnVotes, barsAgreed: barsAgreed) ?? "").utf8)
        d.text = String(decoding: d.bytes, as: UTF8.self)
        return d
    }

    /// The add-on whose looks outweigh all others' together by two: an add-on has only its parity pattern
    /// (EAN-5) or a mod-4 check (EAN-2) behind it, weaker than the main number's check digit. Where looks read
    /// two add-ons on one code, at least one of them was misread, and looks that misread that easily do not
    /// confirm each other: with `barsAgreed`, the winner must then be one that a frame's own bars, looked at
    /// again, agreed with (a 2 px ISSN on a can read its EAN-2 as 32 in three frames and as its own 37 in one,
    /// then both as often, and the bars check never fitted the add-on).
    static func agreedAddOn(_ votes: [String: Int], barsAgreed: Set<String>? = nil) -> String? {
        guard let best = votes.max(by: { $0.value < $1.value }) else { return nil }
        let others = votes.values.reduce(0, +) - best.value
        guard best.value >= 2 + others else { return nil }
        if let barsAgreed, votes.count > 1, !barsAgreed.contains(best.key) { return nil }
        return best.key
    }

    /// SCAN once the reads agree and an EAN/UPC code that may carry an add-on has it agreed or has waited
    /// `addOnWait` (`addOnBarsWait` while it is in view with an add-on's bars beside it, or one add-on read
    /// and none contradicting it); a code scanned while another of its format and text was seen within the
    /// duplicate filter is that code instead.
    private mutating func confirmIfReady(_ i: Int, at now: Duration, among frameReads: [Read] = [], addOnMayCome: Bool = true) -> [TrackEvent] {
        let t = tracks[i]
        guard !t.confirmed, t.inView, t.units - t.contradicted - rivalUnits(of: i) >= unitsNeeded(for: i) else { return [] }
        // A UPC-E whose bars are those of an EAN-13 read lately (its left half): read on part of that code.
        if let ean13 = Self.ean13Prefix(ofUPCE: t.detection) {
            let since = t.firstSeen - settings.forgetAfter
            let read = { (d: Detection) in d.format == .ean13 && d.mainBytes.starts(with: ean13) }
            if tracks.contains(where: { !$0.absorbed && $0.lastSeen >= since && read($0.detection) })
                || frameReads.contains(where: { read($0.detection) })
            {
                return []
            }
        }
        // An EAN/UPC number is scanned only once a frame's own bars, looked at again, agreed with it.
        if settings.redundancy > 1, ScanLineEvidence.patternChecked.contains(t.detection.format), !t.barsAgreed { return [] }
        // An EAN/UPC that shows its add-on is not scanned without it (smart supplementals). Most books and
        // periodicals carry one, so one frame that shows it is enough for theirs. Add-ons on other numbers are
        // rare, and print beside a code passes for an add-on's bars (the retail till: a plain EAN-13 in 8 of its
        // 39 frames, a swiped EAN-8 in 6 of 7), so theirs must have been read (a guard and parities that fit) and
        // shown in more frames than showed its place empty. A book's or periodical's that shows none waits the
        // longer wait for one.
        if t.detection.addOn == nil, settings.addOnRequired, t.detection.format.mainNumberLength != nil {
            let prefixed = settings.waitsForAddOn(t.detection)
            let shown = prefixed ? t.addOnShownIn >= 1 : !t.addOnVotes.isEmpty && t.addOnShownIn > t.addOnPlaceEmptyIn
            if shown { return [] }
            if prefixed, addOnMayCome, now - t.firstSeen < max(settings.addOnWait, settings.addOnBarsWait) { return [] }
        }
        if t.detection.addOn == nil, addOnMayCome {
            let mayCarryAddOn = settings.addOnWait > .zero && (settings.waitsForAddOn(t.detection) || !t.addOnVotes.isEmpty)
            if mayCarryAddOn, now - t.firstSeen < settings.addOnWait { return [] }
            // Its add-on is printed (bars beside it, or a read of it) but not yet agreed, or may lie beyond the
            // frame's edge: a later frame of this appearance may read it, so the code waits while in view rather
            // than be reported without it (an UPDATE with it later would be a second answer for one item). A
            // frame that does not read the code does not end the wait: a shaken or swiped item's next frame
            // often reads it again, add-on and all, and the wait is bounded, ending well before it is lost.
            let addOnLikely = t.addOnMayBeBeside || t.addOnVotes.count == 1
            if addOnLikely, now - t.firstSeen < settings.addOnBarsWait { return [] }
        }
        if let j = twin(of: t.detection, excluding: [i], at: now) {
            tracks[i].absorbed = true
            if tracks[j].lastSeen < t.lastSeen {
                tracks[j].detection = t.detection
                tracks[j].lastSeen = t.lastSeen
                tracks[j].lostAt = nil
                tracks[j].missedSince = nil
            }
            return []
        }
        tracks[i].confirmed = true
        tracks[i].lastUpdate = now
        return [.scan(id: t.id, t.detection)]
    }

    /// The first seven digits of the EAN-13 whose left half has `d`'s bars, when `d` is a UPC-E of number system
    /// 1: its six digits in the parities that its check digit gives them are those an EAN-13 beginning with that
    /// check digit gives its left half, and its end guard is that EAN-13's centre guard and the right half's first
    /// bar. zxing-cpp reads such a UPC-E on a line that leaves a turned or shaken EAN-13 past its centre guard (the
    /// till bench's EAN-13 2330056384129, shaken on a can, as UPC-E 13300562); one of number system 0 has parities
    /// no EAN-13's left half has. A real UPC-E and an EAN-13 with those seven digits at one till within seconds is
    /// one chance in millions.
    static func ean13Prefix(ofUPCE d: Detection) -> [UInt8]? {
        let digits = Array(d.mainBytes)
        guard d.format == .upcE, digits.count == 8, digits[0] == UInt8(ascii: "1") else { return nil }
        return [digits[7]] + digits[1...6]
    }

    /// The half-looks a SCAN needs (`TrackerSettings.unitsNeeded`), and at least two looks for a contested read: a
    /// second number on the bars of a code scanned and read in the same frame is a misread far more often than a
    /// second code (a located band read an EAN's own number on 71 lines and another valid one on 2 lines where its
    /// bars end). A new item brought to where the last one was, which is no longer read, is not contested.
    private func unitsNeeded(for i: Int) -> Int {
        let n = settings.unitsNeeded(for: tracks[i].detection)
        return tracks[i].contested ? max(4, n) : n
    }

    /// Whether this frame (`frameReads`) read another number of `d`'s format on its bars, one of a scanned code in
    /// view.
    private func onScannedBars(_ d: Detection, among frameReads: [Read]) -> Bool {
        guard d.format.isLinear else { return false }
        let bars = BarsSpan(d.corners)
        return frameReads.map(\.detection).contains { r in
            r.format == d.format && r.mainBytes != d.mainBytes && BarsSpan(r.corners, axisOf: d.corners).sameBars(as: bars)
                && tracks.contains { $0.confirmed && $0.inView && $0.isSameCode(as: r) }
        }
    }

    private mutating func expire(at now: Duration) -> [TrackEvent] {
        var events: [TrackEvent] = []
        // Codes that waited out the add-on wait since their last read, and codes that leave while waiting for an
        // add-on (a wait longer than `lostAfter`): no later frame can bring it, so they are scanned without it.
        for i in tracks.indices where !tracks[i].confirmed {
            let leaving = tracks[i].lostTime(at: now, lostAfter: settings.lostAfter) != nil
            events += confirmIfReady(i, at: now, addOnMayCome: !leaving)
        }
        var keep: [Track] = []
        for var t in tracks where !t.absorbed {
            t.recent.removeAll { now - $0.at > settings.forgetAfter }
            if let lostAt = t.lostAt {
                if now - lostAt < settings.forgetAfter || now - t.absentSince(lostAfter: settings.lostAfter) < settings.duplicateFilter {
                    keep.append(t)
                }
                continue
            }
            guard let lostTime = t.lostTime(at: now, lostAfter: settings.lostAfter) else {
                keep.append(t)
                continue
            }
            // Unconfirmed candidates vanish without an event, but stay for the forget time as what their reads
            // weigh against another number on their bars (`rivalUnits`): a misread's evidence must not lapse
            // before the reads it doubted do. Confirmed codes are LOST and remembered for the forget time.
            guard t.confirmed else {
                t.lostAt = lostTime
                if !t.recent.isEmpty { keep.append(t) }
                continue
            }
            events.append(.lost(id: t.id, t.detection))
            // Lost when it went unseen for `lostAfter`, not when that was noticed: a camera that stalled must not
            // stretch the forget time (the code would not be a new scan when it came back).
            t.lostAt = lostTime
            keep.append(t)
        }
        tracks = keep
        sequences.expire(at: now, timeout: settings.sequenceTimeout)
        return events
    }
}
