/// What the power supplies said at one reading. Empty (no battery) is normal for a Pi on a wall supply.
public struct PowerSupplyReading: Sendable, Equatable {
    public enum Status: String, Sendable {
        case charging = "Charging", discharging = "Discharging", full = "Full", notCharging = "Not charging", unknown = "Unknown"
    }

    /// Charge of the first battery, percent; nil without a battery or a readable capacity file.
    public var capacityPercent: Double?
    public var status: Status?
    /// Some mains or USB supply reports being online; nil when none says either way.
    public var externalPowerOnline: Bool?
    /// What the battery says it holds when full, watt-hours (energy_full, or charge_full × voltage_min_design).
    public var fullEnergyWh: Double?
    /// Files that could not be used (the reading is still usable without them).
    public var problems: [SysfsProblem] = []

    public init(capacityPercent: Double? = nil, status: Status? = nil, externalPowerOnline: Bool? = nil, fullEnergyWh: Double? = nil) {
        self.capacityPercent = capacityPercent
        self.status = status
        self.externalPowerOnline = externalPowerOnline
        self.fullEnergyWh = fullEnergyWh
    }

    public var hasBattery: Bool { capacityPercent != nil || status != nil }

    /// Running on the battery: it says it is discharging, or it cannot say and no external supply is online.
    public var onBattery: Bool {
        guard hasBattery else { return false }
        switch status {
        case .discharging: return true
        case .charging, .full: return false
        case .notCharging, .unknown, nil: return externalPowerOnline != true
        }
    }
}

/// Reads /sys/class/power_supply (or a folder laid out like it): each supply's `type`, and for batteries
/// `capacity`, `status`, `energy_full` or `charge_full` and `voltage_min_design`; for mains and USB `online`.
public struct PowerSupplyReader: Sendable {
    public var root: String

    public init(root: String) { self.root = root }

    public func read() -> PowerSupplyReading {
        var reading = PowerSupplyReading()
        let names: [String]
        switch Sysfs.entries(root) {
        case let .success(n): names = n
        case let .failure(p): reading.problems.append(p); return reading
        }
        for name in names {
            let dir = "\(root)/\(name)"
            guard case let .success(type) = Sysfs.text("\(dir)/type") else { continue }   // not a supply folder
            switch type {
            case "Battery" where !reading.hasBattery:
                readBattery(dir, into: &reading)
            case "Mains", "USB", "USB_C", "USB_PD", "Wireless":
                switch Sysfs.integer("\(dir)/online", allowed: 0...2, meaning: "1 online, 0 offline") {
                case let .success(v): reading.externalPowerOnline = (reading.externalPowerOnline ?? false) || v > 0
                case let .failure(p): reading.problems.append(p)
                }
            default: continue
            }
        }
        return reading
    }

    private func readBattery(_ dir: String, into r: inout PowerSupplyReading) {
        switch Sysfs.integer("\(dir)/capacity", allowed: 0...100, meaning: "charge in percent") {
        case let .success(v): r.capacityPercent = Double(v)
        case let .failure(p): r.problems.append(p)
        }
        switch Sysfs.text("\(dir)/status") {
        case let .success(s):
            if let status = PowerSupplyReading.Status(rawValue: s) { r.status = status } else {
                r.status = .unknown
                r.problems.append(SysfsProblem(path: "\(dir)/status", reason: "\"\(s.prefix(40))\" is not Charging, Discharging, Full, Not charging or Unknown"))
            }
        case let .failure(p): r.problems.append(p)
        }
        // Full energy is optional: many fuel gauges report only charge, some neither.
        if case let .success(uWh) = Sysfs.integer("\(dir)/energy_full", allowed: 1...Int(1e12), meaning: "µWh") {
            r.fullEnergyWh = Double(uWh) / 1e6
        } else if case let .success(uAh) = Sysfs.integer("\(dir)/charge_full", allowed: 1...Int(1e12), meaning: "µAh"),
                  case let .success(uV) = Sysfs.integer("\(dir)/voltage_min_design", allowed: 1...Int(1e9), meaning: "µV") {
            r.fullEnergyWh = Double(uAh) / 1e6 * Double(uV) / 1e6
        }
    }
}

/// Reads the hottest of the thermal zones under /sys/class/thermal (or a folder laid out like it).
public struct ThermalReader: Sendable {
    public var root: String

    public init(root: String) { self.root = root }

    /// The highest zone temperature in °C (nil with no readable zone) and the files that could not be used.
    public func read() -> (celsius: Double?, problems: [SysfsProblem]) {
        let names: [String]
        switch Sysfs.entries(root) {
        case let .success(n): names = n.filter { $0.hasPrefix("thermal_zone") }
        case let .failure(p): return (nil, [p])
        }
        var hottest: Double?
        var problems: [SysfsProblem] = []
        for name in names {
            // Millidegrees; -60 °C to 200 °C covers every real sensor, anything else is a broken driver.
            switch Sysfs.integer("\(root)/\(name)/temp", allowed: -60_000...200_000, meaning: "millidegrees Celsius") {
            case let .success(m): hottest = max(hottest ?? -.infinity, Double(m) / 1000)
            case let .failure(p): problems.append(p)
            }
        }
        return (hottest, problems)
    }
}
