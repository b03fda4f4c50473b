/// What the setup page reads of the pipeline it shows: `nodwire run`'s frame loop, or the replay's
/// `ReplayWatch` under `nodwire replay --realtime`.
protocol LoopView: AnyObject, Sendable {
    var current: FrameLoopSnapshot { get }
    /// The newest frame kept for a viewer (nil until one is), and keep keeping them for `seconds`.
    func watchPicture(for seconds: Double) -> LoopPicture?
}

extension FrameLoop: LoopView {}
