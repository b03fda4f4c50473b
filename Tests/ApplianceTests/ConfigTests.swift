@testable import Appliance
import XCTest

final class ConfigTests: XCTestCase {
    /// The printed defaults are a complete, valid file that reads back as the defaults.
    func testDefaultsFileRoundTrips() throws {
        let text = ConfigSchema.defaultsFile()
        XCTAssertEqual(try ConfigLoader.parse(text, file: "defaults.toml"), NodwireConfig())
        for spec in ConfigSchema.all { XCTAssertTrue(text.contains("\n\(spec.name) = "), spec.key) }
    }

    func testKeysAreUniqueAndDocumented() {
        let keys = ConfigSchema.all.map(\.key)
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertTrue(ConfigSchema.all.allSatisfy { !$0.doc.isEmpty })
    }

    func testValuesLandInTheSettings() throws {
        let c = try ConfigLoader.parse("""
        [vision]
        mirrored = true
        min_face_size = 90
        [gestures.zones]
        threshold_yaw = 15        # whole numbers are fine for decimals
        [gestures.nod]
        min_amplitude = 9.5
        [gestures.smoothing]
        kind = "moving_average"
        """, file: "t.toml")
        XCTAssertTrue(c.vision.mirrored)
        XCTAssertEqual(c.vision.minFaceSize, 90)
        XCTAssertEqual(c.gestures.zones.thresholdYaw, 15)
        XCTAssertEqual(c.gestures.nod.minAmplitude, 9.5)
        XCTAssertEqual(c.gestures.smoothing.kind, .movingAverage)
    }

    /// Each bad file is refused with the file, the line, the key, the value and what is allowed.
    func testBadConfigsAreRefusedWithWhatAndWhere() {
        let cases: [(String, [String])] = [
            ("[vision\nmirrored = true", ["bad.toml:1", "not valid TOML"]),
            ("[vision]\nmirrored = maybe", ["bad.toml:2", "not valid TOML"]),
            ("[vision]\nmirored = true", ["bad.toml:2", "vision.mirored", "Did you mean vision.mirrored", "vision.min_face_size"]),
            ("[visoin]\nmirrored = true", ["bad.toml:1", "unknown setting visoin", "gestures"]),
            ("[vision]\nmirrored = 1", ["bad.toml:2", "vision.mirrored = 1", "true or false"]),
            ("[vision]\nmin_face_size = \"big\"", ["bad.toml:2", "vision.min_face_size", "a number from 30.0 to 400.0"]),
            ("[vision]\nmin_face_size = 10", ["bad.toml:2", "vision.min_face_size = 10", "from 30.0 to 400.0"]),
            ("[gestures.calibration]\nsamples = 2.5", ["bad.toml:2", "gestures.calibration.samples", "whole number from 3 to 300"]),
            ("[gestures.calibration]\nsamples = 1000", ["gestures.calibration.samples = 1000", "3 to 300"]),
            ("[gestures.smoothing]\nkind = \"kalman\"", ["bad.toml:2", "\"kalman\"", "\"one_euro\", \"moving_average\", \"none\""]),
            ("[gestures.zones]\nidle_yaw = 20\nthreshold_yaw = 12", ["gestures.zones.idle_yaw", "smaller than gestures.zones.threshold_yaw"]),
            ("[gestures.nod]\nmin_amplitude = -3", ["gestures.nod.min_amplitude = -3", "from 2.0 to 60.0"]),
            ("[gestures.nod]\nmin_swing_duration = 0.7\nmax_swing_duration = 0.5", ["gestures.nod.min_swing_duration", "shorter than"]),
            ("gestures = 3", ["bad.toml:1", "gestures is a section"]),
            ("[vision]\nmodel_path = \"\"", ["vision.model_path", "a file path"]),
            ("[vision]\nmirrored = [true]", ["vision.mirrored", "wrong type"]),
            ("[gestures.zones]\nthreshold_yaw = nan", ["gestures.zones.threshold_yaw", "not allowed"]),
        ]
        for (text, expected) in cases {
            do {
                _ = try ConfigLoader.parse(text, file: "bad.toml")
                XCTFail("accepted: \(text)")
            } catch {
                let message = "\(error)"
                for part in expected { XCTAssertTrue(message.contains(part), "«\(message)» lacks «\(part)» for:\n\(text)") }
            }
        }
    }

    func testUnreadableFileNamesIt() {
        XCTAssertThrowsError(try ConfigLoader.load(file: "/nonexistent/nodwire.toml")) {
            XCTAssertTrue("\($0)".contains("/nonexistent/nodwire.toml"))
        }
    }

    func testRefusedConfigExitsWith78() throws {
        let exe = ReplayTests.root + "/.build/debug/nodwire"
        guard FileManager.default.isExecutableFile(atPath: exe) else { return XCTFail("\(exe) not built: swift build --build-tests builds it") }
        let file = NSTemporaryDirectory() + "bad-\(getpid()).toml"
        try "[vision]\nmin_face_size = 5\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["config", "check", file]
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 78)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("\(file):2: vision.min_face_size = 5"), text)
    }
}
