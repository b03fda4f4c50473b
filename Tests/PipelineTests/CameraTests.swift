import Foundation
import XCTest

@testable import Pipeline

/// Camera: pixel formats, luma conversion with flips, settings, backoff and the reopen loop (no camera
/// needed); and, with NODWIRE_HW=1 (inside the hardware/vm guest, vimc), the real thing through libcamera.
final class CameraTests: XCTestCase {
    // MARK: - pixel formats

    func testFourCCCodesAndNames() {
        XCTAssertEqual(PixelFormat(code: "YU12").fourcc, 0x3231_5559)   // DRM_FORMAT_YUV420
        XCTAssertEqual(PixelFormat(code: "NV12").fourcc, 0x3231_564E)
        XCTAssertEqual(PixelFormat(fourcc: 0x3231_5559).code, "YU12")
        XCTAssertEqual(PixelFormat.yuv420.description, "YUV420")
        XCTAssertEqual(PixelFormat(code: "BG24").description, "BGR888")
        XCTAssertEqual(PixelFormat(code: "R8").code, "R8  ")
        XCTAssertEqual(PixelFormat(code: "R8").lumaLayout, .plane)
        let unknown = PixelFormat(code: "pRAA")   // a raw Bayer format: not readable
        XCTAssertEqual(unknown.description, "pRAA")
        XCTAssertNil(unknown.lumaLayout)
        XCTAssertEqual(PixelFormat.preferred, [.yuv420, .nv12])
        XCTAssertTrue(PixelFormat.readable.contains("RGB888"))
    }

    func testLumaWeightsAreBT601() {
        XCTAssertEqual(LumaConverter.luma(red: 0, green: 0, blue: 0), 0)
        XCTAssertEqual(LumaConverter.luma(red: 255, green: 255, blue: 255), 255)
        for (r, g, b) in [(255, 0, 0), (0, 255, 0), (0, 0, 255), (12, 200, 99), (250, 3, 128)] as [(Int, Int, Int)] {
            let exact = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
            let got = Double(LumaConverter.luma(red: UInt8(r), green: UInt8(g), blue: UInt8(b)))
            XCTAssertEqual(got, exact, accuracy: 1.0, "rgb \(r),\(g),\(b)")
        }
    }

    /// Converts `bytes` (rows `stride` apart) of a `w` x `h` picture.
    private func convert(_ bytes: [UInt8], _ w: Int, _ h: Int, stride: Int, _ layout: LumaLayout, _ flips: Flips = .none) -> LumaFrame? {
        var frame = LumaFrame(width: 1, height: 1)
        let ok = bytes.withUnsafeBytes { LumaConverter.fill(&frame, from: $0, width: w, height: h, stride: stride, layout: layout, flips: flips) }
        return ok ? frame : nil
    }

    private func rows(_ f: LumaFrame) -> [[UInt8]] {
        (0..<f.height).map { y in (0..<f.width).map { x in f[x, y] } }
    }

    func testRGBByteOrdersGiveTheSameLuma() throws {
        // One red, one green, one blue pixel; then white, black, grey. Row stride padded to 10 bytes.
        let pixels: [[(UInt8, UInt8, UInt8)]] = [[(255, 0, 0), (0, 255, 0), (0, 0, 255)], [(255, 255, 255), (0, 0, 0), (100, 100, 100)]]
        let expected = pixels.map { $0.map { LumaConverter.luma(red: $0.0, green: $0.1, blue: $0.2) } }
        XCTAssertEqual(expected[0], [77, 149, 29])
        for code in ["RG24", "BG24", "XR24", "XB24", "RX24", "BX24", "AR24", "AB24"] {
            guard case let .rgb(bpp, ri, gi, bi) = try XCTUnwrap(PixelFormat(code: code).lumaLayout) else { return XCTFail(code) }
            let stride = 3 * bpp + 1
            var bytes = [UInt8](repeating: 0xEE, count: stride * 2)
            for (y, row) in pixels.enumerated() {
                for (x, p) in row.enumerated() {
                    bytes[y * stride + x * bpp + ri] = p.0
                    bytes[y * stride + x * bpp + gi] = p.1
                    bytes[y * stride + x * bpp + bi] = p.2
                }
            }
            let f = try XCTUnwrap(convert(bytes, 3, 2, stride: stride, PixelFormat(code: code).lumaLayout!), code)
            XCTAssertEqual(rows(f), expected, code)
        }
        // DRM order: RGB888 is B, G, R in memory; BGR888 is R, G, B.
        XCTAssertEqual(rows(try XCTUnwrap(convert([0, 0, 255], 1, 1, stride: 3, PixelFormat(code: "RG24").lumaLayout!))), [[77]])
        XCTAssertEqual(rows(try XCTUnwrap(convert([255, 0, 0], 1, 1, stride: 3, PixelFormat(code: "BG24").lumaLayout!))), [[77]])
    }

    func testPlaneCopyHonoursStrideAndFlips() throws {
        // 3x2 Y plane with 2 bytes of padding per row.
        let bytes: [UInt8] = [1, 2, 3, 99, 99, 4, 5, 6, 99, 99]
        XCTAssertEqual(rows(try XCTUnwrap(convert(bytes, 3, 2, stride: 5, .plane))), [[1, 2, 3], [4, 5, 6]])
        XCTAssertEqual(rows(try XCTUnwrap(convert(bytes, 3, 2, stride: 5, .plane, Flips(horizontal: true)))), [[3, 2, 1], [6, 5, 4]])
        XCTAssertEqual(rows(try XCTUnwrap(convert(bytes, 3, 2, stride: 5, .plane, Flips(vertical: true)))), [[4, 5, 6], [1, 2, 3]])
        XCTAssertEqual(rows(try XCTUnwrap(convert(bytes, 3, 2, stride: 5, .plane, Flips(horizontal: true, vertical: true)))), [[6, 5, 4], [3, 2, 1]])
    }

    func testPackedYUVTakesEveryOtherByte() throws {
        // YUYV: Y0 U Y1 V; UYVY: U Y0 V Y1. Two pixels a row, two rows.
        let yuyv: [UInt8] = [10, 128, 20, 128, 30, 128, 40, 128]
        let uyvy: [UInt8] = [128, 10, 128, 20, 128, 30, 128, 40]
        XCTAssertEqual(rows(try XCTUnwrap(convert(yuyv, 2, 2, stride: 4, PixelFormat(code: "YUYV").lumaLayout!))), [[10, 20], [30, 40]])
        XCTAssertEqual(rows(try XCTUnwrap(convert(uyvy, 2, 2, stride: 4, PixelFormat(code: "UYVY").lumaLayout!))), [[10, 20], [30, 40]])
        XCTAssertEqual(rows(try XCTUnwrap(convert(uyvy, 2, 2, stride: 4, PixelFormat(code: "UYVY").lumaLayout!, Flips(horizontal: true, vertical: true)))),
                       [[40, 30], [20, 10]])
    }

    func testRGBFlipsMoveWholePixels() throws {
        // BGR888 (R, G, B in memory) 2x1: red then blue; mirrored it is blue then red.
        let bytes: [UInt8] = [255, 0, 0, 0, 0, 255]
        let layout = PixelFormat(code: "BG24").lumaLayout!
        XCTAssertEqual(rows(try XCTUnwrap(convert(bytes, 2, 1, stride: 6, layout))), [[77, 29]])
        XCTAssertEqual(rows(try XCTUnwrap(convert(bytes, 2, 1, stride: 6, layout, Flips(horizontal: true)))), [[29, 77]])
    }

    func testShortBufferOrStrideIsRefusedAndFrameIsKept() {
        var frame = LumaFrame(width: 2, height: 2, pixels: [7, 7, 7, 7])
        let short = [UInt8](repeating: 1, count: 5)   // 3x2 plane with stride 3 needs 6 bytes
        let ok = short.withUnsafeBytes { LumaConverter.fill(&frame, from: $0, width: 3, height: 2, stride: 3, layout: .plane) }
        XCTAssertFalse(ok)
        XCTAssertEqual(frame.pixels, [7, 7, 7, 7])
        let narrow = [UInt8](repeating: 1, count: 64)  // RGB row of 3 pixels cannot fit in a stride of 8
        XCTAssertFalse(narrow.withUnsafeBytes { LumaConverter.fill(&frame, from: $0, width: 3, height: 2, stride: 8, layout: .rgb(bytesPerPixel: 3, red: 0, green: 1, blue: 2)) })
        // The last row needs only width * bpp bytes, not a whole stride.
        XCTAssertNotNil(convert([1, 2, 3, 0, 4, 5, 6], 3, 2, stride: 4, .plane))
    }

    // MARK: - settings

    func testDefaultSettingsAreValidVGA() throws {
        let s = CameraSettings()
        XCTAssertNoThrow(try s.validate())
        XCTAssertEqual(s.camera, .index(0))
        XCTAssertEqual([s.width, s.height], [640, 480])
        XCTAssertEqual(s.flips, .none)
    }

    func testInvalidSettingsNameTheSettingAndWhatIsAllowed() {
        func refusal(_ change: (inout CameraSettings) -> Void) -> String {
            var s = CameraSettings()
            change(&s)
            do { try s.validate() } catch { return error.description }
            return "accepted"
        }
        XCTAssertTrue(refusal { $0.rotation = 90 }.contains("rotation 90"))
        XCTAssertTrue(refusal { $0.rotation = 90 }.contains("0 or 180"))
        XCTAssertTrue(refusal { $0.width = 0 }.contains("width 0"))
        XCTAssertTrue(refusal { $0.height = 5000 }.contains("16...4096"))
        XCTAssertTrue(refusal { $0.fps = -1 }.contains("fps"))
        XCTAssertTrue(refusal { $0.fps = .nan }.contains("fps"))
        XCTAssertTrue(refusal { $0.camera = .index(-1) }.contains("camera"))
        XCTAssertTrue(refusal { $0.camera = .id("") }.contains("camera"))
        XCTAssertEqual(refusal { $0.rotation = 180; $0.fps = 0; $0.width = 16 }, "accepted")
    }

    func testSelectorParsing() {
        XCTAssertEqual(CameraSelector(parsing: "0"), .index(0))
        XCTAssertEqual(CameraSelector(parsing: "12"), .index(12))
        XCTAssertEqual(CameraSelector(parsing: "platform/vimc.0 Sensor B"), .id("platform/vimc.0 Sensor B"))
        XCTAssertEqual(CameraSelector(parsing: "-1"), .id("-1"))
        XCTAssertEqual(CameraSelector(parsing: "٣"), .id("٣"))   // non-ASCII digits are an id
        XCTAssertEqual(CameraSelector(parsing: ""), .id(""))
        XCTAssertEqual(CameraSelector.index(3).description, "3")
    }

    func testRotationAndMirrorBecomeFlips() {
        var s = CameraSettings()
        s.mirror = true
        XCTAssertEqual(s.flips, Flips(horizontal: true, vertical: false))
        s.rotation = 180
        XCTAssertEqual(s.flips, Flips(horizontal: false, vertical: true))   // a turn, then a mirror: top-bottom only
        s.mirror = false
        XCTAssertEqual(s.flips, Flips(horizontal: true, vertical: true))
        // What copying must still do after the camera did part of it.
        XCTAssertEqual(s.flips.remaining(after: Flips(horizontal: true, vertical: true)), .none)
        XCTAssertEqual(s.flips.remaining(after: .none), s.flips)
        XCTAssertEqual(s.flips.remaining(after: Flips(horizontal: true)), Flips(vertical: true))
    }

    // MARK: - messages

    func testMessagesNameTheCameraAndWhatExists() {
        let busy = CameraError.busy(camera: "0: platform/vimc.0 Sensor B", holders: ["/dev/media0 (VIMC MDEV) is held by 'nodwire' (pid 7)"])
        XCTAssertTrue(busy.description.contains("platform/vimc.0 Sensor B"))
        XCTAssertTrue(busy.description.contains("held by 'nodwire' (pid 7)"))
        XCTAssertTrue(busy.description.contains("in use by another program"))
        XCTAssertEqual(busy.exitCode, 75)
        let missing = CameraError.notFound(.id("imx999"), available: ["0: platform/vimc.0 Sensor B"])
        XCTAssertTrue(missing.description.contains("'imx999'"))
        XCTAssertTrue(missing.description.contains("0: platform/vimc.0 Sensor B"))
        XCTAssertTrue(CameraError.notFound(.index(2), available: []).description.contains("no cameras"))
        XCTAssertTrue(CameraError.disconnected(camera: "1: usb").description.contains("1: usb was disconnected"))
        XCTAssertTrue(CameraError.stalled(camera: "0: x", seconds: 2).description.contains("no frame for 2 s"))
        XCTAssertEqual(CameraError.noCameras.exitCode, 69)
    }

    func testFindByIndexOrIdListsTheCamerasOnFailure() throws {
        let cams = [description(0, "platform/vimc.0 Sensor B", model: "Sensor B"), description(1, "/base/i2c@1/imx708@1a", model: "imx708")]
        XCTAssertEqual(try CameraInventory.find(.index(1), in: cams).id, "/base/i2c@1/imx708@1a")
        XCTAssertEqual(try CameraInventory.find(.id("platform/vimc.0 Sensor B"), in: cams).index, 0)
        XCTAssertThrowsError(try CameraInventory.find(.index(2), in: cams)) { error in
            XCTAssertEqual(error as? CameraError, .notFound(.index(2), available: ["0: platform/vimc.0 Sensor B", "1: /base/i2c@1/imx708@1a"]))
        }
        XCTAssertThrowsError(try CameraInventory.find(.index(0), in: [])) { XCTAssertEqual($0 as? CameraError, .noCameras) }
    }

    private func description(_ index: Int, _ id: String, model: String?) -> CameraDescription {
        CameraDescription(index: index, id: id, model: model, location: .unknown, mountingRotation: nil, formats: [],
                          defaultSize: nil, defaultFormat: nil, frameRates: nil)
    }

    // MARK: - backoff and the reopen loop

    func testBackoffDoublesUpToTheMaximum() {
        let b = BackoffSchedule(first: 0.5, factor: 2, maximum: 5)
        XCTAssertEqual((0...6).map { b.delay(afterFailures: $0) }, [0, 0.5, 1, 2, 4, 5, 5])
        XCTAssertEqual(b.delay(afterFailures: 100_000), 5)                        // no overflow to inf/NaN
        XCTAssertEqual(BackoffSchedule(first: 1, factor: 0.5, maximum: 9).delay(afterFailures: 4), 1)  // never shrinks
    }

    /// A camera that fails when told to: stands in for CameraCapture to drive CameraKeeper's state machine.
    final class ScriptedCamera: LumaCamera {
        var failure: CameraError?
        var frames = 0
        var counters: CameraCounters { CameraCounters(captured: frames, delivered: frames) }
        func next(into frame: inout LumaFrame, timeout: Double) throws(CameraError) {
            if let failure { throw failure }
            frames += 1
            frame.index = frames
        }
    }

    func testKeeperWaitsPerScheduleAndReopens() {
        var now = 100.0
        var opens = 0
        var openFailure: CameraError? = .busy(camera: "0: cam", holders: [])
        let camera = ScriptedCamera()
        var keeper = CameraKeeper<ScriptedCamera>(schedule: BackoffSchedule(first: 1, factor: 2, maximum: 8), clock: { now }) { () throws(CameraError) in
            opens += 1
            if let openFailure { throw openFailure }
            return camera
        }
        var frame = LumaFrame(width: 2, height: 2)
        XCTAssertEqual(keeper.state, .idle)
        XCTAssertEqual(keeper.retryIn, 0)

        // Busy: wait 1 s, then 2 s; no try before it is due.
        XCTAssertFalse(keeper.next(into: &frame))
        XCTAssertEqual(keeper.state, .waiting(failures: 1, retryAt: 101, error: .busy(camera: "0: cam", holders: [])))
        now = 100.9
        XCTAssertFalse(keeper.next(into: &frame))
        XCTAssertEqual(opens, 1)
        XCTAssertEqual(keeper.retryIn ?? -1, 0.1, accuracy: 1e-9)
        now = 101
        XCTAssertFalse(keeper.next(into: &frame))
        XCTAssertEqual(opens, 2)
        XCTAssertEqual(keeper.state, .waiting(failures: 2, retryAt: 103, error: .busy(camera: "0: cam", holders: [])))

        // Free again: frames flow.
        openFailure = nil
        now = 103
        XCTAssertTrue(keeper.next(into: &frame))
        XCTAssertEqual(keeper.state, .open)
        XCTAssertNil(keeper.retryIn)
        XCTAssertEqual(frame.index, 1)
        XCTAssertTrue(keeper.next(into: &frame))
        XCTAssertEqual(opens, 3)   // stays open

        // Unplugged: closed, and the wait starts over at the shortest (a frame was delivered since).
        camera.failure = .disconnected(camera: "0: cam")
        now = 200
        XCTAssertFalse(keeper.next(into: &frame))
        XCTAssertNil(keeper.camera)
        XCTAssertEqual(keeper.state, .waiting(failures: 1, retryAt: 201, error: .disconnected(camera: "0: cam")))
    }

    // MARK: - a real camera (NODWIRE_HW=1, inside the VM: vimc)

    /// Skips without NODWIRE_HW=1; fails (not skips) when NODWIRE_HW=1 but no camera is there.
    private func hardwareCameras() throws -> [CameraDescription] {
        guard ProcessInfo.processInfo.environment["NODWIRE_HW"] == "1" else {
            throw XCTSkip("needs a camera: set NODWIRE_HW=1 inside the hardware/vm guest (hardware/ci-hil.sh)")
        }
        setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0)
        let cameras = try CameraInventory.list()
        XCTAssertFalse(cameras.isEmpty, "NODWIRE_HW=1 but libcamera sees no camera (is vimc loaded and the udev data written?)")
        return cameras
    }

    func testHardwareListsTheCameraWithReadableFormats() throws {
        let cams = try hardwareCameras()
        let c = try XCTUnwrap(cams.first)
        XCTAssertEqual(c.index, 0)
        XCTAssertFalse(c.id.isEmpty)
        XCTAssertTrue(c.formats.contains { $0.readable }, "formats: \(c.formats.map(\.name))")
        for f in c.formats { XCTAssertLessThanOrEqual(f.minimum.width, f.maximum.width) }
        XCTAssertTrue(CameraInventory.libraryVersion.hasPrefix("libcamera v"))
    }

    func testHardwareCapturesNewestFramesWithConsistentCounters() throws {
        _ = try hardwareCameras()
        let cam = try CameraCapture(settings: CameraSettings())
        XCTAssertTrue(cam.stream.width > 0 && cam.stream.height > 0)
        XCTAssertGreaterThanOrEqual(cam.stream.stride, cam.stream.width)
        var frame = cam.makeFrame()
        var last = (index: -1, time: -1.0)
        for _ in 0..<4 {
            try cam.next(into: &frame, timeout: 5)
            XCTAssertEqual([frame.width, frame.height], [cam.stream.width, cam.stream.height])
            XCTAssertGreaterThan(frame.index, last.index)
            XCTAssertGreaterThan(frame.time, last.time)
            last = (frame.index, frame.time)
        }
        XCTAssertEqual(frame.pixels.min() == frame.pixels.max(), false, "the test pattern is not one flat grey")
        // Take nothing while the camera delivers a few frames: they replace each other (counted as dropped),
        // and the next one handed out is the newest, not the oldest of a queue. (Polls the counters: vimc
        // under emulation runs at 1-25 fps depending on the libcamera version.)
        let before = cam.counters
        let deadline = Date().addingTimeInterval(20)
        while cam.counters.captured - before.captured < 3, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let paused = cam.counters.captured - before.captured
        XCTAssertGreaterThanOrEqual(paused, 3, "the camera kept capturing while nobody took frames")
        try cam.next(into: &frame, timeout: 5)
        let after = cam.counters
        XCTAssertGreaterThanOrEqual(after.dropped - before.dropped, paused - 1)
        XCTAssertGreaterThanOrEqual(frame.index - last.index, paused, "the frame after the pause is the newest")
        XCTAssertEqual(after.delivered, 5)
        XCTAssertLessThanOrEqual(after.delivered + after.dropped, after.captured)
        XCTAssertGreaterThanOrEqual(after.delivered + after.dropped + 1, after.captured)
    }

    func testHardwareRotationAndMirrorMatchTheUprightPicture() throws {
        _ = try hardwareCameras()
        func grab(_ change: (inout CameraSettings) -> Void) throws -> LumaFrame {
            var s = CameraSettings()
            change(&s)
            let cam = try CameraCapture(settings: s)
            var frame = cam.makeFrame()
            for _ in 0..<2 { try cam.next(into: &frame, timeout: 5) }   // the first may still be settling
            return frame
        }
        let upright = try grab { _ in }
        let turned = try grab { $0.rotation = 180 }
        let mirrored = try grab { $0.mirror = true }
        let (w, h) = (upright.width, upright.height)
        // vimc draws a changing overlay (a frame counter) in the middle rows; its colour bars in the lower
        // half are steady, so compare only pixels whose source is there.
        func matches(_ f: LumaFrame, _ map: (Int, Int) -> (Int, Int)) -> Bool {
            var compared = 0
            for y in stride(from: 0, to: h, by: 3) {
                for x in stride(from: 0, to: w, by: 3) {
                    let (sx, sy) = map(x, y)
                    guard sy >= h / 2 else { continue }
                    if f[x, y] != upright[sx, sy] { return false }
                    compared += 1
                }
            }
            return compared > 1000
        }
        XCTAssertFalse(matches(mirrored) { x, y in (x, y) }, "the pattern must not be left-right symmetric for this test")
        XCTAssertTrue(matches(mirrored) { x, y in (w - 1 - x, y) }, "mirror = left-right flip of the upright picture")
        XCTAssertTrue(matches(turned) { x, y in (w - 1 - x, h - 1 - y) }, "rotation 180 = both flips")
    }

    func testHardwareSecondOpenIsBusyAndUnknownCameraListsWhatExists() throws {
        let cams = try hardwareCameras()
        let first = try CameraCapture(settings: CameraSettings())
        XCTAssertThrowsError(try CameraCapture(settings: CameraSettings())) { error in
            guard case let .busy(camera, _) = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertEqual(camera, cams[0].label)
        }
        withExtendedLifetime(first) {}
        var other = CameraSettings()
        other.camera = .id("no-such-camera")
        XCTAssertThrowsError(try CameraCapture(settings: other)) { error in
            XCTAssertEqual(error as? CameraError, .notFound(.id("no-such-camera"), available: cams.map(\.label)))
        }
    }

    func testHardwareKeeperOpensTheRealCamera() throws {
        _ = try hardwareCameras()
        var keeper = CameraKeeper { () throws(CameraError) in try CameraCapture(settings: CameraSettings()) }
        var frame = LumaFrame(width: 1, height: 1)
        XCTAssertTrue(keeper.next(into: &frame, timeout: 5), "state: \(keeper.state)")
        XCTAssertEqual(keeper.state, .open)
        XCTAssertGreaterThan(frame.width, 1)
    }
}
