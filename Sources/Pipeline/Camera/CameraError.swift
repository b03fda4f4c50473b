#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What went wrong with a camera, worded for the person installing the appliance: which camera, what
/// happened, what exists and what to try. `exitCode` is a sysexits-style code for the CLI.
public enum CameraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcamera itself could not start (CameraManager::start failed with this errno).
    case libraryUnavailable(errno: Int32)
    /// libcamera sees no camera at all.
    case noCameras
    /// No camera matches. `available`: one line per camera that exists, e.g. "0: platform/vimc.0 Sensor B".
    case notFound(CameraSelector, available: [String])
    /// Another program (or another part of this one) has the camera: libcamera's acquire() refused, or the
    /// camera is not listed while a media device is locked. `holders`: `MediaDeviceLock` descriptions.
    case busy(camera: String, holders: [String])
    /// libcamera reported the camera disconnected while it was in use.
    case disconnected(camera: String)
    /// No frame arrived for `seconds` while streaming.
    case stalled(camera: String, seconds: Double)
    /// The camera refused the configuration (`wanted`, e.g. "640x480 YUV420") or a later step of it.
    case cannotConfigure(camera: String, wanted: String, step: String, errno: Int32)
    /// The camera only offers pixel formats this program cannot turn into luma.
    case unsupportedFormats(camera: String, offered: [String], supported: [String])
    /// A setting out of range (`setting` is the CameraSettings field).
    case invalidSetting(setting: String, value: String, allowed: String)
    /// Any other libcamera failure: the operation and the errno behind it.
    case failed(camera: String, operation: String, errno: Int32)

    public var description: String {
        switch self {
        case let .libraryUnavailable(e):
            return "libcamera could not start (\(Self.reason(e))); is libcamera installed (scripts/setup.sh) and /dev/media* readable?"
        case .noCameras:
            return "libcamera sees no cameras. Check the camera cable and that the camera is enabled (Raspberry Pi: "
                + "camera_auto_detect=1 or a dtoverlay in /boot/firmware/config.txt, then reboot)"
        case let .notFound(selector, available):
            let which: String
            switch selector {
            case let .index(i): which = "camera \(i)"
            case let .id(id): which = "camera '\(id)'"
            }
            if available.isEmpty { return "\(which) not found: " + CameraError.noCameras.description }
            return "\(which) not found; cameras here (use the number or the id): " + available.joined(separator: "; ")
        case let .busy(camera, holders):
            return "camera \(camera) is in use by another program" + (holders.isEmpty ? "" : " (\(holders.joined(separator: "; ")))")
                + "; libcamera lets one program use a camera at a time: stop the other program (another nodwire, "
                + "rpicam-vid/libcamera-vid, cam...) and try again"
        case let .disconnected(camera):
            return "camera \(camera) was disconnected while in use; check the cable or USB connection"
        case let .stalled(camera, seconds):
            return "camera \(camera) delivered no frame for \(Self.format(seconds)) s; it may have been unplugged or its driver stopped"
        case let .cannotConfigure(camera, wanted, step, e):
            return "camera \(camera) refused \(wanted) at \(step) (\(Self.reason(e))); see `nodwire cameras` for what it offers"
        case let .unsupportedFormats(camera, offered, supported):
            return "camera \(camera) offers only pixel formats \(offered.joined(separator: ", ")); Nodwire reads "
                + supported.joined(separator: ", ")
        case let .invalidSetting(setting, value, allowed):
            return "camera \(setting) \(value) is not allowed; allowed: \(allowed)"
        case let .failed(camera, operation, e):
            return "camera \(camera): \(operation) failed (\(Self.reason(e)))"
        }
    }

    /// sysexits-style: 69 unavailable, 75 try again later (busy), 74 I/O, 64/78 bad settings.
    public var exitCode: Int32 {
        switch self {
        case .libraryUnavailable, .noCameras, .notFound, .unsupportedFormats: return 69   // EX_UNAVAILABLE
        case .busy: return 75                                                 // EX_TEMPFAIL
        case .disconnected, .stalled, .failed: return 74                      // EX_IOERR
        case .cannotConfigure: return 78                                      // EX_CONFIG
        case .invalidSetting: return 64                                       // EX_USAGE
        }
    }

    static func reason(_ e: Int32) -> String {
        let code = e < 0 ? -e : e
        return "\(String(cString: strerror(code))), errno \(code)"
    }

    static func format(_ x: Double) -> String {
        let r = (x * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
