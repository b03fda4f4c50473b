import Gestures

/// Builds synthetic pose streams: a person at rest, then whatever the test scripts, at a fixed frame rate.
struct Stream {
    var fps = 25.0
    var samples: [HeadSample] = []
    private(set) var time = 0.0

    /// Adds `seconds` of frames; `pose` gives (yaw, pitch) at a time relative to the segment's start.
    mutating func add(_ seconds: Double, pointer: ((Double) -> (Double, Double))? = nil, _ pose: (Double) -> (Double, Double)?) {
        let n = Int((seconds * fps).rounded())
        for i in 0..<n {
            let local = Double(i) / fps
            let p = pose(local).map { yp -> HeadPose in
                let ptr = pointer?(local) ?? (320, 240)
                return HeadPose(yaw: yp.0, pitch: yp.1, pointerX: ptr.0, pointerY: ptr.1, faceSize: 120)
            }
            samples.append(HeadSample(frame: samples.count, time: time + local, pose: p))
        }
        time += Double(n) / fps
    }

    mutating func rest(_ seconds: Double, yaw: Double = 0, pitch: Double = 0) { add(seconds) { _ in (yaw, pitch) } }
    mutating func noFace(_ seconds: Double) { add(seconds) { _ in nil } }

    /// A straight move from one pose to another over `seconds`.
    mutating func ramp(_ seconds: Double, from a: (Double, Double), to b: (Double, Double)) {
        add(seconds) { t in (a.0 + (b.0 - a.0) * t / seconds, a.1 + (b.1 - a.1) * t / seconds) }
    }

    /// Nod: pitch swings -amplitude (down first) for `cycles` periods; 1 cycle of `dip` is one down-and-back.
    mutating func nod(amplitude: Double, period: Double, cycles: Double, yawWobble: Double = 0) {
        add(period * cycles) { t in (yawWobble * sin(2 * .pi * t / period), -amplitude * sin(2 * .pi * t / period)) }
    }

    mutating func dip(amplitude: Double, duration: Double) {
        add(duration) { t in (0, -amplitude * sin(.pi * t / duration)) }
    }

    mutating func shake(amplitude: Double, period: Double, cycles: Double, pitchWobble: Double = 0) {
        add(period * cycles) { t in (amplitude * sin(2 * .pi * t / period), pitchWobble * sin(2 * .pi * t / period)) }
    }

    /// Runs a fresh engine over the stream and returns every event.
    func events(_ settings: GestureSettings = GestureSettings()) -> [GestureEvent] {
        var engine = GestureEngine(settings: settings)
        return samples.flatMap { engine.process($0) }
    }
}

/// A seeded generator, so noisy streams are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Roughly Gaussian (sum of uniforms), standard deviation `sigma`.
    mutating func gaussian(_ sigma: Double) -> Double {
        var s = 0.0
        for _ in 0..<6 { s += Double.random(in: -1...1, using: &self) }
        return s * sigma / 1.414
    }
}

extension Array where Element == GestureEvent {
    func kinds() -> [GestureKind] { map(\.kind) }
    func of(_ kind: GestureKind) -> [GestureEvent] { filter { $0.kind == kind } }
    /// Everything but the bookkeeping events every stream has (and the explanations of swings not heard).
    var gestures: [GestureEvent] { filter { ![.faceFound, .calibrated, .move, .unheard].contains($0.kind) } }
}

#if canImport(Glibc)
import Glibc
#endif
