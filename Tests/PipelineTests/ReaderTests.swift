import Foundation
import XCTest
@testable import Pipeline

/// Self-contained tests of the Y4M/PGM readers and the Y4M writer: every input is built here.
final class ReaderTests: XCTestCase {

    // MARK: helpers

    /// A Y4M stream: `header` (without the line end) then each frame as FRAME\n + bytes.
    private func y4m(_ header: String, _ frames: [[UInt8]]) -> [UInt8] {
        var out = Array((header + "\n").utf8)
        for f in frames { out += Array("FRAME\n".utf8) + f }
        return out
    }

    private func ramp(_ count: Int, start: Int) -> [UInt8] {
        (0..<count).map { UInt8((start + $0) & 0xFF) }
    }

    private func readAll<S: FrameSource>(_ source: inout S) throws -> [LumaFrame] {
        var frames: [LumaFrame] = []
        var frame = source.makeFrame()
        while try source.next(into: &frame) { frames.append(frame) }
        return frames
    }

    /// Runs `body`, expecting a FrameSourceError; returns it.
    private func expectError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> FrameSourceError? {
        do {
            try body()
            XCTFail("expected an error", file: file, line: line)
        } catch let e as FrameSourceError {
            return e
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    private static let tempDir = NSTemporaryDirectory() + "nodwire-reader-tests-\(getpid())"

    /// The test files (a big clip among them) go when the tests are done, not into /tmp for good.
    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: tempDir)
        super.tearDown()
    }

    private func tempPath(_ name: String) -> String {
        try? FileManager.default.createDirectory(atPath: Self.tempDir, withIntermediateDirectories: true)
        return Self.tempDir + "/" + name
    }

    private func writeFile(_ path: String, _ bytes: [UInt8]) {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    // MARK: Y4M reading

    func testCmonoFramesContentAndTimes() throws {
        let f0 = ramp(12, start: 0), f1 = ramp(12, start: 100)
        var r = try Y4MReader(bytes: y4m("YUV4MPEG2 W4 H3 F25:1 Ip A1:1 Cmono", [f0, f1]), name: "mono.y4m")
        XCTAssertEqual(r.width, 4)
        XCTAssertEqual(r.height, 3)
        XCTAssertEqual(r.frameRate, 25)
        XCTAssertEqual(r.colourSpace, "Cmono")
        XCTAssertEqual(r.name, "mono.y4m")
        let frames = try readAll(&r)
        XCTAssertEqual(frames.count, 2)
        XCTAssertEqual(frames[0].pixels, f0)
        XCTAssertEqual(frames[1].pixels, f1)
        XCTAssertEqual(frames[1][3, 2], 111)
        XCTAssertEqual(frames.map(\.index), [0, 1])
        XCTAssertEqual(frames[1].time, 0.04, accuracy: 1e-12)
    }

    func testC420SkipsChromaAndUsesRationalRate() throws {
        // 5x3 picture: chroma planes are ceil(5/2) x ceil(3/2) = 3x2 each, 12 bytes in all.
        let chroma = [UInt8](repeating: 0xEE, count: 12)
        let lumas = (0..<4).map { ramp(15, start: $0 * 20) }
        var r = try Y4MReader(bytes: y4m("YUV4MPEG2 W5 H3 F30000:1001 It A10:11 C420jpeg XYSCSS=420JPEG",
                                         lumas.map { $0 + chroma }), name: "c420.y4m")
        XCTAssertEqual(r.chromaBytesPerFrame, 12)
        XCTAssertEqual(r.bytesPerFrame, 27)
        XCTAssertEqual(r.frameRate, 30000.0 / 1001.0, accuracy: 1e-12)
        XCTAssertEqual(r.interlacing, "t")
        let frames = try readAll(&r)
        XCTAssertEqual(frames.map(\.pixels), lumas)
        for (i, f) in frames.enumerated() {
            XCTAssertEqual(f.index, i)
            XCTAssertEqual(f.time, Double(i) * 1001.0 / 30000.0, accuracy: 1e-12)
            XCTAssertEqual(f.time, Double(i) / r.frameRate, accuracy: 1e-9)
        }
    }

    func testDefaultColourSpaceIsC420AndOtherLayouts() throws {
        let luma = ramp(4, start: 1)
        // No C tag: C420, 2x2 -> 1x1 chroma planes.
        var a = try Y4MReader(bytes: y4m("YUV4MPEG2 W2 H2 F1:1", [luma + [9, 9], luma + [8, 8]]), name: "a")
        XCTAssertEqual(a.colourSpace, "C420")
        XCTAssertEqual(try readAll(&a).map(\.pixels), [luma, luma])
        for (tag, chroma) in [("C420paldv", 2), ("C420mpeg2", 2), ("C420", 2), ("C422", 4), ("C444", 8)] {
            let pad = [UInt8](repeating: 0xAB, count: chroma)
            var r = try Y4MReader(bytes: y4m("YUV4MPEG2 W2 H2 F1:1 \(tag)", [luma + pad, luma + pad, luma + pad]), name: tag)
            XCTAssertEqual(r.chromaBytesPerFrame, chroma, tag)
            XCTAssertEqual(try readAll(&r).map(\.pixels), [luma, luma, luma], tag)
        }
    }

    func testFrameParametersAndRepeatedSpacesAreTolerated() throws {
        var bytes = Array("YUV4MPEG2  W2 H1  F5:1 Cmono\nFRAME Ixyz\n".utf8) + [1, 2]
        bytes += Array("FRAME\n".utf8) + [3, 4]
        var r = try Y4MReader(bytes: bytes, name: "p")
        XCTAssertEqual(try readAll(&r).map(\.pixels), [[1, 2], [3, 4]])
    }

    func testReusesBufferHonoursStrideAndResizes() throws {
        let f0 = ramp(6, start: 10), f1 = ramp(6, start: 50)
        var r = try Y4MReader(bytes: y4m("YUV4MPEG2 W3 H2 F10:1 Cmono", [f0, f1]), name: "s")
        // A strided frame of the right size is filled in place, row by row.
        var frame = LumaFrame(width: 3, height: 2, stride: 5, pixels: [UInt8](repeating: 0xFF, count: 10))
        let base0 = frame.pixels.withUnsafeBufferPointer { $0.baseAddress }
        XCTAssertTrue(try r.next(into: &frame))
        XCTAssertEqual(frame.pixels, [10, 11, 12, 0xFF, 0xFF, 13, 14, 15, 0xFF, 0xFF])
        XCTAssertEqual(frame[2, 1], 15)
        XCTAssertTrue(try r.next(into: &frame))
        XCTAssertEqual(frame[0, 1], 53)
        XCTAssertEqual(frame.pixels.withUnsafeBufferPointer { $0.baseAddress }, base0, "buffer must be reused")
        // A wrong-sized frame is replaced by a right-sized one.
        var r2 = try Y4MReader(bytes: y4m("YUV4MPEG2 W3 H2 F10:1 Cmono", [f0]), name: "s2")
        var small = LumaFrame(width: 1, height: 1)
        XCTAssertTrue(try r2.next(into: &small))
        XCTAssertEqual(small.width, 3)
        XCTAssertEqual(small.height, 2)
        XCTAssertEqual(small.stride, 3)
        XCTAssertEqual(small.pixels, f0)
    }

    func testCleanEndOfFileAndEmptyStream() throws {
        var r = try Y4MReader(bytes: y4m("YUV4MPEG2 W1 H1 F1:1 Cmono", []), name: "empty.y4m")
        var frame = r.makeFrame()
        XCTAssertFalse(try r.next(into: &frame))
        XCTAssertFalse(try r.next(into: &frame))
        var r2 = try Y4MReader(bytes: y4m("YUV4MPEG2 W1 H1 F1:1 Cmono", [[7]]), name: "one.y4m")
        XCTAssertTrue(try r2.next(into: &frame))
        XCTAssertFalse(try r2.next(into: &frame))
        XCTAssertFalse(try r2.next(into: &frame))
    }

    func testTruncatedFrameNamesTheFrame() throws {
        let luma = ramp(12, start: 0), chroma = [UInt8](repeating: 0, count: 8)
        var bytes = y4m("YUV4MPEG2 W4 H3 F25:1 C420", [luma + chroma, luma + chroma])
        bytes += Array("FRAME\n".utf8) + luma.prefix(5)
        var r = try Y4MReader(bytes: bytes, name: "clip.y4m")
        var frame = r.makeFrame()
        XCTAssertTrue(try r.next(into: &frame))
        XCTAssertTrue(try r.next(into: &frame))
        let e = expectError { _ = try r.next(into: &frame) }
        XCTAssertEqual(e, .truncatedFrame(path: "clip.y4m", frame: 2, expectedBytes: 20, gotBytes: 5))
        XCTAssertEqual(e?.description, "clip.y4m: frame 2 is truncated: expected 20 bytes of picture, found 5 "
                       + "(the file ends early; was the recording cut off?)")
        XCTAssertFalse(try r.next(into: &frame), "a failed reader stays finished")

        // Luma complete but chroma cut.
        var r2 = try Y4MReader(bytes: y4m("YUV4MPEG2 W4 H3 F25:1 C420", [luma + chroma.prefix(3)]), name: "c.y4m")
        XCTAssertEqual(expectError { _ = try r2.next(into: &frame) },
                       .truncatedFrame(path: "c.y4m", frame: 0, expectedBytes: 20, gotBytes: 15))
        // Cut inside the FRAME line.
        var r3 = try Y4MReader(bytes: Array("YUV4MPEG2 W4 H3 F25:1 Cmono\nFRA".utf8), name: "m.y4m")
        XCTAssertEqual(expectError { _ = try r3.next(into: &frame) },
                       .truncatedFrame(path: "m.y4m", frame: 0, expectedBytes: 12, gotBytes: 0))
    }

    func testGarbledFrameMarker() throws {
        let luma = ramp(4, start: 0)
        var bytes = y4m("YUV4MPEG2 W2 H2 F25:1 Cmono", [luma])
        bytes += Array("FRAMX\n".utf8) + luma
        var r = try Y4MReader(bytes: bytes, name: "g.y4m")
        var frame = r.makeFrame()
        XCTAssertTrue(try r.next(into: &frame))
        let e = expectError { _ = try r.next(into: &frame) }
        guard case .badFrameMarker(let path, let index, let found)? = e else { return XCTFail("got \(String(describing: e))") }
        XCTAssertEqual(path, "g.y4m")
        XCTAssertEqual(index, 1)
        XCTAssertTrue(found.hasPrefix("FRAMX\\n"), found)
        XCTAssertTrue(e!.description.contains("frame 1"), e!.description)

        // Header says Cmono but the data has chroma: the next marker lands in the chroma.
        var r2 = try Y4MReader(bytes: y4m("YUV4MPEG2 W2 H2 F25:1 Cmono", [luma + [0x80, 0x80], luma]), name: "h.y4m")
        XCTAssertTrue(try r2.next(into: &frame))
        let e2 = expectError { _ = try r2.next(into: &frame) }
        XCTAssertEqual(e2, .badFrameMarker(path: "h.y4m", frame: 1, found: "\\x80"  + "\\x80" + "FRAME\\n\\x00\\x01\\x02\\x03"))
        // FRAME followed by something other than a space or line end; an endless parameter line.
        var r3 = try Y4MReader(bytes: Array("YUV4MPEG2 W2 H2 F25:1 Cmono\nFRAMEX\n".utf8), name: "x")
        guard case .badFrameMarker(_, 0, _)? = expectError({ _ = try r3.next(into: &frame) }) else { return XCTFail() }
        var r4 = try Y4MReader(bytes: Array("YUV4MPEG2 W2 H2 F25:1 Cmono\nFRAME ".utf8) + [UInt8](repeating: 0x41, count: 2000),
                               name: "y")
        guard case .badFrameMarker(_, 0, _)? = expectError({ _ = try r4.next(into: &frame) }) else { return XCTFail() }
    }

    func testNotY4MAndBadHeaders() {
        func open(_ text: String) -> FrameSourceError? {
            expectError { _ = try Y4MReader(bytes: Array(text.utf8), name: "bad.y4m") }
        }
        XCTAssertEqual(open(""), .notY4M(path: "bad.y4m"))
        XCTAssertEqual(open("P5\n2 2\n255\n"), .notY4M(path: "bad.y4m"))
        XCTAssertEqual(open("YUV4MPEG"), .notY4M(path: "bad.y4m"))
        XCTAssertTrue(open("YUV4MPEG2 W2 H2 F25:1")!.description.contains("ends inside the header"))
        XCTAssertTrue(open("YUV4MPEG2X W2 H2 F25:1\n")!.description.contains("followed by a space"))
        let cases: [(String, String)] = [
            ("YUV4MPEG2 Wabc H2 F25:1\n", "width tag \"Wabc\""),
            ("YUV4MPEG2 W H2 F25:1\n", "width tag"),
            ("YUV4MPEG2 W-2 H2 F25:1\n", "width tag"),
            ("YUV4MPEG2 W2 H2x F25:1\n", "height tag"),
            ("YUV4MPEG2 H2 F25:1\n", "no width tag"),
            ("YUV4MPEG2 W2 F25:1\n", "no height tag"),
            ("YUV4MPEG2 W2 H2 F25\n", "F<numerator>:<denominator>"),
            ("YUV4MPEG2 W2 H2 F25:\n", "F<numerator>:<denominator>"),
            ("YUV4MPEG2 W2 H2 F25:1:1\n", "F<numerator>:<denominator>"),
            ("YUV4MPEG2 W2 H2 F25:0\n", "frame rate 25:0 is not allowed"),
            ("YUV4MPEG2 W2 H2 F0:1\n", "frame rate 0:1 is not allowed"),
            ("YUV4MPEG2 W2 H2 F99999999999:1\n", "F<numerator>:<denominator>"),
            ("YUV4MPEG2 W2 H2 F25:1 Q7\n", "unknown tag \"Q7\""),
            ("YUV4MPEG2 W2 H2 F25:1 " + String(repeating: "X", count: 5000) + "\n", "longer than 4096"),
        ]
        for (text, expected) in cases {
            let e = open(text)
            guard case .badHeader(let path, let detail)? = e else { XCTFail("\(text): got \(String(describing: e))"); continue }
            XCTAssertEqual(path, "bad.y4m")
            XCTAssertTrue(detail.contains(expected), "\(text): \(detail)")
        }
    }

    func testMissingFrameRateIsRejectedClearly() {
        let e = expectError { _ = try Y4MReader(bytes: Array("YUV4MPEG2 W2 H2 Cmono\n".utf8), name: "nof.y4m") }
        XCTAssertEqual(e, .badHeader(path: "nof.y4m", detail: "there is no frame rate tag (F, e.g. F25:1 or F30000:1001); frame times depend on it"))
        XCTAssertTrue(e!.description.hasPrefix("nof.y4m: the Y4M header is malformed: there is no frame rate tag"))
    }

    func testUnsupportedColourSpaceListsAllowed() {
        let e = expectError { _ = try Y4MReader(bytes: Array("YUV4MPEG2 W2 H2 F25:1 C420p10\n".utf8), name: "deep.y4m") }
        XCTAssertEqual(e, .unsupportedColourSpace(path: "deep.y4m", found: "C420p10", allowed: Y4MReader.supportedColourSpaces))
        let text = e!.description
        XCTAssertTrue(text.contains("'C420p10'"), text)
        XCTAssertTrue(text.contains("Cmono, C420jpeg, C420paldv, C420mpeg2, C420, C422, C444"), text)
    }

    func testHugeOrZeroSizeIsRejectedBeforeAllocating() {
        func size(_ w: String, _ h: String) -> FrameSourceError? {
            expectError { _ = try Y4MReader(bytes: Array("YUV4MPEG2 W\(w) H\(h) F25:1 Cmono\nFRAME\n".utf8), name: "big.y4m") }
        }
        XCTAssertEqual(size("20000", "10"), .unsupportedSize(path: "big.y4m", width: 20000, height: 10, maxSide: 16384, maxPixels: 67_108_864))
        XCTAssertEqual(size("16384", "16384"), .unsupportedSize(path: "big.y4m", width: 16384, height: 16384, maxSide: 16384, maxPixels: 67_108_864))
        XCTAssertEqual(size("0", "10"), .unsupportedSize(path: "big.y4m", width: 0, height: 10, maxSide: 16384, maxPixels: 67_108_864))
        guard case .unsupportedSize(_, Int.max, 2, _, _)? = size("99999999999999999999999999", "2") else { return XCTFail() }
        // Largest accepted size with a tiny body: truncation is reported without allocating 64 MB.
        var r = try? Y4MReader(bytes: Array("YUV4MPEG2 W16384 H4096 F25:1 Cmono\nFRAME\n".utf8) + [1, 2, 3], name: "big.y4m")
        XCTAssertNotNil(r)
        var frame = LumaFrame(width: 1, height: 1)
        XCTAssertEqual(expectError { _ = try r!.next(into: &frame) },
                       .truncatedFrame(path: "big.y4m", frame: 0, expectedBytes: 16384 * 4096, gotBytes: 3))
        XCTAssertEqual(frame.width, 1, "no frame allocated for a truncated in-memory frame")
    }

    func testReadsFromFileAcrossBufferBoundaries() throws {
        // 320x240 C420: 115200 bytes per frame, larger than the 64 KiB read-ahead, odd-sized FRAME lines.
        let w = 320, h = 240
        var bytes = Array("YUV4MPEG2 W\(w) H\(h) F30000:1001 Ip A1:1 C420mpeg2\n".utf8)
        var lumas: [[UInt8]] = []
        for i in 0..<5 {
            let luma = (0..<(w * h)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i &* 13) }
            lumas.append(luma)
            bytes += Array((i % 2 == 0 ? "FRAME\n" : "FRAME Ip XFOO=\(i)\n").utf8) + luma
            bytes += [UInt8](repeating: UInt8(0x80 + i), count: w * h / 2)
        }
        let path = tempPath("big420.y4m")
        writeFile(path, bytes)
        var r = try Y4MReader(path: path)
        XCTAssertEqual(r.name, path)
        let frames = try readAll(&r)
        XCTAssertEqual(frames.count, 5)
        XCTAssertTrue(frames.map(\.pixels) == lumas)
        XCTAssertEqual(frames[4].time, 4 * 1001.0 / 30000.0, accuracy: 1e-12)

        // The same file cut in the middle of the last frame's chroma.
        let cutPath = tempPath("cut420.y4m")
        writeFile(cutPath, Array(bytes.dropLast(1000)))
        var cut = try Y4MReader(path: cutPath)
        var frame = cut.makeFrame()
        for _ in 0..<4 { XCTAssertTrue(try cut.next(into: &frame)) }
        XCTAssertEqual(expectError { _ = try cut.next(into: &frame) },
                       .truncatedFrame(path: cutPath, frame: 4, expectedBytes: w * h * 3 / 2, gotBytes: w * h * 3 / 2 - 1000))
    }

    func testCannotOpen() {
        let e = expectError { _ = try Y4MReader(path: "/nonexistent/dir/clip.y4m") }
        XCTAssertEqual(e, .cannotOpen(path: "/nonexistent/dir/clip.y4m", reason: "No such file or directory"))
        XCTAssertEqual(e?.description, "/nonexistent/dir/clip.y4m: cannot open the file (No such file or directory)")
        guard case .cannotOpen(_, "it is a directory")? = expectError({ _ = try Y4MReader(path: NSTemporaryDirectory()) }) else {
            return XCTFail()
        }
    }

    // MARK: PGM

    func testPGMP5WithComments() throws {
        let bytes = Array("P5\n# made by a test\n3 # width\n2\n# maxval next\n255\n".utf8) + [0, 1, 2, 253, 254, 255]
        let img = try PGMReader.decode(bytes: bytes, name: "a.pgm")
        XCTAssertEqual(img.width, 3)
        XCTAssertEqual(img.height, 2)
        XCTAssertEqual(img.stride, 3)
        XCTAssertEqual(img.pixels, [0, 1, 2, 253, 254, 255])
        // A whitespace byte as the first pixel value must not be eaten as a separator.
        let tricky = try PGMReader.decode(bytes: Array("P5 2 1 255\n".utf8) + [0x0A, 0x20], name: "t.pgm")
        XCTAssertEqual(tricky.pixels, [0x0A, 0x20])
    }

    func testPGMP2WithComments() throws {
        let text = "P2\n# ascii\n4 2\n255\n0 10 20 30\n# row 2\n40\t50 \r\n 60 255\n"
        let img = try PGMReader.decode(bytes: Array(text.utf8), name: "b.pgm")
        XCTAssertEqual(img.pixels, [0, 10, 20, 30, 40, 50, 60, 255])
        XCTAssertEqual(img[3, 1], 255)
    }

    func testPGMMaxval15IsScaled() throws {
        let p5 = try PGMReader.decode(bytes: Array("P5 4 1 15\n".utf8) + [0, 1, 8, 15], name: "s.pgm")
        XCTAssertEqual(p5.pixels, [0, 17, 136, 255])
        let p2 = try PGMReader.decode(bytes: Array("P2 4 1 15 0 1 8 15".utf8), name: "s2.pgm")
        XCTAssertEqual(p2.pixels, [0, 17, 136, 255])
        let one = try PGMReader.decode(bytes: Array("P5 2 1 1\n".utf8) + [0, 1], name: "b.pgm")
        XCTAssertEqual(one.pixels, [0, 255])
        let e = expectError { _ = try PGMReader.decode(bytes: Array("P5 2 1 15\n".utf8) + [3, 16], name: "o.pgm") }
        XCTAssertEqual(e, .badPGM(path: "o.pgm", detail: "pixel (1, 0) has value 16, above the maxval 15"))
    }

    func testPGM16BitRejected() {
        let e = expectError { _ = try PGMReader.decode(bytes: Array("P5 2 1 65535\n".utf8) + [0, 0, 1, 1], name: "deep.pgm") }
        XCTAssertEqual(e, .unsupportedDepth(path: "deep.pgm", maxval: 65535))
        XCTAssertTrue(e!.description.contains("only 8-bit"), e!.description)
        guard case .badPGM? = expectError({ _ = try PGMReader.decode(bytes: Array("P5 2 1 70000\n".utf8), name: "x") }) else {
            return XCTFail()
        }
        XCTAssertEqual(expectError { _ = try PGMReader.decode(bytes: Array("P2 2 1 0 0 0".utf8), name: "z.pgm") },
                       .badPGM(path: "z.pgm", detail: "maxval is 0; it must be 1...255"))
    }

    func testPGMTruncatedAndMalformed() {
        func decode(_ bytes: [UInt8]) -> FrameSourceError? {
            expectError { _ = try PGMReader.decode(bytes: bytes, name: "t.pgm") }
        }
        XCTAssertEqual(decode(Array("P5 4 4 255\n".utf8) + [1, 2, 3]), .truncatedPGM(path: "t.pgm", expectedPixels: 16, gotPixels: 3))
        XCTAssertEqual(decode(Array("P5 4 4 255".utf8)), .truncatedPGM(path: "t.pgm", expectedPixels: 16, gotPixels: 0))
        XCTAssertEqual(decode(Array("P2 3 2 255 1 2 3 4".utf8)), .truncatedPGM(path: "t.pgm", expectedPixels: 6, gotPixels: 4))
        XCTAssertEqual(decode(Array("P2 8000 8000 255 1 2".utf8)), .truncatedPGM(path: "t.pgm", expectedPixels: 64_000_000, gotPixels: 2))
        XCTAssertEqual(decode(Array("P5 4".utf8)), .badPGM(path: "t.pgm", detail: "the header ends before the height"))
        XCTAssertEqual(decode([]), .badPGM(path: "t.pgm", detail: "it does not start with P5 or P2 (found \"\")"))
        XCTAssertEqual(decode(Array("P6 1 1 255\n".utf8) + [0, 0, 0]),
                       .badPGM(path: "t.pgm", detail: "it is a colour PPM (P6), not a greyscale PGM"))
        XCTAssertEqual(decode(Array("P5 4x4 255\n".utf8)),
                       .badPGM(path: "t.pgm", detail: "the width must be followed by whitespace, found \"x4 255\\n\""))
        XCTAssertEqual(decode(Array("P2 2 1 255 7 x".utf8)),
                       .badPGM(path: "t.pgm", detail: "pixel (1, 0) is not a number: found \"x\""))
        XCTAssertEqual(decode(Array("P2 2 1 255 7 300".utf8)),
                       .badPGM(path: "t.pgm", detail: "pixel (1, 0) has value 300, above the maxval 255"))
        guard case .unsupportedSize(_, 20000, 1, _, _)? = decode(Array("P5 20000 1 255\n".utf8)) else { return XCTFail() }
        XCTAssertTrue(decode(Array("P5 4 4 255\n".utf8))!.description.hasPrefix("t.pgm: PGM image is truncated: expected 16 pixels, found 0"))
    }

    func testPGMFromFileAndStillSource() throws {
        let path = tempPath("still.pgm")
        writeFile(path, Array("P5\n2 2\n255\n".utf8) + [5, 6, 7, 8])
        let img = try PGMReader.read(path: path)
        XCTAssertEqual(img.pixels, [5, 6, 7, 8])
        var still = try StillSource(pgmPath: path)
        XCTAssertEqual(still.frameRate, 1)
        XCTAssertEqual(still.name, path)
        let frames = try readAll(&still)
        XCTAssertEqual(frames.count, 1)
        XCTAssertEqual(frames[0].pixels, [5, 6, 7, 8])
        XCTAssertEqual(frames[0].index, 0)
        XCTAssertEqual(expectError { _ = try PGMReader.read(path: path + ".missing") },
                       .cannotOpen(path: path + ".missing", reason: "No such file or directory"))
    }

    // MARK: writer

    func testWriterRoundTrip() throws {
        let path = tempPath("rec.y4m")
        var writer = try Y4MWriter(path: path, width: 3, height: 2, frameRate: 30000.0 / 1001.0)
        XCTAssertEqual(writer.frameRateNumerator, 30000)
        XCTAssertEqual(writer.frameRateDenominator, 1001)
        let a = LumaFrame(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let strided = LumaFrame(width: 3, height: 2, stride: 4, pixels: [7, 8, 9, 0xEE, 10, 11, 12])
        try writer.write(a)
        try writer.write(strided)
        try writer.write(a)
        XCTAssertEqual(writer.framesWritten, 3)
        XCTAssertEqual(expectError { try writer.write(LumaFrame(width: 2, height: 2)) },
                       .wrongFrameSize(path: path, expectedWidth: 3, expectedHeight: 2, gotWidth: 2, gotHeight: 2))
        writer.close()
        XCTAssertEqual(expectError { try writer.write(a) }, .writeFailed(path: path, reason: "the writer is closed"))

        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertTrue(String(decoding: data.prefix(48), as: UTF8.self)
            .hasPrefix("YUV4MPEG2 W3 H2 F30000:1001 Ip A1:1 Cmono\nFRAME\n"))
        var reader = try Y4MReader(path: path)
        XCTAssertEqual(reader.colourSpace, "Cmono")
        XCTAssertEqual(reader.frameRateNumerator, 30000)
        let frames = try readAll(&reader)
        XCTAssertEqual(frames.map(\.pixels), [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [1, 2, 3, 4, 5, 6]])
        XCTAssertEqual(frames[2].time, 2 * 1001.0 / 30000.0, accuracy: 1e-12)
    }

    /// A clip whose rate is known only at its end (the frames came at the loop's rate) gets it in place;
    /// the fixed-width field is read by `Y4MReader` (and ffmpeg) as the plain fraction.
    func testWriterSetsTheRateLater() throws {
        let path = tempPath("later.y4m")
        var writer = try Y4MWriter(path: path, width: 2, height: 2, frameRate: 30, rateSetLater: true)
        for v in UInt8(1)...3 { try writer.write(LumaFrame(width: 2, height: 2, pixels: [v, v, v, v])) }
        var early = try Y4MReader(path: path)
        XCTAssertEqual(early.frameRate, 30)
        XCTAssertEqual(try readAll(&early).count, 3)
        try writer.setFrameRate(14.97)
        try writer.write(LumaFrame(width: 2, height: 2, pixels: [4, 4, 4, 4]))
        writer.close()
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertTrue(String(decoding: data.prefix(64), as: UTF8.self).hasPrefix("YUV4MPEG2 W2 H2 F0000001497:0000100 Ip A1:1 Cmono\nFRAME\n"))
        var reader = try Y4MReader(path: path)
        XCTAssertEqual(reader.frameRateNumerator, 1497)
        XCTAssertEqual(reader.frameRateDenominator, 100)
        let frames = try readAll(&reader)
        XCTAssertEqual(frames.map { $0.pixels[0] }, [1, 2, 3, 4])
        XCTAssertEqual(frames[3].time, 3 / 14.97, accuracy: 1e-9)
        // A plain header has no room for another rate: a clear error, the file untouched.
        var plain = try Y4MWriter(path: tempPath("plain.y4m"), width: 2, height: 2, frameRate: 25)
        guard case .writeFailed? = expectError({ try plain.setFrameRate(10) }) else { return XCTFail() }
        XCTAssertEqual(plain.frameRate, 25)
    }

    func testWriterRationalRatesAndBadArguments() {
        XCTAssertTrue(Y4MWriter.rational(25)! == (25, 1))
        XCTAssertTrue(Y4MWriter.rational(20.34)! == (2034, 100))
        XCTAssertTrue(Y4MWriter.rational(30000.0 / 1001.0)! == (30000, 1001))
        XCTAssertTrue(Y4MWriter.rational(0.5)! == (5, 10))
        XCTAssertNil(Y4MWriter.rational(0))
        XCTAssertNil(Y4MWriter.rational(-1))
        XCTAssertNil(Y4MWriter.rational(.nan))
        XCTAssertNil(Y4MWriter.rational(.infinity))
        guard case .writeFailed? = expectError({ _ = try Y4MWriter(path: tempPath("x.y4m"), width: 2, height: 2, frameRate: 0) }) else {
            return XCTFail()
        }
        guard case .unsupportedSize? = expectError({ _ = try Y4MWriter(path: tempPath("x.y4m"), width: 0, height: 2, frameRate: 25) }) else {
            return XCTFail()
        }
        guard case .cannotOpen? = expectError({ _ = try Y4MWriter(path: "/nonexistent/x.y4m", width: 2, height: 2, frameRate: 25) }) else {
            return XCTFail()
        }
    }
}
