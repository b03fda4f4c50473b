import CDlibFace

/// A dlib shape-predictor model (ensemble of regression trees, Kazemi & Sullivan 2014), read by dlib
/// itself and held as flat arrays so `LandmarkFitter` can run the cascade without allocating.
public final class ShapeModel: @unchecked Sendable {  // immutable after init
    let raw: UnsafeMutablePointer<nw_shape_model>
    public let path: String
    /// The leaf vectors as 16-bit steps of `leafStep`: half the memory of dlib's floats, which matters
    /// because the fit is bound by fetching one leaf from each of thousands of trees (megabytes, out of cache).
    /// The rounding error over the whole cascade stays below 0.01 px.
    let leaves: UnsafeMutablePointer<Int16>
    let leafStep: Float

    public var partCount: Int { Int(raw.pointee.num_parts) }

    public init(path: String) throws(VisionError) {
        var message = [CChar](repeating: 0, count: 512)
        guard let model = nw_shape_model_load(path, &message, message.count) else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .modelUnreadable(path: path, reason: text)
        }
        raw = model
        self.path = path
        let m = model.pointee
        let count = Int(m.num_cascades) * Int(m.trees_per_cascade) * (1 << Int(m.tree_depth)) * Int(m.num_parts) * 2
        var largest: Float = 0
        for i in 0..<count { largest = max(largest, abs(m.leaf[i])) }
        leafStep = largest > 0 ? largest / 32767 : 1
        leaves = .allocate(capacity: count)
        for i in 0..<count { leaves[i] = Int16((m.leaf[i] / leafStep).rounded()) }
        guard model.pointee.num_parts == 5 else {
            nw_shape_model_free(model)
            throw .modelUnreadable(path: path, reason: "it has \(model.pointee.num_parts) landmarks; Nodwire uses the 5-point model (shape_predictor_5_face_landmarks.dat)")
        }
    }

    deinit {
        nw_shape_model_free(raw)
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
