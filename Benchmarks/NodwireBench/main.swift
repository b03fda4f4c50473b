import Pipeline
import Foundation

// temporary probe
let path = CommandLine.arguments[1]
let data = try! Data(contentsOf: URL(fileURLWithPath: path))
let bytes = [UInt8](data)
var i = bytes.firstIndex(of: 10)!
let header = String(decoding: bytes[0..<i], as: UTF8.self).split(separator: " ")
let w = Int(header.first { $0.hasPrefix("W") }!.dropFirst())!, h = Int(header.first { $0.hasPrefix("H") }!.dropFirst())!
i += 1
var settings = VisionSettings()
settings.modelPath = "Models/shape_predictor_5_face_landmarks.dat"
let model = try! ShapeModel(path: settings.modelPath)
let tracker = try! FaceTracker(settings: settings, model: model)
var n = 0
var costs: [Double] = []
func now() -> Double { var t = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6 }
while i < bytes.count {
    let e = bytes[i...].firstIndex(of: 10)!
    i = e + 1
    let frame = LumaFrame(width: w, height: h, index: n, time: Double(n) / 25, pixels: Array(bytes[i..<(i + w * h)]))
    i += w * h
    let t0 = now()
    let (obs, work) = tracker.process(frame)
    costs.append(now() - t0)
    if let o = obs {
        let r = HeadPoseEstimator.ratios(o.landmarks)
        print(n, String(format: "yaw %6.1f pitch %6.1f along %.3f across %.3f box %.0f,%.0f %.0f ptr %.0f,%.0f", o.pose.yaw, o.pose.pitch, r.along, r.across, o.box.left, o.box.top, o.box.width, o.pose.pointer.x, o.pose.pointer.y), work)
    } else { print(n, "none", work) }
    n += 1
}
costs.sort()
print("median", costs[costs.count / 2], "p99", costs[costs.count * 99 / 100], "max", costs.last!)
do {
    let fitter = LandmarkFitter(model: model)
    let m = model
    print(m)
    let frame = LumaFrame(width: w, height: h, pixels: Array(bytes[(bytes.firstIndex(of: 10)! + 7)..<(bytes.firstIndex(of: 10)! + 7 + w * h)]))
    let b = FaceBox(left: 151, top: 114, right: 264, bottom: 227)
    var t = now()
    for _ in 0..<1000 { _ = fitter.fit(frame, box: b) }
    print("fit ms", (now() - t) / 1000)
    let det = try! FaceDetector()
    t = now()
    for _ in 0..<20 { _ = det.detect(in: frame, slice: DetectionSlice(x: 95, y: 57, width: 226, height: 226, scale: 0.81, levels: 3)) }
    print("recheck ms", (now() - t) / 20)
    t = now()
    for _ in 0..<20 { _ = det.detect(in: frame, slice: DetectionSlice(x: 0, y: 0, width: w, height: h, scale: 1, levels: 0)) }
    print("full ms", (now() - t) / 20)
}
