import Foundation
import XCTest

@testable import Appliance
@testable import Pipeline

/// `nodwire capture`'s clip writer and option checks (the camera itself is tested in CameraTests and
/// hardware/tests/camera-hil.sh).
final class CaptureCommandTests: XCTestCase {
    private func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).y4m").path
    }

    private func frame(_ i: Int, time: Double) -> LumaFrame {
        LumaFrame(width: 4, height: 2, index: i, time: time, pixels: [UInt8](repeating: UInt8(i), count: 8))
    }

    /// Reads a clip back: its rate and the first pixel of each frame.
    private func readBack(_ path: String) throws -> (rate: Double, marks: [UInt8]) {
        var reader = try Y4MReader(path: path)
        var f = reader.makeFrame()
        var marks: [UInt8] = []
        while try reader.next(into: &f) { marks.append(f[0, 0]) }
        return (reader.frameRate, marks)
    }

    func testNominalRateIsWrittenAndFramesGoStraightThrough() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rec = ClipRecorder(path: path, nominalRate: 30)
        for i in 0..<5 { try rec.add(frame(i, time: Double(i) / 30)) }
        try rec.finish()
        XCTAssertEqual(rec.written, 5)
        let clip = try readBack(path)
        XCTAssertEqual(clip.rate, 30)
        XCTAssertEqual(clip.marks, [0, 1, 2, 3, 4])
    }

    func testWithoutNominalRateTheFirstSecondSetsTheRate() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rec = ClipRecorder(path: path, nominalRate: nil)
        // 8 fps with gaps in the indexes (dropped frames): the rate is what was delivered.
        for i in 0..<20 { try rec.add(frame(i, time: Double(i) * 0.125)) }
        try rec.finish()
        XCTAssertEqual(rec.rate, 8)
        XCTAssertEqual(rec.written, 20)
        let clip = try readBack(path)
        XCTAssertEqual(clip.rate, 8)
        XCTAssertEqual(clip.marks, (0..<20).map(UInt8.init))
    }

    func testShortClipIsWrittenWhole() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rec = ClipRecorder(path: path, nominalRate: nil)
        for i in 0..<3 { try rec.add(frame(i, time: Double(i) * 0.2)) }   // 0.4 s: never reaches the measuring time
        XCTAssertEqual(rec.written, 0)
        try rec.finish()
        XCTAssertEqual(rec.written, 3)
        let clip = try readBack(path)
        XCTAssertEqual(clip.rate, 5)
        XCTAssertEqual(clip.marks, [0, 1, 2])
    }

    func testOptionsAreChecked() {
        XCTAssertThrowsError(try CaptureCommand.parse(["--seconds", "0"]))
        XCTAssertThrowsError(try CaptureCommand.parse(["--seconds", "nan"]))
        XCTAssertNoThrow(try CaptureCommand.parse(["--seconds", "3", "--camera", "platform/vimc.0 Sensor B", "--rotation", "180", "--mirror"]))
        XCTAssertThrowsError(try CaptureCommand.parse(["--seconds", "3", "--rotation", "90"]).settings()) { error in
            XCTAssertTrue("\(error)".contains("0 or 180"), "\(error)")
        }
        XCTAssertEqual(try CaptureCommand.parse(["--seconds", "1", "--camera", "2", "--width", "320"]).settings().camera, .index(2))
    }

    func testCameraConfigKeysRoundTrip() throws {
        let c = try ConfigLoader.parse("[camera]\nid = \"platform/vimc.0 Sensor B\"\nwidth = 320\nfps = 15\nrotation = 180\nmirror = true\n", file: "c.toml")
        XCTAssertEqual(c.camera.camera, .id("platform/vimc.0 Sensor B"))
        XCTAssertEqual([c.camera.width, c.camera.height, c.camera.rotation], [320, 480, 180])
        XCTAssertEqual(c.camera.fps, 15)
        XCTAssertTrue(c.camera.mirror)
        XCTAssertEqual(try ConfigLoader.parse("[camera]\nid = \"1\"\n", file: "c.toml").camera.camera, .index(1))
        XCTAssertThrowsError(try ConfigLoader.parse("[camera]\nrotation = 90\n", file: "c.toml")) { error in
            XCTAssertTrue("\(error)".contains("one of 0, 180"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("[camera]\nid = 0\n", file: "c.toml")) { error in
            XCTAssertTrue("\(error)".contains("text in quotes"), "\(error)")
        }
    }
}
