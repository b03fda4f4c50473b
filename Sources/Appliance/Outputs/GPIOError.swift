import Foundation

/// What went wrong with a GPIO chip or line, worded for the person setting the appliance up.
enum GPIOError: Error, CustomStringConvertible, Equatable, Sendable {
    /// `available`: one entry per chip that exists, e.g. "gpiochip0 [pinctrl-bcm2711] (58 lines)".
    case chipNotFound(String, available: [String])
    /// `lineCount`: the chip's number of lines; `names`: the named lines on that chip.
    case lineNotFound(chip: String, line: String, lineCount: Int, names: [String])
    /// `holder`: the consumer label from the kernel's line info ("" when the holder gave none).
    case lineBusy(chip: String, line: String, holder: String)
    case permissionDenied(path: String)
    /// The kernel, driver or libgpiod refused a drive or bias setting.
    case unsupportedSetting(chip: String, line: String, setting: String, libgpiod: String)
    /// A spec that can never work (empty chip, empty line name...).
    case invalidSpec(String)
    /// Any other failure: the operation and the errno behind it.
    case system(operation: String, errno: Int32)

    var description: String {
        switch self {
        case let .chipNotFound(chip, available):
            let list = available.isEmpty
                ? "there are no GPIO chips (/dev/gpiochip*) on this machine; on a Raspberry Pi check the kernel, in the test VM create a gpio-sim chip"
                : "chips here: " + available.joined(separator: ", ")
            return "GPIO chip '\(chip)' not found (by name, path or label); \(list)"
        case let .lineNotFound(chip, line, count, names):
            let range = count > 0 ? "offsets 0...\(count - 1)" : "the chip has no lines"
            let named = names.isEmpty ? "no line on it has a name" : "named lines: " + names.joined(separator: ", ")
            return "GPIO line '\(line)' not found on \(chip): valid \(range); \(named)"
        case let .lineBusy(chip, line, holder):
            let who = holder.isEmpty ? "another program (it gave no consumer label)" : "'\(holder)'"
            return "GPIO line \(line) on \(chip) is busy: it is held by \(who). Stop that program (see `nodwire gpio list`) and try again"
        case let .permissionDenied(path):
            return "permission denied opening \(path): add the user to the `gpio` group (sudo usermod -aG gpio $USER, then log in again) or run as root; under systemd, the unit needs DeviceAllow=char-gpiochip rw (deploy/nodwire.service has it)"
        case let .unsupportedSetting(chip, line, setting, lib):
            return "GPIO line \(line) on \(chip): the kernel or driver refused \(setting) (libgpiod \(lib)); use drive push-pull / bias as-is, or a newer kernel"
        case let .invalidSpec(why):
            return "invalid GPIO line setting: \(why)"
        case let .system(op, e):
            return "\(op) failed: \(String(cString: strerror(e))) (errno \(e))"
        }
    }

    /// A sysexits-style exit code for the CLI.
    var exitCode: Int32 {
        switch self {
        case .chipNotFound, .lineNotFound: return 69      // EX_UNAVAILABLE
        case .lineBusy: return 75                         // EX_TEMPFAIL
        case .permissionDenied: return 77                 // EX_NOPERM
        case .unsupportedSetting: return 78               // EX_CONFIG
        case .invalidSpec: return 64                      // EX_USAGE
        case .system: return 74                           // EX_IOERR
        }
    }
}
