// `NodwireBench --budget [PERCENT] [SECONDS] [vga]`: does the governor hold a CPU budget on real work?
//
// Plays clm_look in real time at its 25 fps (enlarged to 640x480 with `vga`), looped for SECONDS (default 30),
// through a GovernedLoop with a budget of PERCENT of one core (default 10). Every processed frame runs the per-frame detection baseline
// (dlib's detector on the whole frame, then the landmark fit), far more than the budget allows at 15 fps,
// so the governor has to skip frames. Prints the budget, the process CPU use measured over the run and after
// it first came within ±10 % of the budget (how long that took), the spread of 2 s windows, the processed rate.
import Foundation
import Pipeline

func runBudgetBench(_ arguments: [String], modelPath: String) {
    let percent = arguments.first.flatMap(Double.init) ?? 10
    let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 30
    let clip = ".build-fixtures/clm_look.y4m"
    let frames = arguments.contains("vga") ? enlarged(loadFrames(clip)) : loadFrames(clip)
    let fps = (try? Y4MReader(path: clip).frameRate) ?? 25
    guard let detector = try? FaceDetector(), let model = try? ShapeModel(path: modelPath) else { fail("cannot load the detector or \(modelPath)") }
    let fitter = LandmarkFitter(model: model)

    var settings = BudgetSettings()
    settings.cpuPercent = percent
    settings.minimumRate = 0.5   // let the budget bind however slow the work is; the bench is about holding it
    var loop = GovernedLoop(settings: settings, startTime: 0, readSensors: false)

    let start = MonotonicClock.now(), cpuStart = ProcessCPUClock.now()
    var samples: [(time: Double, cpu: Double)] = [(0, 0)]   // once a second, for the convergence time
    var k = 0
    while Double(k) / fps < seconds {
        let due = Double(k) / fps
        let frame = frames[k % frames.count]
        k += 1
        let wait = due - (MonotonicClock.now() - start)
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let now = MonotonicClock.now() - start
        if now - due > 1 / fps { loop.droppedLate(); continue }   // a newer frame is already due
        if now >= Double(samples.count) { samples.append((now, ProcessCPUClock.now() - cpuStart)) }
        guard loop.offer(frameAt: now) == .process else { continue }
        let t0 = ThreadCPUClock.now()
        let found = detector.detect(in: frame, slice: DetectionSlice(x: 0, y: 0, width: frame.width, height: frame.height, scale: 1, levels: 0))
        if let best = found.max(by: { $0.box.area < $1.box.area }) { _ = fitter.fit(frame, box: best.box) }
        loop.processed(frameAt: now, cpuSeconds: ThreadCPUClock.now() - t0, faceSeen: !found.isEmpty)
        for notice in loop.takeNotices() { print(String(format: "  %5.1f s  %@", now, notice.description)) }
    }
    let wall = MonotonicClock.now() - start, cpu = ProcessCPUClock.now() - cpuStart
    samples.append((wall, cpu))

    // CPU % over sliding 2 s windows (the governor's window), one a second.
    let windows = (2..<samples.count).map { i in (time: samples[i].time, percent: (samples[i].cpu - samples[i - 2].cpu) / (samples[i].time - samples[i - 2].time) * 100) }
    if ProcessInfo.processInfo.environment["NODWIRE_BENCH_VERBOSE"] != nil {
        print("  2 s windows: " + windows.map { String(format: "%.1f", $0.percent) }.joined(separator: " "))
    }
    let inside = { (w: (time: Double, percent: Double)) in abs(w.percent - percent) <= percent * 0.1 }
    let settled = windows.first(where: inside)?.time
    let base = settled.flatMap { t in samples.last { $0.time <= t } }
    let later = windows.filter { $0.time > (settled ?? wall) }
    let stats = loop.stats
    let cost = stats.frameCost
    print("budget \(clip) \(frames.first.map { "\($0.width)x\($0.height)" } ?? ""), \(String(format: "%.0f", seconds)) s at \(String(format: "%.0f", fps)) fps, per-frame detection baseline")
    print(String(format: "  work a frame: median %.1f ms CPU (%.0f %% of a core at 15 fps)", cost.median ?? 0, (cost.median ?? 0) * 15 / 10))
    print(String(format: "  budget %.1f %%  measured %.2f %% over the whole run (process CPU time / wall time)", percent, cpu / wall * 100))
    if let settled, let base {
        print(String(format: "  first 2 s window within ±10 %% ends at %.0f s; measured %.2f %% from there to the end (%.0f s)",
                     settled, (cpu - base.cpu) / (wall - base.time) * 100, wall - base.time))
        print(String(format: "  later 2 s windows: %d of %d within ±10 %%, min %.2f %%, max %.2f %%", later.filter(inside).count, later.count,
                     later.map(\.percent).min() ?? .nan, later.map(\.percent).max() ?? .nan))
    } else {
        print("  no 2 s window came within ±10 % of the budget")
    }
    print(String(format: "  processed %d of %d frames (%.2f fps), skipped %d, late %d; governor target %.2f fps, over budget: %@",
                 stats.processed, stats.captured, stats.processedRate.averageRate, stats.skipped, stats.late, loop.status.targetRate,
                 loop.status.overBudget ? "yes" : "no"))
}
