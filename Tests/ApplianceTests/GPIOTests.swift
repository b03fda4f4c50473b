import Foundation
import XCTest

@testable import Appliance

/// GPIO: spec parsing, validation and messages (no chip needed), and, with NODWIRE_HW=1 (inside the
/// hardware/vm guest), the real thing against a gpio-sim chip made through configfs.
final class GPIOTests: XCTestCase {
    // MARK: - specs

    func testLineParsesOffsetsAndNames() {
        XCTAssertEqual(GPIOLineSpec.Line(parsing: "17"), .offset(17))
        XCTAssertEqual(GPIOLineSpec.Line(parsing: " 3 "), .offset(3))
        XCTAssertEqual(GPIOLineSpec.Line(parsing: "led"), .name("led"))
        XCTAssertEqual(GPIOLineSpec.Line(parsing: "GPIO17"), .name("GPIO17"))
        XCTAssertEqual(GPIOLineSpec.Line(parsing: "-1"), .name("-1"))
        XCTAssertEqual(GPIOLineSpec.Line(parsing: "١٢"), .name("١٢"))  // non-ASCII digits are a name
    }

    func testSpecParsesChipColonLine() throws {
        let a = try GPIOLineSpec(parsing: "gpiochip0:17")
        XCTAssertEqual(a.chip, "gpiochip0"); XCTAssertEqual(a.line, .offset(17))
        XCTAssertFalse(a.activeLow); XCTAssertFalse(a.safeValue)
        XCTAssertEqual(a.drive, .pushPull); XCTAssertEqual(a.bias, .asIs)
        let b = try GPIOLineSpec(parsing: "/dev/gpiochip4:switch1")
        XCTAssertEqual(b.chip, "/dev/gpiochip4"); XCTAssertEqual(b.line, .name("switch1"))
        XCTAssertThrowsError(try GPIOLineSpec(parsing: "gpiochip0")) { XCTAssertTrue("\($0)".contains("CHIP:LINE")) }
        XCTAssertThrowsError(try GPIOLineSpec(parsing: ":5")) { XCTAssertTrue("\($0)".contains("no chip")) }
        XCTAssertThrowsError(try GPIOLineSpec(parsing: "gpiochip0:")) { XCTAssertTrue("\($0)".contains("no line")) }
    }

    func testDriveAndBiasAcceptCommonSpellings() {
        XCTAssertEqual(GPIOLineSpec.Drive(parsing: "open_drain"), .openDrain)
        XCTAssertEqual(GPIOLineSpec.Drive(parsing: "Open-Source"), .openSource)
        XCTAssertEqual(GPIOLineSpec.Drive(parsing: "pushpull"), .pushPull)
        XCTAssertNil(GPIOLineSpec.Drive(parsing: "totem"))
        XCTAssertEqual(GPIOLineSpec.Bias(parsing: "pull_up"), .pullUp)
        XCTAssertEqual(GPIOLineSpec.Bias(parsing: "down"), .pullDown)
        XCTAssertEqual(GPIOLineSpec.Bias(parsing: "disable"), .disabled)
        XCTAssertEqual(GPIOLineSpec.Bias(parsing: "as-is"), .asIs)
        XCTAssertNil(GPIOLineSpec.Bias(parsing: "sideways"))
    }

    func testValidationRefusesImpossibleSpecs() {
        XCTAssertThrowsError(try GPIOLineSpec(chip: "gpiochip0", line: .offset(-1)).validate())
        XCTAssertThrowsError(try GPIOLineSpec(chip: " ", line: .offset(1)).validate())
        XCTAssertThrowsError(try GPIOLineSpec(chip: "gpiochip0", line: .name("")).validate())
        XCTAssertThrowsError(try GPIOLineSpec(chip: "gpiochip0", line: .offset(1), drive: .openDrain, bias: .pullDown).validate())
        XCTAssertThrowsError(try GPIOLineSpec(chip: "gpiochip0", line: .offset(1), drive: .openSource, bias: .pullUp).validate())
        XCTAssertNoThrow(try GPIOLineSpec(chip: "gpiochip0", line: .offset(1), drive: .openDrain, bias: .pullUp).validate())
    }

    // MARK: - messages for people

    func testMessagesNameWhatIsWrongAndWhatExists() {
        let chip = GPIOError.chipNotFound("gpiochip9", available: ["gpiochip0 [pinctrl-bcm2711] (58 lines)"])
        XCTAssertTrue(chip.description.contains("gpiochip9"))
        XCTAssertTrue(chip.description.contains("gpiochip0 [pinctrl-bcm2711] (58 lines)"))
        XCTAssertTrue(GPIOError.chipNotFound("x", available: []).description.contains("no GPIO chips"))

        let line = GPIOError.lineNotFound(chip: "gpiochip0", line: "12", lineCount: 8, names: ["led", "switch1"])
        XCTAssertTrue(line.description.contains("0...7"), line.description)
        XCTAssertTrue(line.description.contains("led, switch1"), line.description)

        let busy = GPIOError.lineBusy(chip: "gpiochip0", line: "3 ('led')", holder: "gpioset")
        XCTAssertTrue(busy.description.contains("3 ('led')") && busy.description.contains("'gpioset'"), busy.description)
        XCTAssertTrue(GPIOError.lineBusy(chip: "c", line: "1", holder: "").description.contains("no consumer label"))

        XCTAssertTrue(GPIOError.permissionDenied(path: "/dev/gpiochip0").description.contains("`gpio` group"))
        let unsup = GPIOError.unsupportedSetting(chip: "c", line: "1", setting: "bias pull-up", libgpiod: "v1 1.6.3")
        XCTAssertTrue(unsup.description.contains("bias pull-up") && unsup.description.contains("1.6.3"))
        XCTAssertTrue(GPIOError.system(operation: "opening x", errno: EIO).description.contains("(errno \(EIO))"))
    }

    func testMissingChipIsReportedWithWhatExists() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("nodwire-nochips-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        XCTAssertThrowsError(try GPIOChip.open("gpiochip7", devDirectory: empty.path)) { error in
            XCTAssertEqual(error as? GPIOError, .chipNotFound("gpiochip7", available: []))
        }
        XCTAssertThrowsError(try GPIOChip.open("some-label", devDirectory: empty.path)) { error in
            XCTAssertEqual(error as? GPIOError, .chipNotFound("some-label", available: []))
        }
        XCTAssertThrowsError(try GPIOChip(path: empty.appendingPathComponent("gpiochip0").path)) { error in
            guard case .chipNotFound? = error as? GPIOError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(GPIOInventory.list(devDirectory: empty.path).count, 0)
        XCTAssertTrue(GPIOInventory.render([]).contains("no GPIO chips"))
    }

    func testChipDeviceNames() {
        XCTAssertTrue(GPIOChip.isChipDeviceName("gpiochip0"))
        XCTAssertTrue(GPIOChip.isChipDeviceName("gpiochip12"))
        XCTAssertFalse(GPIOChip.isChipDeviceName("gpiochip"))
        XCTAssertFalse(GPIOChip.isChipDeviceName("gpiochipX"))
    }

    func testInventoryRendersHolders() {
        let lines = [
            GPIOLineInfo(offset: 0, name: "led", consumer: "nodwire", direction: .output, activeLow: true,
                         used: true, drive: .pushPull, bias: nil),
            GPIOLineInfo(offset: 1, name: "", consumer: "", direction: .input, activeLow: false,
                         used: false, drive: .pushPull, bias: .pullUp),
        ]
        let text = GPIOInventory.render([.init(path: "/dev/gpiochip3", name: "gpiochip3", label: "sim", lines: lines, error: nil)])
        XCTAssertTrue(text.contains("gpiochip3 [sim] - 2 lines"), text)
        XCTAssertTrue(text.contains("used by \"nodwire\"") && text.contains("active-low"), text)
        XCTAssertTrue(text.contains("unnamed") && text.contains("unused") && text.contains("pull-up"), text)
    }

    func testSetCommandValidatesArguments() {
        XCTAssertThrowsError(try GPIOCommand.SetLine.parse(["--chip", "gpiochip0", "--line", "1", "--value", "2"]))
        XCTAssertThrowsError(try GPIOCommand.SetLine.parse(["--chip", "gpiochip0", "--line", "1", "--value", "1", "--hold", "-1"]))
        XCTAssertThrowsError(try GPIOCommand.SetLine.parse(["--chip", "gpiochip0", "--line", "1", "--value", "1", "--drive", "x"]))
        XCTAssertNoThrow(try GPIOCommand.SetLine.parse(["--chip", "gpiochip0", "--line", "led", "--value", "1", "--active-low", "--hold", "2"]))
    }

    // MARK: - real gpio-sim chip (NODWIRE_HW=1, inside the VM)

    struct Sim {
        let chip: String      // gpiochipN
        let label: String
        let sysfs: String     // /sys/devices/platform/gpio-sim.K/gpiochipN
        func value(_ line: Int) throws -> String {
            try String(contentsOfFile: "\(sysfs)/sim_gpio\(line)/value", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func setPull(_ line: Int, _ pull: String) throws {
            try pull.write(toFile: "\(sysfs)/sim_gpio\(line)/pull", atomically: false, encoding: .utf8)
        }
    }

    static let simNames = ["led", "switch1", "switch2", "buzzer", "", "", "", "spare"]

    /// The gpio-sim chip for these tests, made once per VM boot. Skips without NODWIRE_HW=1; fails
    /// (not skips) when NODWIRE_HW=1 but gpio-sim is missing.
    func sim() throws -> Sim {
        guard ProcessInfo.processInfo.environment["NODWIRE_HW"] == "1" else {
            throw XCTSkip("needs a real GPIO chip: set NODWIRE_HW=1 inside the hardware/vm guest (hardware/ci-hil.sh)")
        }
        let cfg = "/sys/kernel/config/gpio-sim"
        let fm = FileManager.default
        guard fm.fileExists(atPath: cfg) else {
            XCTFail("NODWIRE_HW=1 but \(cfg) is missing: gpio-sim not loaded or configfs not mounted")
            throw GPIOError.chipNotFound("gpio-sim", available: [])
        }
        let dir = "\(cfg)/nodwire-xctest"
        let label = "nodwire-xctest"
        if !fm.fileExists(atPath: dir) {
            try fm.createDirectory(atPath: "\(dir)/bank0", withIntermediateDirectories: true)
            try "8".write(toFile: "\(dir)/bank0/num_lines", atomically: false, encoding: .utf8)
            try label.write(toFile: "\(dir)/bank0/label", atomically: false, encoding: .utf8)
            for (i, n) in Self.simNames.enumerated() where !n.isEmpty {
                try fm.createDirectory(atPath: "\(dir)/bank0/line\(i)", withIntermediateDirectories: true)
                try n.write(toFile: "\(dir)/bank0/line\(i)/name", atomically: false, encoding: .utf8)
            }
            try "1".write(toFile: "\(dir)/live", atomically: false, encoding: .utf8)
        }
        let dev = try String(contentsOfFile: "\(dir)/dev_name", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let chip = try String(contentsOfFile: "\(dir)/bank0/chip_name", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return Sim(chip: chip, label: label, sysfs: "/sys/devices/platform/\(dev)/\(chip)")
    }

    func testHWOpensChipByNamePathAndLabel() throws {
        let s = try sim()
        for spec in [s.chip, "/dev/\(s.chip)", s.label, String(s.chip.dropFirst(8))] {
            let c = try GPIOChip.open(spec)
            XCTAssertEqual(c.name, s.chip, spec); XCTAssertEqual(c.label, s.label, spec); XCTAssertEqual(c.lineCount, 8, spec)
        }
        let names = try GPIOChip.open(s.chip).lines().map(\.name)
        XCTAssertEqual(names, Self.simNames)
        XCTAssertThrowsError(try GPIOChip.open("no-such-label")) { error in
            XCTAssertTrue("\(error)".contains(s.chip), "lists the chips that exist: \(error)")
        }
    }

    func testHWDrivesALineByNameAndRestoresSafeValue() throws {
        let s = try sim()
        let out = try GPIOOutputLine(GPIOLineSpec(chip: s.label, line: .name("led")))
        XCTAssertEqual(out.offset, 0)
        XCTAssertEqual(try s.value(0), "0", "requested at its safe value")
        try out.set(true)
        XCTAssertEqual(try s.value(0), "1"); XCTAssertTrue(try out.get())
        let info = try out.chip.lineInfo(0)
        XCTAssertTrue(info.used); XCTAssertEqual(info.consumer, "nodwire"); XCTAssertEqual(info.direction, .output)
        try out.set(false)
        XCTAssertEqual(try s.value(0), "0")
        try out.set(true)
        try out.release()
        XCTAssertTrue(out.isReleased)
        XCTAssertFalse(out.value, "release drove the safe value before letting go")
        XCTAssertFalse(try out.chip.lineInfo(0).used)
        XCTAssertThrowsError(try out.set(true), "a released line cannot be driven")
        XCTAssertNoThrow(try out.release(), "release twice is harmless")
    }

    func testHWActiveLowInvertsThePin() throws {
        let s = try sim()
        let out = try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .offset(1), activeLow: true))
        defer { try? out.release() }
        XCTAssertEqual(try s.value(1), "1", "logical 0 (safe) on an active-low line is a high pin")
        try out.set(true)
        XCTAssertEqual(try s.value(1), "0")
        XCTAssertTrue(try out.chip.lineInfo(1).activeLow)
    }

    func testHWBusyLineNamesTheHolder() throws {
        let s = try sim()
        let first = try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .name("switch2")))
        defer { try? first.release() }
        XCTAssertThrowsError(try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .offset(2)))) { error in
            XCTAssertEqual(error as? GPIOError, .lineBusy(chip: "\(s.chip) [\(s.label)]", line: "2 ('switch2')", holder: "nodwire"))
            XCTAssertTrue("\(error)".contains("'nodwire'"), "\(error)")
        }
    }

    func testHWUnknownLinesSayWhatIsValid() throws {
        let s = try sim()
        XCTAssertThrowsError(try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .offset(8)))) { error in
            XCTAssertTrue("\(error)".contains("0...7") && "\(error)".contains("led"), "\(error)")
        }
        XCTAssertThrowsError(try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .name("nope")))) { error in
            XCTAssertTrue("\(error)".contains("switch1"), "\(error)")
        }
    }

    func testHWDeinitReleasesTheLine() throws {
        let s = try sim()
        let chip = try GPIOChip.open(s.chip)
        do {
            let out = try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .offset(3)), on: chip)
            try out.set(true)
            XCTAssertTrue(try chip.lineInfo(3).used)
        }
        XCTAssertFalse(try chip.lineInfo(3).used, "deinit released the line")
    }

    func testHWDriveAndBiasSettings() throws {
        let s = try sim()
        for (drive, bias) in [(GPIOLineSpec.Drive.openDrain, GPIOLineSpec.Bias.pullUp), (.openSource, .pullDown), (.pushPull, .disabled)] {
            let out = try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .offset(7), drive: drive, bias: bias))
            let info = try out.chip.lineInfo(7)
            XCTAssertEqual(info.drive, drive); XCTAssertEqual(info.bias, bias)
            try out.release()
        }
    }

    func testHWInventoryShowsTheHolder() throws {
        let s = try sim()
        let out = try GPIOOutputLine(GPIOLineSpec(chip: s.chip, line: .name("buzzer")))
        defer { try? out.release() }
        guard let c = GPIOInventory.list().first(where: { $0.name == s.chip }) else { return XCTFail("sim chip not listed") }
        XCTAssertEqual(c.label, s.label)
        XCTAssertEqual(c.lines[3].consumer, "nodwire"); XCTAssertTrue(c.lines[3].used)
        XCTAssertTrue(GPIOInventory.render([c]).contains("buzzer"))
    }

    /// SIGKILL: nothing runs in the process; the kernel releases the line when its file descriptor closes,
    /// and gpio-sim then shows its pull. Runs the nodwire binary built beside this test bundle, so it checks
    /// the libgpiod version of this build (v1 in hardware/ci-hil.sh, v2 with HIL_V2=1).
    func testHWSIGKILLLeavesTheLineToTheKernel() throws {
        let s = try sim()
        let exe = ReplayTests.nodwire
        guard FileManager.default.isExecutableFile(atPath: exe) else { return XCTFail("\(exe) not built beside the test bundle") }
        defer { try? s.setPull(6, "pull-down") }
        for (pull, driven, after) in [("pull-down", 1, "0"), ("pull-up", 0, "1")] {
            try s.setPull(6, pull)
            // posix_spawn, not Foundation's Process: plain and quick under TCG.
            let args = [exe, "gpio", "set", "--chip", s.chip, "--line", "6", "--value", "\(driven)", "--hold", "30", "--settle-ms", "0"]
            var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            XCTAssertEqual(posix_spawn(&pid, exe, nil, nil, &argv, environ), 0)
            let deadline = Date().addingTimeInterval(20)
            while (try? s.value(6)) != "\(driven)" || !((try? GPIOChip.open(s.chip).lineInfo(6).used) ?? false) {
                guard Date() < deadline else { kill(pid, SIGKILL); return XCTFail("line 6 never driven to \(driven)") }
                Thread.sleep(forTimeInterval: 0.02)
            }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            XCTAssertEqual(waitpid(pid, &status, 0), pid)
            XCTAssertEqual(status & 0x7f, SIGKILL, "ended by SIGKILL")
            XCTAssertEqual(try s.value(6), after, "\(GPIOInventory.libraryDescription), \(pull): after SIGKILL the pin shows the pull")
            XCTAssertFalse(try GPIOChip.open(s.chip).lineInfo(6).used, "\(GPIOInventory.libraryDescription): the kernel released the line")
        }
    }
}
