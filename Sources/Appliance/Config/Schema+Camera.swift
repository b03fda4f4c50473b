import Pipeline

extension ConfigSchema {
    /// `[camera]`: which camera and how it runs. Defaults and meaning live in `CameraSettings`.
    static var camera: [SettingSpec] { [
        SettingSpec(key: "camera.id", doc: "Which camera: its number in `nodwire cameras` (\"0\" is the first) or its id as listed there.",
                    kind: .text, get: { .string($0.camera.camera.description) },
                    set: { if case let .string(s) = $1 { $0.camera.camera = CameraSelector(parsing: s) } }),
        .int("camera.width", \.camera.width, CameraSettings.sizeRange, "Picture width to ask for, pixels; the camera may round it (see `nodwire capture`)."),
        .int("camera.height", \.camera.height, CameraSettings.sizeRange, "Picture height to ask for, pixels."),
        .double("camera.fps", \.camera.fps, CameraSettings.fpsRange, "Frames per second to ask for, where the camera lets the rate be chosen (Raspberry Pi cameras do); 0 keeps the camera's own rate."),
        SettingSpec(key: "camera.rotation", doc: "Turn the picture by 180 for a camera mounted upside down (done by the sensor when it can).",
                    kind: .oneOf(CameraSettings.allowedRotations), get: { .int($0.camera.rotation) },
                    set: { if case let .int(i) = $1 { $0.camera.rotation = i } }),
        .bool("camera.mirror", \.camera.mirror, "Mirror the picture left-right (a selfie view); set vision.mirrored to match."),
    ] }
}
