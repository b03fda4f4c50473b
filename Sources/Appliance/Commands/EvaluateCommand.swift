import ArgumentParser
import Foundation

/// `nodwire evaluate DIR`: the accuracy of the whole pipeline on labelled clips, as numbers (docs/accuracy.md).
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Replays every labelled clip of a folder and scores its gestures (and pose) against the labels.",
        discussion: """
        A clip is NAME.y4m with NAME.labels.json beside it ({"segments":[{"label","start","end"}]}, 0-based \
        inclusive frames) and, optionally, NAME.pose.csv (frame,yaw,pitch,... in degrees: the true pose). \
        Prints a line a clip and the totals, or with --json a JSON object a line ("type": "clip" or "totals"). \
        The rules are in docs/accuracy.md.
        """
    )

    @Argument(help: "A folder of labelled clips (scripts/fixtures.sh puts the real ones in .build-fixtures).")
    var directory: String

    @Option(help: "A config file (see `nodwire config defaults`).")
    var config: String?

    @Flag(help: "Print JSON objects instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Process at most this many frames a second, as the device does at budget.active_rate; the rest are dropped.",
                               discussion: "Without it every frame of the recording is processed.", valueName: "fps"))
    var rate: Double?

    @Option(help: ArgumentHelp("Begin every clip this many seconds in, as if the face were first seen there (a person found mid-sentence, turned or mid-nod).",
                               discussion: "Labels before it are not scored; a segment it cuts is scored from it.", valueName: "seconds"))
    var start: Double?

    func run() throws {
        let settings = try loadConfig(config)
        if let rate { try checkRate(rate) }
        if let start { try checkStart(start) }
        let clips: [LabelledClip]
        do {
            clips = try Evaluation.clips(in: directory) { video in
                FileHandle.standardError.write(Data("nodwire: skipping \(video): no labels beside it\n".utf8))
            }
        } catch { throw Failure(message: "\(error)", exitCode: error.exitCode) }
        let evaluation = Evaluation(settings: settings, rate: rate, start: start ?? 0) { try makeProcessor(settings.vision) }
        var reports: [ClipReport] = []
        for clip in clips {
            let report = try evaluation.run(clip)
            reports.append(report)
            // A line as each clip is done: a whole folder takes minutes.
            FileHandle.standardOutput.write(Data(((json ? EvaluationReport.json(report) : EvaluationReport.text(report)) + "\n").utf8))
        }
        let totals = EvaluationTotals(reports)
        FileHandle.standardOutput.write(Data(((json ? EvaluationReport.json(totals) : EvaluationReport.text(totals)) + "\n").utf8))
    }
}
