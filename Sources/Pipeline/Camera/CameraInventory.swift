import CLibcamera

/// One camera libcamera sees, and what it offers for a viewfinder stream.
public struct CameraDescription: Sendable, Equatable {
    /// Position in libcamera's list (what `CameraSelector.index` selects).
    public let index: Int
    /// libcamera's id, stable across boots for the same connection.
    public let id: String
    /// The sensor's model ("imx708"), when the camera says.
    public let model: String?
    public let location: Location
    /// How the sensor is mounted (properties::Rotation), degrees, when the camera says.
    public let mountingRotation: Int?
    public let formats: [Offer]
    /// What the camera proposes when asked for nothing in particular.
    public let defaultSize: Size?
    public let defaultFormat: PixelFormat?
    /// Frame rates that can be asked for (from FrameDurationLimits); nil when the rate cannot be chosen.
    public let frameRates: ClosedRange<Double>?

    public enum Location: String, Sendable { case front, back, external, unknown }

    public struct Size: Sendable, Equatable, Hashable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        public var description: String { "\(width)x\(height)" }
    }

    /// One pixel format and the sizes it comes in.
    public struct Offer: Sendable, Equatable {
        public let format: PixelFormat
        /// libcamera's name for it ("YUV420").
        public let name: String
        public let minimum: Size
        public let maximum: Size
        /// Granularity inside the range (nil when the camera gives none).
        public let step: Size?
        /// Sizes the camera lists (may be empty: then any in the range, by `step`).
        public let sizes: [Size]
        /// Whether Nodwire can read this format.
        public var readable: Bool { format.lumaLayout != nil }
    }

    /// "0: platform/vimc.0 Sensor B (Sensor B)": how messages name a camera.
    public var label: String {
        if let model, !model.isEmpty, !id.contains(model) { return "\(index): \(id) (\(model))" }
        return "\(index): \(id)"
    }
}

/// The cameras on this machine, through libcamera.
public enum CameraInventory {
    /// The libcamera in use ("v0.0.3") and the headers Nodwire was compiled against ("0.0.3").
    public static var libraryVersion: String {
        let h = Int(nw_cam_header_version())
        return "libcamera \(String(cString: nw_cam_library_version())) (compiled against \(h / 10000).\(h / 100 % 100).\(h % 100))"
    }

    /// Every camera libcamera sees now. Starting libcamera takes a moment (it probes the media devices).
    public static func list() throws(CameraError) -> [CameraDescription] {
        let list = try CameraList()
        return list.cameras
    }

    /// The camera `selector` names, among `cameras`.
    public static func find(_ selector: CameraSelector, in cameras: [CameraDescription]) throws(CameraError) -> CameraDescription {
        if cameras.isEmpty { throw .noCameras }
        let found: CameraDescription?
        switch selector {
        case let .index(i): found = cameras.first { $0.index == i }
        case let .id(id): found = cameras.first { $0.id == id }
        }
        guard let found else { throw .notFound(selector, available: cameras.map(\.label)) }
        return found
    }
}

/// A libcamera snapshot of the cameras. While it exists libcamera stays started, so a camera opened
/// meanwhile does not restart it.
final class CameraList {
    private let handle: OpaquePointer
    let cameras: [CameraDescription]

    init() throws(CameraError) {
        var error: Int32 = 0
        guard let handle = nw_cam_list_create(&error) else { throw .libraryUnavailable(errno: error) }
        self.handle = handle
        var cameras: [CameraDescription] = []
        for i in 0..<nw_cam_list_count(handle) {
            guard let info = nw_cam_list_get(handle, i)?.pointee else { continue }
            cameras.append(Self.describe(info, index: Int(i)))
        }
        self.cameras = cameras
    }

    deinit { nw_cam_list_free(handle) }

    private static func describe(_ info: nw_cam_info, index: Int) -> CameraDescription {
        func size(_ s: nw_cam_size) -> CameraDescription.Size { .init(width: Int(s.width), height: Int(s.height)) }
        let formats = UnsafeBufferPointer(start: info.formats, count: info.format_count).map { f in
            CameraDescription.Offer(
                format: PixelFormat(fourcc: f.fourcc),
                name: f.name.map { String(cString: $0) } ?? PixelFormat(fourcc: f.fourcc).code,
                minimum: size(f.min), maximum: size(f.max),
                step: f.h_step > 0 && f.v_step > 0 ? .init(width: Int(f.h_step), height: Int(f.v_step)) : nil,
                sizes: UnsafeBufferPointer(start: f.sizes, count: f.size_count).map(size))
        }
        let location: CameraDescription.Location
        switch info.location {
        case Int32(NW_CAM_LOCATION_FRONT.rawValue): location = .front
        case Int32(NW_CAM_LOCATION_BACK.rawValue): location = .back
        case Int32(NW_CAM_LOCATION_EXTERNAL.rawValue): location = .external
        default: location = .unknown
        }
        var rates: ClosedRange<Double>?
        if info.min_frame_duration_us > 0, info.max_frame_duration_us >= info.min_frame_duration_us {
            rates = (1e6 / Double(info.max_frame_duration_us))...(1e6 / Double(info.min_frame_duration_us))
        }
        let model = info.model.map { String(cString: $0) } ?? ""
        return CameraDescription(
            index: index, id: String(cString: info.id), model: model.isEmpty ? nil : model, location: location,
            mountingRotation: info.mounting_rotation >= 0 ? Int(info.mounting_rotation) : nil, formats: formats,
            defaultSize: info.default_size.width > 0 ? size(info.default_size) : nil,
            defaultFormat: info.default_fourcc != 0 ? PixelFormat(fourcc: info.default_fourcc) : nil,
            frameRates: rates)
    }
}
