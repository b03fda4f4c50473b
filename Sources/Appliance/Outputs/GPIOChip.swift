import CGPIOD
import Foundation

/// One line as the kernel reports it right now.
struct GPIOLineInfo: Sendable, Equatable {
    enum Direction: String, Sendable { case input, output }
    var offset: Int
    var name: String          // "" when unnamed
    var consumer: String      // who holds it ("" when free, or when the holder gave no label)
    var direction: Direction
    var activeLow: Bool
    var used: Bool
    var drive: GPIOLineSpec.Drive
    var bias: GPIOLineSpec.Bias?   // nil: unknown / as set by firmware

    /// The line for messages: `17 ('led')` or `17`.
    var displayName: String { name.isEmpty ? "\(offset)" : "\(offset) ('\(name)')" }
}

/// An open GPIO chip character device (`/dev/gpiochipN`). Closed on deinit.
/// Thread-safe: every call into libgpiod holds the chip's lock (libgpiod objects are not thread-safe).
final class GPIOChip: @unchecked Sendable {
    let path: String
    let name: String
    let label: String
    let lineCount: Int
    /// "gpiochip0 [pinctrl-bcm2711]"
    var displayName: String { label.isEmpty ? name : "\(name) [\(label)]" }

    let lock = NSLock()
    let handle: OpaquePointer

    /// Opens a chip by device path. Throws chipNotFound / permissionDenied / system.
    init(path: String) throws {
        guard let h = nw_gpio_chip_open(path) else {
            let e = errno
            switch e {
            case EACCES, EPERM: throw GPIOError.permissionDenied(path: path)
            case ENOENT, ENODEV, ENOTTY, EINVAL:  // missing, or not a GPIO character device
                throw GPIOError.chipNotFound(path, available: GPIOChip.availableDescriptions())
            default: throw GPIOError.system(operation: "opening \(path)", errno: e)
            }
        }
        var info = nw_gpio_chip_info()
        guard nw_gpio_chip_get_info(h, &info) == 0 else {
            let e = errno
            nw_gpio_chip_close(h)
            throw GPIOError.system(operation: "reading chip info of \(path)", errno: e)
        }
        handle = h
        self.path = path
        name = gpioCString(&info.name)
        label = gpioCString(&info.label)
        lineCount = Int(info.num_lines)
    }

    deinit { nw_gpio_chip_close(handle) }

    /// Opens a chip by name (`gpiochip0`), number (`0`), path (`/dev/gpiochip0`) or label
    /// (`pinctrl-bcm2711`; all of /dev/gpiochip* are searched).
    static func open(_ spec: String, devDirectory: String = "/dev") throws -> GPIOChip {
        let s = spec.trimmingCharacters(in: .whitespaces)
        guard !s.isEmpty else { throw GPIOError.invalidSpec("no chip given (e.g. gpiochip0)") }
        if s.hasPrefix("/") { return try GPIOChip(path: s) }
        if s.allSatisfy({ $0.isASCII && $0.isNumber }) { return try GPIOChip(path: "\(devDirectory)/gpiochip\(s)") }
        let byName = "\(devDirectory)/\(s)"
        if isChipDeviceName(s) && FileManager.default.fileExists(atPath: byName) { return try GPIOChip(path: byName) }
        // A label: open each chip and compare. Remember a permission problem so we can say so.
        var denied: String?
        for p in devicePaths(devDirectory: devDirectory) {
            do {
                let c = try GPIOChip(path: p)
                if c.label == s { return c }
            } catch GPIOError.permissionDenied(let path) {
                denied = denied ?? path
            } catch {}
        }
        if let denied { throw GPIOError.permissionDenied(path: denied) }
        throw GPIOError.chipNotFound(s, available: availableDescriptions(devDirectory: devDirectory))
    }

    /// `/dev/gpiochip*` in numeric order.
    static func devicePaths(devDirectory: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devDirectory)) ?? []
        return names.filter(isChipDeviceName)
            .sorted { (Int($0.dropFirst(8)) ?? 0) < (Int($1.dropFirst(8)) ?? 0) }
            .map { "\(devDirectory)/\($0)" }
    }

    /// "gpiochip0 [label] (54 lines)" for every chip that can be opened, else just its name.
    static func availableDescriptions(devDirectory: String = "/dev") -> [String] {
        devicePaths(devDirectory: devDirectory).map { p in
            guard let h = nw_gpio_chip_open(p) else {
                let e = errno
                return "\(URL(fileURLWithPath: p).lastPathComponent) (cannot open: \(String(cString: strerror(e))))"
            }
            defer { nw_gpio_chip_close(h) }
            var info = nw_gpio_chip_info()
            guard nw_gpio_chip_get_info(h, &info) == 0 else { return URL(fileURLWithPath: p).lastPathComponent }
            let label = gpioCString(&info.label)
            return "\(gpioCString(&info.name))\(label.isEmpty ? "" : " [\(label)]") (\(info.num_lines) lines)"
        }
    }

    static func isChipDeviceName(_ s: String) -> Bool {
        s.hasPrefix("gpiochip") && s.count > 8 && s.dropFirst(8).allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The kernel's current view of one line.
    func lineInfo(_ offset: Int) throws -> GPIOLineInfo {
        guard offset >= 0 && offset < lineCount else {
            throw GPIOError.lineNotFound(chip: displayName, line: "\(offset)", lineCount: lineCount, names: [])
        }
        var raw = nw_gpio_line_info()
        let rc = lock.withLock { nw_gpio_line_get_info(handle, UInt32(offset), &raw) }
        guard rc == 0 else { throw GPIOError.system(operation: "reading line \(offset) of \(displayName)", errno: errno) }
        let drive: GPIOLineSpec.Drive
        switch Int(raw.drive) {
        case Int(NW_GPIO_DRIVE_OPEN_DRAIN.rawValue): drive = .openDrain
        case Int(NW_GPIO_DRIVE_OPEN_SOURCE.rawValue): drive = .openSource
        default: drive = .pushPull
        }
        let bias: GPIOLineSpec.Bias?
        switch Int(raw.bias) {
        case Int(NW_GPIO_BIAS_DISABLED.rawValue): bias = .disabled
        case Int(NW_GPIO_BIAS_PULL_UP.rawValue): bias = .pullUp
        case Int(NW_GPIO_BIAS_PULL_DOWN.rawValue): bias = .pullDown
        default: bias = nil
        }
        return GPIOLineInfo(
            offset: offset, name: gpioCString(&raw.name), consumer: gpioCString(&raw.consumer),
            direction: Int(raw.direction) == Int(NW_GPIO_DIRECTION_OUTPUT.rawValue) ? .output : .input,
            activeLow: raw.active_low, used: raw.used, drive: drive, bias: bias)
    }

    /// All lines of the chip.
    func lines() throws -> [GPIOLineInfo] { try (0..<lineCount).map(lineInfo) }

    /// Finds a line's offset by offset (range-checked) or by name (exact, then case-insensitive).
    func resolve(_ line: GPIOLineSpec.Line) throws -> Int {
        switch line {
        case let .offset(n):
            guard n >= 0 && n < lineCount else {
                throw GPIOError.lineNotFound(chip: displayName, line: "\(n)", lineCount: lineCount, names: (try? namedLines()) ?? [])
            }
            return n
        case let .name(wanted):
            let all = try lines()
            if let hit = all.first(where: { $0.name == wanted }) ?? all.first(where: { $0.name.lowercased() == wanted.lowercased() }) {
                return hit.offset
            }
            throw GPIOError.lineNotFound(chip: displayName, line: wanted, lineCount: lineCount,
                                         names: all.filter { !$0.name.isEmpty }.map(\.name))
        }
    }

    private func namedLines() throws -> [String] { try lines().filter { !$0.name.isEmpty }.map(\.name) }
}

/// A fixed-size C char array (imported as a tuple) to a String.
private func gpioCString<T>(_ tuple: inout T) -> String {
    withUnsafeBytes(of: &tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
