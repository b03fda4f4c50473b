import ArgumentParser
import Foundation
import Pipeline

/// `nodwire landmarks FILE.y4m`: what the vision core measures on every frame, as CSV, for checking the
/// head pose against another tool (a reference pose, a hand-made timeline) or fitting a head model.
struct LandmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Prints each frame's five landmarks and head pose of a recording as CSV.",
        discussion: """
        Columns: frame, time (s), face (1 or 0), x0 y0 ... x4 y4 (pixels: 0-1 one eye's corners, 2-3 the other's, \
        4 the bottom of the nose), yaw, pitch (degrees, the person's own right and up positive). A frame without \
        a face has empty landmark and pose columns.
        """
    )

    @Argument(help: "A YUV4MPEG2 recording.")
    var file: String

    @Option(help: "A config file (its [vision] settings apply).")
    var config: String?

    func run() throws {
        let settings = try loadConfig(config)
        let output = LineOutput()
        output.write("frame,time,face,x0,y0,x1,y1,x2,y2,x3,y3,x4,y4,yaw,pitch")
        // The replay's own frame loop (same reader, same errors); its gesture events are not wanted here.
        _ = try Replay(file: file, settings: settings, processor: try makeProcessor(settings.vision)).run(onFrame: { r in
            var line = "\(r.index),\(EventJSON.number(r.time, 4))"
            if let f = r.face {
                line += ",1"
                for i in 0..<5 { line += ",\(EventJSON.number(f.landmarks[i].x, 2)),\(EventJSON.number(f.landmarks[i].y, 2))" }
                line += ",\(EventJSON.number(f.pose.yaw, 2)),\(EventJSON.number(f.pose.pitch, 2))"
            } else {
                line += ",0" + String(repeating: ",", count: 12)
            }
            output.write(line)
        }, onEvent: { _ in })
        output.flush()
    }
}
