import CGPIOD
import Foundation

/// Every GPIO chip on the machine and who holds its lines: `nodwire gpio list`.
enum GPIOInventory {
    struct Chip: Sendable {
        var path: String
        var name: String
        var label: String
        var lines: [GPIOLineInfo]
        /// Set when the chip could not be opened or read; `lines` is then empty.
        var error: GPIOError?
    }

    /// The libgpiod this binary was built for and runs with, e.g. "libgpiod v1 (1.6.3)".
    static var libraryDescription: String { "libgpiod v\(nw_gpiod_api_major()) (\(String(cString: nw_gpiod_version())))" }

    static func list(devDirectory: String = "/dev") -> [Chip] {
        GPIOChip.devicePaths(devDirectory: devDirectory).map { path in
            let fallback = URL(fileURLWithPath: path).lastPathComponent
            do {
                let chip = try GPIOChip(path: path)
                return Chip(path: path, name: chip.name, label: chip.label, lines: try chip.lines(), error: nil)
            } catch let e as GPIOError {
                return Chip(path: path, name: fallback, label: "", lines: [], error: e)
            } catch {
                return Chip(path: path, name: fallback, label: "", lines: [], error: .system(operation: "reading \(path)", errno: EIO))
            }
        }
    }

    /// Text for people, one line per GPIO line:
    /// `  17  GPIO17      output  used by "nodwire"  active-low`
    static func render(_ chips: [Chip]) -> String {
        if chips.isEmpty { return "no GPIO chips (/dev/gpiochip*) on this machine\n" }
        var out = ""
        for c in chips {
            let label = c.label.isEmpty ? "" : " [\(c.label)]"
            if let e = c.error { out += "\(c.name)\(label): \(e)\n"; continue }
            out += "\(c.name)\(label) - \(c.lines.count) lines (\(c.path))\n"
            let width = max(8, c.lines.map(\.name.count).max() ?? 0)
            for l in c.lines {
                let name = l.name.isEmpty ? "unnamed" : l.name
                var cols = ["  " + pad("\(l.offset)", 4, right: true), pad(name, width), pad(l.direction.rawValue, 6)]
                if l.used { cols.append(l.consumer.isEmpty ? "used (no consumer label)" : "used by \"\(l.consumer)\"") } else { cols.append("unused") }
                if l.activeLow { cols.append("active-low") }
                if l.drive != .pushPull { cols.append(l.drive.rawValue) }
                if let b = l.bias, b != .asIs { cols.append(b.rawValue) }
                out += cols.joined(separator: "  ") + "\n"
            }
        }
        return out
    }

    private static func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return right ? fill + s : s + fill
    }
}
