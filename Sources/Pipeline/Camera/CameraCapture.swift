import CLibcamera

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A started camera that yields luma frames, newest first.
///
/// When frames are processed more slowly than the camera delivers them, the older ones are dropped
/// (counted in `counters.dropped`), never queued: `next(into:)` always returns the newest frame. The
/// camera's buffers go straight back to it; at most one waits for the caller and one is being copied.
///
///     let camera = try CameraCapture(settings: settings)
///     var frame = camera.makeFrame()
///     while running { try camera.next(into: &frame); process(frame) }
public final class CameraCapture {
    /// The camera in use.
    public let camera: CameraDescription
    public let settings: CameraSettings
    /// What the camera delivers: size, pixel format, who does the flips.
    public let stream: CameraStream
    /// The frame rate asked of the camera through FrameDurationLimits; nil when it cannot be chosen (or
    /// settings.fps is 0) and the camera runs at its own rate.
    public let requestedFrameRate: Double?

    private let handle: OpaquePointer
    private let layout: LumaLayout
    /// Media device numbers present when the camera opened: one gone later means the hardware went away.
    private let mediaDevices: Set<UInt64>
    /// Set when the hardware vanished unnoticed by libcamera: closing would abort in libcamera.
    private var abandoned = false
    private var first: (sequence: UInt64, timestamp: UInt64, clock: Double)?

    /// Opens, configures and starts the camera `settings.camera`. Errors name the camera and what exists.
    public init(settings: CameraSettings) throws(CameraError) {
        try settings.validate()
        let list = try CameraList()   // keeps libcamera started until the camera is open
        let camera: CameraDescription
        do { camera = try CameraInventory.find(settings.camera, in: list.cameras) } catch {
            // Some pipelines (vimc) cannot even list a camera while another process streams from it.
            let held = MediaDeviceLock.held()
            if held.isEmpty { throw error }
            throw .busy(camera: "\(settings.camera) (not listed while another program uses it)", holders: held.map(\.description))
        }
        var error: Int32 = 0
        let opened = nw_cam_open(camera.id, &error)
        withExtendedLifetime(list) {}
        guard let handle = opened else {
            switch -error {
            case EBUSY: throw .busy(camera: camera.label, holders: MediaDeviceLock.held().map(\.description))
            case ENODEV: throw .notFound(settings.camera, available: list.cameras.map(\.label))
            default: throw .failed(camera: camera.label, operation: "acquire", errno: -error)
            }
        }
        let stream: CameraStream, layout: LumaLayout, rate: Double?
        do throws(CameraError) {
            let (wish, chosenLayout) = try Self.choose(handle, camera: camera, settings: settings)
            var got = nw_cam_stream()
            var wanted = wish
            let r = nw_cam_configure(handle, &wanted, &got)
            if r != 0 { throw .cannotConfigure(camera: camera.label, wanted: Self.text(wish), step: "configure", errno: -r) }
            stream = CameraStream(got, wanted: settings)
            layout = chosenLayout
            if settings.fps > 0, let range = camera.frameRates {
                rate = min(max(settings.fps, range.lowerBound), range.upperBound)
            } else {
                rate = nil
            }
            let s = nw_cam_start(handle, rate.map { Int64((1e6 / $0).rounded()) } ?? 0)
            if s != 0 { throw .failed(camera: camera.label, operation: "start", errno: -s) }
        } catch {
            nw_cam_close(handle)
            throw error
        }
        self.camera = camera
        self.settings = settings
        self.stream = stream
        self.layout = layout
        self.handle = handle
        self.requestedFrameRate = rate
        self.mediaDevices = Self.presentMediaDevices()
    }

    deinit {
        if abandoned { nw_cam_abandon(handle) } else { nw_cam_close(handle) }
    }

    /// Device numbers of the /dev/media* nodes now.
    private static func presentMediaDevices() -> Set<UInt64> {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob("/dev/media*", 0, nil, &found) == 0 else { return [] }
        var devices = Set<UInt64>()
        for i in 0..<Int(found.gl_pathc) {
            var st = stat()
            if let p = found.gl_pathv[i], stat(p, &st) == 0 { devices.insert(UInt64(st.st_rdev)) }
        }
        return devices
    }

    /// The preferred formats (a Y plane: no conversion) if the camera gives them at all, else what the camera
    /// proposes, else any format it lists that Nodwire can read. The size is asked as set; the camera may adjust it.
    private static func choose(_ handle: OpaquePointer, camera: CameraDescription,
                               settings: CameraSettings) throws(CameraError) -> (nw_cam_config, LumaLayout) {
        let flips = settings.flips
        func wish(_ format: PixelFormat?) -> nw_cam_config {
            nw_cam_config(width: UInt32(settings.width), height: UInt32(settings.height), fourcc: format?.fourcc ?? 0,
                          buffer_count: 4, hflip: flips.horizontal, vflip: flips.vertical)
        }
        func attempt(_ format: PixelFormat?) -> PixelFormat? {
            var w = wish(format)
            var got = nw_cam_stream()
            guard nw_cam_try(handle, &w, &got) == 0 else { return nil }
            return PixelFormat(fourcc: got.fourcc)
        }
        let offered = camera.formats.map(\.format)
        var candidates: [PixelFormat?] = PixelFormat.preferred.filter { offered.isEmpty || offered.contains($0) }
        candidates.append(nil)
        candidates += offered.filter { $0.lumaLayout != nil && !PixelFormat.preferred.contains($0) }
        for candidate in candidates {
            guard let got = attempt(candidate), let layout = got.lumaLayout else { continue }
            if candidate == nil || candidate == got { return (wish(got), layout) }
        }
        throw .unsupportedFormats(camera: camera.label, offered: camera.formats.map(\.name), supported: PixelFormat.readable)
    }

    private static func text(_ w: nw_cam_config) -> String {
        "\(w.width)x\(w.height)" + (w.fourcc != 0 ? " \(PixelFormat(fourcc: w.fourcc))" : "")
    }

    /// A black frame of the delivered size.
    public func makeFrame() -> LumaFrame { LumaFrame(width: stream.width, height: stream.height) }

    /// Fills `frame` with the newest picture (waiting up to `timeout` seconds for one newer than the last).
    ///
    /// `index` is the camera's frame number counted from the first delivered frame, so dropped frames show
    /// as gaps; `time` is seconds since that frame, from the sensor timestamps (the monotonic clock when the
    /// camera gives none). Throws `.disconnected` when the camera goes away, `.stalled` on timeout.
    public func next(into frame: inout LumaFrame, timeout: Double = 2) throws(CameraError) {
        var f = nw_cam_frame()
        let ms = Int32(max(0, min(timeout, 3600)) * 1000)
        let r = nw_cam_next(handle, ms, &f)
        switch -r {
        case 0: break
        case ETIMEDOUT:
            // Without udev (a container, the test VM) libcamera does not notice a camera that went away:
            // frames just stop. A media device that vanished tells it; then the camera must not be stopped.
            if !mediaDevices.isSubset(of: Self.presentMediaDevices()) {
                abandoned = true
                nw_cam_abandon(handle)
                throw .disconnected(camera: camera.label)
            }
            throw .stalled(camera: camera.label, seconds: timeout)
        case ENODEV: throw .disconnected(camera: camera.label)
        default: throw .failed(camera: camera.label, operation: "capture", errno: -r)
        }
        defer { nw_cam_release_frame(handle) }
        let bytes = UnsafeRawBufferPointer(start: f.data, count: min(f.bytes, f.mapped_bytes))
        guard LumaConverter.fill(&frame, from: bytes, width: stream.width, height: stream.height,
                                 stride: stream.stride, layout: layout, flips: stream.softwareFlips) else {
            throw .failed(camera: camera.label, operation: "reading a \(f.bytes)-byte frame of \(stream.text)", errno: EMSGSIZE)
        }
        let now = MonotonicClock.now()
        let start = first ?? (f.sequence, f.timestamp_ns, now)
        first = start
        frame.index = Int(truncatingIfNeeded: f.sequence &- start.sequence)
        frame.time = f.timestamp_ns > 0 && start.timestamp > 0
            ? Double(Int64(bitPattern: f.timestamp_ns &- start.timestamp)) / 1e9
            : now - start.clock
    }

    /// Frames captured, delivered and dropped so far.
    public var counters: CameraCounters {
        var c = nw_cam_counters()
        nw_cam_get_counters(handle, &c)
        return CameraCounters(captured: Int(c.completed), delivered: Int(c.taken), dropped: Int(c.dropped), failed: Int(c.failed))
    }

    /// Stops streaming (the camera stays acquired until this object goes away).
    public func stop() { if !abandoned { nw_cam_stop(handle) } }
}

/// What a started camera delivers.
public struct CameraStream: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bytes between rows of plane 0.
    public let stride: Int
    public let format: PixelFormat
    /// libcamera's description, e.g. "636x480-BGR888".
    public let text: String
    /// The camera changed the request (size, format or flips); the fields above are what it will do.
    public let adjusted: Bool
    /// Flips the sensor does, and those done while copying because it could not.
    public let cameraFlips: Flips
    public let softwareFlips: Flips
    public let bufferCount: Int

    init(_ s: nw_cam_stream, wanted: CameraSettings) {
        width = Int(s.width)
        height = Int(s.height)
        stride = Int(s.stride)
        format = PixelFormat(fourcc: s.fourcc)
        text = withUnsafeBytes(of: s.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        cameraFlips = Flips(horizontal: s.hflip, vertical: s.vflip)
        softwareFlips = wanted.flips.remaining(after: cameraFlips)
        adjusted = s.adjusted || width != wanted.width || height != wanted.height
        bufferCount = Int(s.buffer_count)
    }
}

/// Frame counts of a camera since it started. `captured` = `delivered` + `dropped` (+ the one waiting, if any).
public struct CameraCounters: Sendable, Equatable {
    /// Frames the camera completed without error.
    public var captured: Int
    /// Frames handed to the caller.
    public var delivered: Int
    /// Frames replaced by a newer one before the caller asked: processing was slower than the camera.
    public var dropped: Int
    /// Frames the camera completed with an error (not delivered).
    public var failed: Int

    public init(captured: Int = 0, delivered: Int = 0, dropped: Int = 0, failed: Int = 0) {
        self.captured = captured
        self.delivered = delivered
        self.dropped = dropped
        self.failed = failed
    }
}
