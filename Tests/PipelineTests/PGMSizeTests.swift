import Foundation
import Pipeline
import XCTest

/// `PGMReader.read(path:)` reads the header first and the picture it gives bounds the file: `faces /dev/zero`
/// used to read 512 MB (all a Pi Zero 2 W has) before refusing.
final class PGMSizeTests: XCTestCase {
    private func file(_ name: String, _ bytes: [UInt8], size: Int? = nil) throws -> String {
        let path = NSTemporaryDirectory() + "pgm-size-\(getpid())-\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if let size { XCTAssertEqual(truncate(path, off_t(size)), 0) }   // sparse: takes no disk
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func refusal(_ path: String) -> FrameSourceError? {
        do { _ = try PGMReader.read(path: path); XCTFail("accepted \(path)"); return nil } catch { return error }
    }

    func testAnEndlessDeviceIsRefusedByItsHeader() {
        XCTAssertEqual(refusal("/dev/zero"), .badPGM(path: "/dev/zero", detail: "it does not start with P5 or P2 (found \"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\")"))
    }

    func testAFileLargerThanItsPictureIsRefusedNamingTheLimit() throws {
        let huge = try file("huge.pgm", Array("P5 4 4 255\n".utf8), size: 1 << 30)
        XCTAssertEqual(refusal(huge), .badPGM(path: huge, detail: "the file is larger than a 4x4 P5 picture takes (27 bytes with its header); a PGM file holds one picture"))
        let trailing = try file("trailing.pgm", Array("P5 2 1 255\n".utf8) + [1, 2, 3])
        XCTAssertEqual(refusal(trailing), .badPGM(path: trailing, detail: "the file is larger than a 2x1 P5 picture takes (13 bytes with its header); a PGM file holds one picture"))
        let ascii = try file("ascii.pgm", Array("P2 2 1 255\n1 2\n".utf8) + [UInt8](repeating: 0x20, count: 100))
        XCTAssertEqual(refusal(ascii), .badPGM(path: ascii, detail: "the file is larger than a 2x1 P2 picture takes (at most 42 bytes with its header); a PGM file holds one picture"))
        let longHeader = try file("comments.pgm", Array("P5\n".utf8) + [UInt8](repeating: 0x23, count: 70_000) + Array("\n4 4 255\n".utf8))
        XCTAssertEqual(refusal(longHeader), .badPGM(path: longHeader, detail: "the header goes on past 65536 bytes without giving the picture size"))
    }

    func testPicturesThatFitStillRead() throws {
        let p5 = try file("p5.pgm", Array("P5\n# a comment\n2 2\n255# and one here\n".utf8) + [5, 6, 7, 8])
        XCTAssertEqual(try PGMReader.read(path: p5).pixels, [5, 6, 7, 8])
        let p2 = try file("p2.pgm", Array("P2\n2 2\n15\n  0  15\n# row 2\n 15   0\n".utf8))
        XCTAssertEqual(try PGMReader.read(path: p2).pixels, [0, 255, 255, 0])
        XCTAssertEqual(refusal(try file("short.pgm", Array("P5 4 4 255\n".utf8) + [1, 2])),
                       .truncatedPGM(path: NSTemporaryDirectory() + "pgm-size-\(getpid())-short.pgm", expectedPixels: 16, gotPixels: 2))
    }
}
