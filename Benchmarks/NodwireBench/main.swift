// The vision core's speed, measured: `swift run -c release NodwireBench [CLIP.y4m ...]`.
//
// For each clip, natively and enlarged to 640x480 (VGA, the camera's size):
//   tracked — Nodwire's pipeline (search in slices, landmarks every frame, re-check every 0.5 s)
//   baseline — dlib's detector on every whole frame, plus the same landmark fit on its box
// Prints CPU ms a frame (median, p99, max), the ratio, the cost of a search from nothing, and heap
// allocations per tracked frame (counted by malloc-interposer, which this executable links).
// NODWIRE_BENCH_SLICES=1 also prints each search slice: its modelled cost (SearchPlan.cost) and measured ms.
// `NodwireBench --budget [PERCENT] [SECONDS]`: the governor holding a CPU budget (BudgetBench.swift).
// `NodwireBench --web [SECONDS]`: what the setup page costs, with and without a viewer (WebBench.swift).
import MallocInterposerSwift
import Foundation
import Pipeline

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("NodwireBench: \(message)\n".utf8))
    exit(1)
}

if let i = CommandLine.arguments.firstIndex(of: "--web") {
    runWebBench(Array(CommandLine.arguments[(i + 1)...]))
    exit(0)
}

if let i = CommandLine.arguments.firstIndex(of: "--budget") {
    runBudgetBench(Array(CommandLine.arguments[(i + 1)...]), modelPath: "Models/shape_predictor_5_face_landmarks.dat")
    exit(0)
}

// Allocation counting needs the interposer loaded before main: re-run ourselves with it preloaded.
if getenv("NODWIRE_BENCH_PRELOADED") == nil {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let dir = exe.split(separator: "/").dropLast().joined(separator: "/")
    setenv("LD_PRELOAD", "/\(dir)/libMallocInterposerSwift.so", 1)
    setenv("NODWIRE_BENCH_PRELOADED", "1", 1)
    var argv = CommandLine.arguments.map { strdup($0) } + [nil]
    execv(exe, &argv)
    fail("cannot re-run \(exe) with the allocation counter preloaded")
}
MallocInterposerSwift.initialize()

let root = CommandLine.arguments.count > 1 ? nil : "."
let clips = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst())
    : [".build-fixtures/clm_look.y4m", ".build-fixtures/ht_sway.y4m"]


func loadFrames(_ path: String) -> [LumaFrame] {
    do {
        var reader = try Y4MReader(path: path)
        var frames: [LumaFrame] = []
        var frame = reader.makeFrame()
        while try reader.next(into: &frame) { frames.append(frame) }
        return frames
    } catch { fail("\(error) (run scripts/setup.sh to unpack the test clips)") }
}

/// Bilinear enlargement to VGA, so the benchmark sees the camera's frame size.
func enlarged(_ frames: [LumaFrame], width: Int = 640, height: Int = 480) -> [LumaFrame] {
    frames.map { f in
        var out = [UInt8](repeating: 0, count: width * height)
        let sx = Double(f.width - 1) / Double(width - 1), sy = Double(f.height - 1) / Double(height - 1)
        for y in 0..<height {
            let fy = Double(y) * sy, y0 = Int(fy), y1 = min(y0 + 1, f.height - 1), wy = fy - Double(y0)
            for x in 0..<width {
                let fx = Double(x) * sx, x0 = Int(fx), x1 = min(x0 + 1, f.width - 1), wx = fx - Double(x0)
                let top = Double(f[x0, y0]) * (1 - wx) + Double(f[x1, y0]) * wx
                let bottom = Double(f[x0, y1]) * (1 - wx) + Double(f[x1, y1]) * wx
                out[y * width + x] = UInt8((top * (1 - wy) + bottom * wy).rounded())
            }
        }
        return LumaFrame(width: width, height: height, index: f.index, time: f.time, pixels: out)
    }
}

func format(_ v: Double?) -> String { v.map { String(format: "%7.3f", $0) } ?? "    n/a" }

func run(_ name: String, _ frames: [LumaFrame], settings: VisionSettings) {
    guard let processor = try? FaceProcessor(settings: settings) else { fail("cannot load \(settings.modelPath)") }
    var tracked = CostSummary(), trackedOnly = CostSummary(), search = CostSummary()
    var mallocs = 0, mallocFrames = 0, faces = 0, searchMallocs = 0, missedRechecks = 0
    var rechecks = CostSummary()
    for frame in frames {
        let wasTracking = processor.tracker.isTracking
        MallocInterposerSwift.hook()
        let before = MallocInterposerSwift.getStatistics().mallocCount
        let result = processor.process(frame)
        let after = MallocInterposerSwift.getStatistics().mallocCount
        MallocInterposerSwift.unhook()
        tracked.add(result.cpuMilliseconds)
        if result.face != nil { faces += 1 }
        switch result.work {
        case .tracked where wasTracking && result.face != nil:
            trackedOnly.add(result.cpuMilliseconds)
            mallocs += after - before
            mallocFrames += 1
        case .trackedAndRechecked(let found):
            rechecks.add(result.cpuMilliseconds)
            if !found { missedRechecks += 1 }
        case .searched:
            search.add(result.cpuMilliseconds)
            searchMallocs = max(searchMallocs, after - before)
        default: break
        }
    }
    // Baseline: the detector on every whole frame, then the landmark fit on its best box.
    guard let detector = try? FaceDetector(), let model = try? ShapeModel(path: settings.modelPath) else { fail("cannot build the baseline") }
    let fitter = LandmarkFitter(model: model)
    var baseline = CostSummary()
    for frame in frames {
        let start = ThreadCPUClock.now()
        let found = detector.detect(in: frame, slice: DetectionSlice(x: 0, y: 0, width: frame.width, height: frame.height, scale: 1, levels: 0))
        if let best = found.max(by: { $0.box.area < $1.box.area }) { _ = fitter.fit(frame, box: best.box) }
        baseline.add((ThreadCPUClock.now() - start) * 1000)
    }
    // Searching in steady state: the tracker forgets the face before each of the first 240 frames, so every
    // frame runs the plan's next slice (the first search above also pays dlib's first-call set-up).
    var slices = CostSummary()
    let plan = SearchPlan.slices(width: frames[0].width, height: frames[0].height, settings: settings)
    if let searcher = try? FaceProcessor(settings: settings) {
        for frame in frames.prefix(240) {
            searcher.tracker.reset(keepingPlanPosition: true)
            slices.add(searcher.process(frame).cpuMilliseconds)
        }
    }
    if getenv("NODWIRE_BENCH_SLICES") != nil, let det = try? FaceDetector() {   // both passes, 30 frames each
        for sl in plan + SearchPlan.slices(width: frames[0].width, height: frames[0].height, settings: settings, halfStep: true) {
            var c = CostSummary()
            for f in frames.prefix(30) { let t0 = ThreadCPUClock.now(); _ = det.detect(in: f, slice: sl); c.add((ThreadCPUClock.now() - t0) * 1000) }
            print(String(format: "    slice %4d %4d %4dx%-4d s%.2f L%d model %6.0f  ms %6.2f", sl.x, sl.y, sl.width, sl.height, sl.scale, sl.levels,
                         SearchPlan.cost(width: sl.width, height: sl.height, scale: sl.scale, levels: sl.levels), c.median ?? 0))
        }
    }
    let w = frames.first?.width ?? 0, h = frames.first?.height ?? 0
    print("\(name) \(w)x\(h), \(frames.count) frames, face in \(faces)")
    print("  tracked pipeline  CPU ms/frame: median \(format(tracked.median))  p99 \(format(tracked.percentile(0.99)))  max \(format(tracked.maximum))")
    print("    landmark-only frames (\(trackedOnly.count)): median \(format(trackedOnly.median))  p99 \(format(trackedOnly.percentile(0.99)))")
    print("    re-check frames (\(rechecks.count), \(missedRechecks) missed the face): median \(format(rechecks.median))  max \(format(rechecks.maximum))")
    print("    first search (\(search.count) slice): median \(format(search.median))  max \(format(search.maximum))")
    print("  searching (\(plan.count) slices a pass cover \(Int(settings.minFaceSize)) px faces and up), \(slices.count) frames: median \(format(slices.median))  p99 \(format(slices.percentile(0.99)))  max \(format(slices.maximum))")
    print("    heap allocations per landmark-only frame: \(mallocFrames > 0 ? String(format: "%.2f", Double(mallocs) / Double(mallocFrames)) : "n/a")"
          + " (the counter works: a search slice made \(searchMallocs))")
    print("  per-frame detection baseline CPU ms/frame: median \(format(baseline.median))  p99 \(format(baseline.percentile(0.99)))")
    if let b = baseline.median, let t = tracked.median, t > 0 {
        print(String(format: "  ratio baseline/tracked (median): %.1fx", b / t))
    }
}

var settings = VisionSettings()
if let root { settings.modelPath = "\(root)/Models/shape_predictor_5_face_landmarks.dat" }
for clip in clips {
    let frames = loadFrames(clip)
    let name = String(clip.split(separator: "/").last ?? Substring(clip))
    run(name, frames, settings: settings)
    if frames.first.map({ $0.width != 640 || $0.height != 480 }) ?? false {
        run("\(name) enlarged", enlarged(frames), settings: settings)
    }
}
