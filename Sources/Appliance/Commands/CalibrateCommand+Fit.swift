import ArgumentParser
import Foundation
import Gestures
import Pipeline

/// `nodwire calibrate --gestures`: the guided fit in a terminal (the setup page runs the same steps).
extension CalibrateCommand {
    func runFit() throws {
        let settings = try loadConfig(config)
        var cameraSettings = settings.camera
        if let camera { cameraSettings.camera = CameraSelector(parsing: camera) }
        let processor = try makeProcessor(settings.vision)
        var engine = GestureEngine(settings: settings.gestures)
        let schedule = FitSchedule(scale: pace)
        let display = PoseDisplay(zones: settings.gestures.zones)

        // The prompts: a clip's own timeline, else the live schedule.
        var clipSteps: [Int: FitStep]?
        if let sourceFile {
            let path = labels ?? ClipLabels.path(beside: sourceFile)
            if labels != nil || FileManager.default.fileExists(atPath: path) {
                do { clipSteps = FitLabels.steps(try ClipLabels.read(path: path)) } catch {
                    throw Failure(message: "\(error)", exitCode: 65)
                }
            }
        }

        // A kept session is written at the rate frames came: the clip's own, else what the camera was asked for.
        let recordRate = sourceFile.flatMap { try? Y4MReader(path: $0).frameRate } ?? (cameraSettings.fps > 0 ? cameraSettings.fps : 15)
        var recording = FitRecording()
        var recorder: Y4MWriter?
        var recordedSteps: [FitStep?] = []
        var start: Double?
        var lastPrompt: String?
        try eachFrame(camera: cameraSettings, display: display) { frame throws(RunError) in
            let t0 = start ?? frame.time
            start = t0
            let t = frame.time - t0
            if clipSteps == nil && t > schedule.duration { return false }
            let step = clipSteps.map { $0[frame.index] } ?? schedule.step(at: t)
            if let record {
                do {
                    if recorder == nil {
                        recorder = try Y4MWriter(path: record + ".y4m", width: frame.width, height: frame.height, frameRate: recordRate)
                    }
                    try recorder!.write(frame)
                } catch { throw .source("cannot record the session: \(error)", exitCode: 73) }
                recordedSteps.append(step)
            }
            let result = processor.process(frame)
            let sample = HeadSample(result)
            recording.append(sample, step: step)
            _ = engine.process(sample)
            if clipSteps == nil {
                let prompt = schedule.prompt(at: t)
                if prompt.text != lastPrompt {
                    display.say(">> \(prompt.text)")
                    lastPrompt = prompt.text
                }
            }
            display.show(state: engine.state, pose: result.face?.pose, time: frame.time)
            return true
        }
        display.finish()
        if let record, recorder != nil {
            let json = FitLabels.json(recordedSteps, frameRate: recordRate, source: "nodwire calibrate --gestures")
            let labelsPath = ClipLabels.path(beside: record + ".y4m")
            do { try json.write(toFile: labelsPath, atomically: true, encoding: .utf8) } catch {
                throw Failure(message: "\(labelsPath): cannot write: \(error.localizedDescription)", exitCode: 73)
            }
            print("session kept: \(record).y4m and \(labelsPath) (nodwire calibrate --gestures --source \(record).y4m fits it again)")
        }

        let proposal: FitProposal
        do { proposal = try GestureFit.propose(recording, from: settings.gestures, reaction: clipSteps == nil ? GestureFit.reaction : 0) } catch {
            throw Failure(message: "\(error)", exitCode: 65)
        }
        let report = FitReport(proposal: proposal, current: settings.gestures)
        print(report.text)
        guard save, let config else { return }
        let saved = try ConfigFileSave.save(report.values, to: config)
        print("saved to \(saved.path) (the old file is \(saved.backup)); a running nodwire takes it on SIGHUP (systemctl reload nodwire)")
    }
}
