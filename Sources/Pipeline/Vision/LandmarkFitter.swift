import CDlibFace

/// The five landmarks of dlib's 5-point model, in image pixels: two corners of each eye and the base of the nose.
public struct FaceLandmarks: Sendable, Equatable {
    /// In the model's order: 0-1 one eye's corners, 2-3 the other eye's, 4 the bottom of the nose.
    public var p0, p1, p2, p3, p4: Point2

    public init(_ p0: Point2, _ p1: Point2, _ p2: Point2, _ p3: Point2, _ p4: Point2) {
        self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3; self.p4 = p4
    }

    public subscript(i: Int) -> Point2 {
        switch i {
        case 0: return p0
        case 1: return p1
        case 2: return p2
        case 3: return p3
        default: return p4
        }
    }

    /// The centre of the eye further left in the image, and of the one further right.
    public var imageLeftEye: Point2 { let a = (p0 + p1) * 0.5, b = (p2 + p3) * 0.5; return a.x <= b.x ? a : b }
    public var imageRightEye: Point2 { let a = (p0 + p1) * 0.5, b = (p2 + p3) * 0.5; return a.x <= b.x ? b : a }
    public var nose: Point2 { p4 }
    public var eyeDistance: Double { (imageRightEye - imageLeftEye).length }
}

/// Runs a shape model's cascade on a frame, reusing its buffers: no heap allocation per fit.
///
/// The algorithm is dlib's `shape_predictor::operator()` (same model, same feature sampling, same
/// trees); it is written out here because dlib's version allocates several buffers per call and the
/// tracked path must not. `PipelineTests` checks it against dlib's own fit.
public final class LandmarkFitter {
    public let model: ShapeModel
    private var shape: [Float]
    private var features: [Int32]
    private var leafChoice: [Int]
    /// dlib's trees split on raw pixel differences, so a dim or flatly lit face falls on the wrong side of
    /// their thresholds and the fit slides. When the spread (standard deviation) of the first level's feature
    /// pixels is below this, every level's pixels are scaled up to it (never down: stretching a contrasty
    /// face's pixels down made the fit worse). 0 turns it off; `vision.contrast_floor` sets it.
    public var contrastFloor: Float = LandmarkFitter.defaultContrastFloor
    /// `VisionSettings.contrastFloor`'s default (20: why there).
    public static let defaultContrastFloor = Float(VisionSettings().contrastFloor)
    /// Below a spread of floor / maxGain the picture is mostly noise; stretching it further helps nothing.
    static let maxGain: Float = 4
    /// The last fit's spread, and the gain it was given.
    public private(set) var contrast: Float = 0
    private(set) var gain: Float = 1
    /// The last fit's pixels were stretched: the face was dimmer than the floor.
    public var stretched: Bool { gain > 1 }

    public init(model: ShapeModel) {
        self.model = model
        shape = [Float](repeating: 0, count: Int(model.raw.pointee.num_parts) * 2)
        features = [Int32](repeating: 0, count: Int(model.raw.pointee.features_per_cascade))
        leafChoice = [Int](repeating: 0, count: Int(model.raw.pointee.trees_per_cascade))
    }

    public func fit(_ frame: LumaFrame, box: FaceBox) -> FaceLandmarks {
        let m = model.raw.pointee
        let parts = Int(m.num_parts), n = parts * 2
        let featureCount = Int(m.features_per_cascade), trees = Int(m.trees_per_cascade)
        let splits = (1 << Int(m.tree_depth)) - 1
        let nodeStride = ShapeModel.nodeStride, leafStride = ShapeModel.leafStride
        // The unit box maps onto the face box: (0,0) to the top-left pixel, (1,1) to the bottom-right one.
        let ox = Float(box.left), oy = Float(box.top)
        let sx = Float(box.width - 1), sy = Float(box.height - 1)
        let fw = Float(frame.width), fh = Float(frame.height), stride = frame.stride

        let levels = Int(m.num_cascades)
        let initial = m.initial_shape!, anchor = m.anchor!, delta = m.delta!
        let nodes = model.nodes, leaves = UnsafeRawPointer(model.leaves), step = model.leafStep
        frame.pixels.withUnsafeBufferPointer { image in
            shape.withUnsafeMutableBufferPointer { s in
                features.withUnsafeMutableBufferPointer { f in
                  leafChoice.withUnsafeMutableBufferPointer { chosen in
                    let s = s.baseAddress!, f = f.baseAddress!, image = image.baseAddress!, chosen = chosen.baseAddress!
                    for i in 0..<n { s[i] = initial[i] }
                    for level in 0..<levels {
                        let (m00, m01, m10, m11) = Self.similarity(from: initial, to: s, parts: parts)
                        let base = level * featureCount
                        for i in 0..<featureCount {
                            let k = Int(truncatingIfNeeded: anchor[base &+ i]) &* 2, d = (base &+ i) &* 2
                            let dx = delta[d], dy = delta[d &+ 1]
                            let u = m00 * dx + m01 * dy + s[k], v = m10 * dx + m11 * dy + s[k &+ 1]
                            // Nearest pixel, as dlib rounds; outside the picture reads as 0. (Truncation is
                            // floor here because negatives were rejected first; no libm call in the hot loop.)
                            let xf = ox + u * sx + 0.5, yf = oy + v * sy + 0.5
                            f[i] = (xf >= 0 && xf < fw && yf >= 0 && yf < fh) ? Int32(image[Int(yf) &* stride &+ Int(xf)]) : 0
                        }
                        if level == 0 {
                            var sum: Int64 = 0, sq: Int64 = 0
                            for i in 0..<featureCount { let v = Int64(f[i]); sum &+= v; sq &+= v &* v }
                            let mean = Double(sum) / Double(featureCount)
                            let sd = max(0, Double(sq) / Double(featureCount) - mean * mean).squareRoot()
                            contrast = Float(sd)
                            gain = sd > 0 ? min(Self.maxGain, max(1, contrastFloor / Float(sd))) : 1
                        }
                        if gain > 1 {
                            for i in 0..<featureCount { f[i] = Int32((Float(f[i]) * gain).rounded()) }
                        }
                        // Four trees at a time, branch-free: the four walks are independent, so their loads
                        // overlap, and a data-dependent branch per split would mispredict half the time.
                        @inline(__always) func descend(_ node: Int, _ tree: UnsafePointer<UInt32>) -> Int {
                            let w = tree[node]
                            let diff = f[Int(w & 1023)] &- f[Int((w >> 10) & 1023)]
                            let threshold = Int32(truncatingIfNeeded: w >> 20) &- 256
                            // Left (2n+1) when diff > threshold: then threshold - diff is negative and >> 31 is -1.
                            return 2 &* node &+ 2 &+ Int((threshold &- diff) >> 31)
                        }
                        let firstTree = level * trees
                        var t = 0
                        while t < trees {
                            let count = min(4, trees &- t)
                            let t0 = nodes + (firstTree &+ t) &* nodeStride
                            let t1 = count > 1 ? t0 + nodeStride : t0, t2 = count > 2 ? t1 + nodeStride : t0, t3 = count > 3 ? t2 + nodeStride : t0
                            var n0 = 0, n1 = 0, n2 = 0, n3 = 0
                            while n0 < splits {
                                n0 = descend(n0, t0); n1 = descend(n1, t1); n2 = descend(n2, t2); n3 = descend(n3, t3)
                            }
                            let nodes = (n0, n1, n2, n3)
                            for k in 0..<count {
                                let node = k == 0 ? nodes.0 : k == 1 ? nodes.1 : k == 2 ? nodes.2 : nodes.3
                                chosen[t &+ k] = ((firstTree &+ t &+ k) &* (splits &+ 1) &+ node &- splits) &* leafStride
                            }
                            t &+= count
                        }
                        // Then the leaves: independent loads that overlap (they miss cache), one vector each.
                        var sum = SIMD16<Int32>()
                        for t in 0..<trees {
                            let leaf = leaves.load(fromByteOffset: chosen[t] &* 2, as: SIMD16<Int16>.self)
                            sum &+= SIMD16<Int32>(truncatingIfNeeded: leaf)
                        }
                        for i in 0..<n { s[i] += Float(sum[i]) * step }
                    }
                  }
                }
            }
        }
        func point(_ i: Int) -> Point2 {
            Point2(x: Double(ox + shape[2 * i] * sx), y: Double(oy + shape[2 * i + 1] * sy))
        }
        return FaceLandmarks(point(0), point(1), point(2), point(3), point(4))
    }

    /// The linear part of the least-squares similarity transform taking `from` onto `to` (2-D Umeyama).
    @inline(__always)
    static func similarity(from a: UnsafePointer<Float>, to b: UnsafePointer<Float>, parts: Int) -> (Float, Float, Float, Float) {
        var ax: Float = 0, ay: Float = 0, bx: Float = 0, by: Float = 0
        for i in 0..<parts { ax += a[2 * i]; ay += a[2 * i + 1]; bx += b[2 * i]; by += b[2 * i + 1] }
        let c = 1 / Float(parts)
        ax *= c; ay *= c; bx *= c; by *= c
        var dot: Float = 0, cross: Float = 0, norm: Float = 0
        for i in 0..<parts {
            let px = a[2 * i] - ax, py = a[2 * i + 1] - ay, qx = b[2 * i] - bx, qy = b[2 * i + 1] - by
            dot += px * qx + py * qy
            cross += px * qy - py * qx
            norm += px * px + py * py
        }
        guard norm > 0 else { return (1, 0, 0, 1) }
        return (dot / norm, -cross / norm, cross / norm, dot / norm)
    }

    /// The box whose unit square best maps the model's mean shape onto these landmarks (scale and shift,
    /// least squares): how the tracker turns a fit into next frame's box, in the detector's convention.
    public func box(enclosing landmarks: FaceLandmarks) -> FaceBox {
        let initial = model.raw.pointee.initial_shape!
        var mu = Point2(x: 0, y: 0), mp = Point2(x: 0, y: 0)
        for i in 0..<5 {
            mu = mu + Point2(x: Double(initial[2 * i]), y: Double(initial[2 * i + 1]))
            mp = mp + landmarks[i]
        }
        mu = mu * 0.2; mp = mp * 0.2
        var num = 0.0, den = 0.0
        for i in 0..<5 {
            let u = Point2(x: Double(initial[2 * i]), y: Double(initial[2 * i + 1])) - mu
            num += u.dot(landmarks[i] - mp)
            den += u.dot(u)
        }
        let side = den > 0 ? num / den : 0   // pixels per unit, i.e. (box width - 1)
        let left = mp.x - side * mu.x, top = mp.y - side * mu.y
        return FaceBox(left: left, top: top, right: left + side + 1, bottom: top + side + 1)
    }
}
