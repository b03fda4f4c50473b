import CGPIOD
import Foundation

/// A GPIO line requested as an output (consumer "nodwire"). It is requested at its spec's safe value,
/// so it never starts switched on. `release()` (and deinit) drive it back to the safe value first and
/// then hand it back to the kernel. What the pin does after that is up to the driver: see
/// hardware/README.md. Thread-safe.
final class GPIOOutputLine: @unchecked Sendable {
    let spec: GPIOLineSpec
    let chip: GPIOChip
    let offset: Int
    /// The line's kernel name ("" when unnamed).
    let lineName: String

    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var lastValue: Bool

    /// "gpiochip0 [pinctrl-bcm2711] line 17 ('GPIO17')"
    var displayName: String { "\(chip.displayName) line \(lineName.isEmpty ? "\(offset)" : "\(offset) ('\(lineName)')")" }
    var isReleased: Bool { lock.withLock { handle == nil } }
    /// The logical value last written (the safe value right after the request).
    var value: Bool { lock.withLock { lastValue } }

    /// Opens the chip named in the spec and requests the line.
    convenience init(_ spec: GPIOLineSpec) throws {
        try spec.validate()
        try self.init(spec, on: GPIOChip.open(spec.chip))
    }

    /// Requests the line on an already open chip. Throws lineNotFound, lineBusy (naming the holder),
    /// permissionDenied, unsupportedSetting or system.
    init(_ spec: GPIOLineSpec, on chip: GPIOChip) throws {
        try spec.validate()
        let offset = try chip.resolve(spec.line)
        let info = try? chip.lineInfo(offset)
        let shown = info?.displayName ?? "\(offset)"
        let (h, e): (OpaquePointer?, Int32) = chip.lock.withLock {
            let h = nw_gpio_request_output(chip.handle, UInt32(offset), spec.safeValue ? 1 : 0, spec.activeLow,
                                           Int32(Self.code(spec.drive)), Int32(Self.code(spec.bias)))
            return (h, errno)
        }
        guard let h else {
            let refused = (e == EINVAL || e == EOPNOTSUPP) && (spec.drive != .pushPull || spec.bias != .asIs)
            switch e {
            case _ where refused:
                var what: [String] = []
                if spec.drive != .pushPull { what.append("drive \(spec.drive.rawValue)") }
                if spec.bias != .asIs { what.append("bias \(spec.bias.rawValue)") }
                throw GPIOError.unsupportedSetting(chip: chip.displayName, line: shown,
                                                   setting: what.joined(separator: " and "),
                                                   libgpiod: "v\(nw_gpiod_api_major()) \(String(cString: nw_gpiod_version()))")
            case EBUSY:
                let holder = (try? chip.lineInfo(offset))?.consumer ?? ""
                throw GPIOError.lineBusy(chip: chip.displayName, line: shown, holder: holder)
            case EACCES, EPERM:
                throw GPIOError.permissionDenied(path: chip.path)
            default:
                throw GPIOError.system(operation: "requesting \(chip.displayName) line \(shown) as output", errno: e)
            }
        }
        self.spec = spec
        self.chip = chip
        self.offset = offset
        self.lineName = info?.name ?? ""
        self.handle = h
        self.lastValue = spec.safeValue
    }

    deinit { try? release() }

    /// Drives the line: `true` = active ("switch pressed"), in logical terms (active-low applied).
    func set(_ on: Bool) throws {
        try lock.withLock {
            guard let handle else { throw GPIOError.system(operation: "setting released line \(displayName)", errno: EBADF) }
            let (rc, e) = chip.lock.withLock { (nw_gpio_output_set(handle, on ? 1 : 0), errno) }
            guard rc == 0 else { throw GPIOError.system(operation: "setting \(displayName) to \(on ? 1 : 0)", errno: e) }
            lastValue = on
        }
    }

    /// Reads the logical value back from the kernel.
    func get() throws -> Bool {
        try lock.withLock {
            guard let handle else { throw GPIOError.system(operation: "reading released line \(displayName)", errno: EBADF) }
            let (v, e) = chip.lock.withLock { (nw_gpio_output_get(handle), errno) }
            guard v >= 0 else { throw GPIOError.system(operation: "reading \(displayName)", errno: e) }
            return v == 1
        }
    }

    /// Drives the safe value, keeps it for `settle` seconds (so whatever listens sees a clean
    /// "not pressed" before the line is let go), then releases the line. The line is released even when
    /// restoring fails; that failure is thrown afterwards. Calling it again does nothing.
    func release(settle: TimeInterval = 0) throws {
        var failure: Error?
        lock.withLock {
            guard let h = handle else { return }
            handle = nil
            if chip.lock.withLock({ nw_gpio_output_set(h, spec.safeValue ? 1 : 0) }) == 0 {
                lastValue = spec.safeValue
                if settle > 0 { Thread.sleep(forTimeInterval: settle) }
            } else {
                failure = GPIOError.system(operation: "restoring \(displayName) to its safe value \(spec.safeValue ? 1 : 0)", errno: errno)
            }
            chip.lock.withLock { nw_gpio_output_release(h) }
        }
        if let failure { throw failure }
    }

    static func code(_ d: GPIOLineSpec.Drive) -> UInt32 {
        switch d {
        case .pushPull: return NW_GPIO_DRIVE_PUSH_PULL.rawValue
        case .openDrain: return NW_GPIO_DRIVE_OPEN_DRAIN.rawValue
        case .openSource: return NW_GPIO_DRIVE_OPEN_SOURCE.rawValue
        }
    }

    static func code(_ b: GPIOLineSpec.Bias) -> UInt32 {
        switch b {
        case .asIs: return NW_GPIO_BIAS_AS_IS.rawValue
        case .disabled: return NW_GPIO_BIAS_DISABLED.rawValue
        case .pullUp: return NW_GPIO_BIAS_PULL_UP.rawValue
        case .pullDown: return NW_GPIO_BIAS_PULL_DOWN.rawValue
        }
    }
}
