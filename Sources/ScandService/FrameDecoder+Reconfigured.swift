import ScandCore
import ScandDecoding

extension FrameDecoder {
    /// A decoder with `config`'s formats, rect of interest, orientation and ITF lengths that reads through the
    /// same decoder processes; what it learnt about earlier frames starts over.
    func reconfigured(_ config: ScandConfig) -> FrameDecoder {
        var fresh = FrameDecoder(
            formats: config.formats, regionOfInterest: config.regionOfInterest, transform: config.transform,
            itfLengths: config.itfLengths, decoder: decoder)
        fresh.extraPassBudgetMilliseconds = extraPassBudgetMilliseconds
        fresh.merger = merger
        return fresh
    }
}
