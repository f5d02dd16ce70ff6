extension DecodePass {
    /// What a pass is for, which decides what its reads mean to the strategy that built it (its label is for
    /// logs and reports only).
    public enum Role: Sendable, Hashable {
        /// Built by hand (tests, tools): its reads mean nothing in particular.
        case adHoc
        /// zxing-cpp's defaults over the whole image: the benchmarks' baseline.
        case zxingDefaults
        /// One of the still-image strategy's passes.
        case still(StillImageDecoder.Step)
        /// A crop turned upright around a patch that looks like a matrix code (`CodeCandidates`).
        case candidateCrop
        /// The live cheap pass for the matrix formats.
        case cheapMatrix
        /// A live cheap pass over one horizontal band, for the linear formats.
        case linearBand
        /// A band along a linear code the localizer found, turned so that its bars stand upright (`LinearLocator`).
        case locatedLinear
        /// A band that read nothing last frame, or a faint one too smeared to count as found, read again with a
        /// swipe's smear or a defocus undone (`LinearLocator.deblurred`): what it reads counts as one scan line,
        /// whatever zxing's count.
        case deblurredLinear
        /// A live expensive pass of this kind (`ExtraPassSchedule`).
        case extra(ExtraPassSchedule.Kind)
        /// The crop around the tracked code at this index (`TrackedCrops`).
        case trackedCrop(Int)

        /// An expensive pass: what it reads may be a code the cheap passes miss.
        public var isExtra: Bool { if case .extra = self { true } else { false } }

        var isTrackedCrop: Bool { if case .trackedCrop = self { true } else { false } }

        /// A live pass every frame gets whatever was read before: neither expensive nor a tracked crop.
        var isRegular: Bool {
            switch self {
            case .extra, .trackedCrop: false
            default: true
            }
        }
    }
}
