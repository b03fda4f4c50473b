import Foundation

/// The One-Euro filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass whose cutoff rises with speed, so a
/// still head reads steady and a moving one without lag. Timestamps come with the samples.
public struct OneEuroFilter: Sendable, Equatable {
    public var minCutoff: Double
    public var beta: Double
    public var derivativeCutoff: Double
    private var last: (time: Double, value: Double, derivative: Double)?

    public init(minCutoff: Double, beta: Double, derivativeCutoff: Double) {
        self.minCutoff = minCutoff; self.beta = beta; self.derivativeCutoff = derivativeCutoff
    }

    public static func == (a: OneEuroFilter, b: OneEuroFilter) -> Bool {
        a.minCutoff == b.minCutoff && a.beta == b.beta && a.derivativeCutoff == b.derivativeCutoff
            && a.last?.time == b.last?.time && a.last?.value == b.last?.value
    }

    private static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    public mutating func filter(_ value: Double, at time: Double) -> Double {
        guard let previous = last, time > previous.time else {
            last = (time, value, 0)
            return value
        }
        let dt = time - previous.time
        let rawDerivative = (value - previous.value) / dt
        let ad = Self.alpha(cutoff: derivativeCutoff, dt: dt)
        let derivative = previous.derivative + ad * (rawDerivative - previous.derivative)
        let a = Self.alpha(cutoff: minCutoff + beta * abs(derivative), dt: dt)
        let smoothed = previous.value + a * (value - previous.value)
        last = (time, smoothed, derivative)
        return smoothed
    }

    public mutating func reset() { last = nil }
}

/// The mean of the last `window` samples, in a fixed ring (no allocation per sample).
public struct MovingAverage: Sendable, Equatable {
    private var ring: [Double]
    private var next = 0
    private var filled = 0
    private var sum = 0.0

    public init(window: Int) { ring = [Double](repeating: 0, count: max(1, window)) }

    public mutating func filter(_ value: Double) -> Double {
        if filled == ring.count { sum -= ring[next] } else { filled += 1 }
        ring[next] = value
        sum += value
        next = (next + 1) % ring.count
        return sum / Double(filled)
    }

    public mutating func reset() {
        next = 0; filled = 0; sum = 0
    }
}

/// The smoothing chosen in the settings, for one signal.
struct Smoother: Sendable, Equatable {
    private var oneEuro: OneEuroFilter
    private var average: MovingAverage
    private let kind: GestureSettings.SmoothingKind

    init(_ s: GestureSettings.Smoothing) {
        kind = s.kind
        oneEuro = OneEuroFilter(minCutoff: s.minCutoff, beta: s.beta, derivativeCutoff: s.derivativeCutoff)
        average = MovingAverage(window: s.window)
    }

    mutating func filter(_ value: Double, at time: Double) -> Double {
        switch kind {
        case .oneEuro: return oneEuro.filter(value, at: time)
        case .movingAverage: return average.filter(value)
        case .none: return value
        }
    }

    mutating func reset() {
        oneEuro.reset()
        average.reset()
    }
}

/// Proportional control of one direction: 0 inside the dead zone, rising linearly through the
/// acceleration zone, then the maximum (the eye-scroller design).
public struct ProportionalMap: Sendable, Equatable {
    public var deadZone: Double
    public var accelerationZone: Double
    public var maxSpeed: Double

    public init(deadZone: Double, accelerationZone: Double, maxSpeed: Double) {
        self.deadZone = deadZone; self.accelerationZone = accelerationZone; self.maxSpeed = maxSpeed
    }

    public func value(forOffset degrees: Double) -> Double {
        let beyond = abs(degrees) - deadZone
        guard beyond > 0 else { return 0 }
        guard accelerationZone > 0 else { return maxSpeed }
        return maxSpeed * min(1, beyond / accelerationZone)
    }
}
