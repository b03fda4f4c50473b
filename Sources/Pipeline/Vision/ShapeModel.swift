import CDlibFace

/// A dlib shape-predictor model (ensemble of regression trees, Kazemi & Sullivan 2014), read by dlib
/// itself and repacked so `LandmarkFitter` can run the cascade without allocating and with few cache misses.
///
/// The fit is bound by memory: each of the 7,500 trees reads its split nodes and one leaf, megabytes in all,
/// out of cache (a Pi 4 has 1 MB of L2 and no L3). So each tree's 15 splits are packed into one 64-byte
/// line, and each leaf into one aligned 32-byte block read as a single vector.
public final class ShapeModel: @unchecked Sendable {  // immutable after init
    let raw: UnsafeMutablePointer<nw_shape_model>
    public let path: String
    /// Per tree, `nodeStride` words: a split in each (feature a | feature b << 10 | (threshold + 256) << 20).
    /// Features are whole pixel values, so their difference is an integer and `diff > t` is exactly
    /// `diff > floor(t)`; thresholds beyond ±255 are clamped, which changes no decision.
    let nodes: UnsafeMutablePointer<UInt32>
    static let nodeStride = 16
    /// Per leaf, `leafStride` 16-bit steps of `leafStep` (10 used; rounding < 0.01 px over the cascade).
    let leaves: UnsafeMutablePointer<Int16>
    static let leafStride = 16
    let leafStep: Float

    public var partCount: Int { Int(raw.pointee.num_parts) }

    public init(path: String) throws(VisionError) {
        var message = [CChar](repeating: 0, count: 512)
        guard let model = nw_shape_model_load(path, &message, message.count) else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .modelUnreadable(path: path, reason: text)
        }
        let m = model.pointee
        let splits = (1 << Int(m.tree_depth)) - 1, trees = Int(m.num_cascades) * Int(m.trees_per_cascade)
        guard m.num_parts == 5, splits <= Self.nodeStride, m.features_per_cascade <= 1024 else {
            nw_shape_model_free(model)
            throw .modelUnreadable(path: path, reason: "it has \(m.num_parts) landmarks, trees of depth \(m.tree_depth) and \(m.features_per_cascade) features a level; Nodwire uses dlib's 5-point model (shape_predictor_5_face_landmarks.dat)")
        }
        raw = model
        self.path = path

        let nodeBytes = trees * Self.nodeStride * MemoryLayout<UInt32>.stride
        nodes = UnsafeMutableRawPointer.allocate(byteCount: nodeBytes, alignment: 64).bindMemory(to: UInt32.self, capacity: nodeBytes / 4)
        nodes.initialize(repeating: 0, count: trees * Self.nodeStride)
        for t in 0..<trees {
            for k in 0..<splits {
                let j = t * splits + k
                let threshold = Int32(max(-256, min(255, m.split_threshold[j].rounded(.down))))
                nodes[t * Self.nodeStride + k] = UInt32(m.split_a[j]) | UInt32(m.split_b[j]) << 10 | UInt32(threshold + 256) << 20
            }
        }

        let values = Int(m.num_parts) * 2, leafCount = trees * (splits + 1)
        var largest: Float = 0
        for i in 0..<(leafCount * values) { largest = max(largest, abs(m.leaf[i])) }
        leafStep = largest > 0 ? largest / 32767 : 1
        let leafBytes = leafCount * Self.leafStride * MemoryLayout<Int16>.stride
        leaves = UnsafeMutableRawPointer.allocate(byteCount: leafBytes, alignment: 64).bindMemory(to: Int16.self, capacity: leafBytes / 2)
        leaves.initialize(repeating: 0, count: leafCount * Self.leafStride)
        for l in 0..<leafCount {
            for i in 0..<values { leaves[l * Self.leafStride + i] = Int16((m.leaf[l * values + i] / leafStep).rounded()) }
        }
    }

    deinit {
        nw_shape_model_free(raw)
        nodes.deallocate()
        leaves.deallocate()
    }
}

/// Problems of the vision core, worded for the person setting the device up.
public enum VisionError: Error, Equatable, CustomStringConvertible {
    case modelUnreadable(path: String, reason: String)
    case detectorUnavailable

    public var description: String {
        switch self {
        case let .modelUnreadable(path, reason):
            return "cannot use the landmark model \(path): \(reason). Run scripts/fetch-model.sh, or set vision.model_path to shape_predictor_5_face_landmarks.dat"
        case .detectorUnavailable:
            return "dlib's face detector could not be created (out of memory?)"
        }
    }
}

extension ShapeModel: CustomStringConvertible {
    public var description: String {
        let m = raw.pointee
        return "\(m.num_parts)-point model: \(m.num_cascades) cascade levels x \(m.trees_per_cascade) trees of depth \(m.tree_depth), \(m.features_per_cascade) feature pixels a level"
    }
}
