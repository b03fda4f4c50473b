/// Why an evaluation could not run, worded for the person running it: the file, and what is wrong with it.
enum EvaluationError: Error, Equatable, CustomStringConvertible {
    case noDirectory(String)
    case noClips(String)
    case badLabels(file: String, reason: String)
    case badTruth(file: String, line: Int?, reason: String)

    var description: String {
        switch self {
        case let .noDirectory(path):
            return "\(path): no such folder"
        case let .noClips(path):
            return "\(path): no clip to evaluate (a clip is NAME.y4m with NAME.labels.json beside it; docs/accuracy.md)"
        case let .badLabels(file, reason):
            return "\(file): not a labels file: \(reason)"
        case let .badTruth(file, line, reason):
            return "\(line.map { "\(file):\($0)" } ?? file): not a pose file: \(reason)"
        }
    }

    /// sysexits: EX_NOINPUT for what is not there, EX_DATAERR for what is there but wrong.
    var exitCode: Int32 {
        switch self {
        case .noDirectory, .noClips: return 66
        case .badLabels, .badTruth: return 65
        }
    }
}
