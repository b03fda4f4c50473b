import ArgumentParser
import Pipeline

/// `nodwire faces PHOTO.pgm`: what the vision core sees in a still picture.
struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Finds the faces in a PGM photo and prints their boxes, landmarks and head pose as JSON lines."
    )

    @Argument(help: "An 8-bit PGM picture (P5 or P2).")
    var file: String

    @Option(help: "A config file (see `nodwire config defaults`).")
    var config: String?

    func run() throws {
        let settings = try loadConfig(config)
        // The picture before the model: a wrong file is refused at once, not after seconds of loading.
        let frame: LumaFrame
        do { frame = try PGMReader.read(path: file) } catch { throw Failure(message: "\(error)", exitCode: 65) }
        let processor = try makeProcessor(settings.vision)
        let faces = processor.tracker.faces(in: frame)
        for face in faces {
            let b = face.box, n = { (v: Double) in EventJSON.number(v, 1) }
            let points = (0..<5).map { "[\(n(face.landmarks[$0].x)),\(n(face.landmarks[$0].y))]" }.joined(separator: ",")
            print("{\"box\":[\(n(b.left)),\(n(b.top)),\(n(b.right)),\(n(b.bottom))],\"landmarks\":[\(points)],"
                  + "\"yaw\":\(n(face.pose.yaw)),\"pitch\":\(n(face.pose.pitch)),\"pointer\":[\(n(face.pose.pointer.x)),\(n(face.pose.pointer.y))]}")
        }
        if faces.isEmpty { throw Failure(message: "\(file): no face found", exitCode: 1) }
    }
}
