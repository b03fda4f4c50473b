// What the setup page costs: `swift build -c release --product nodwire && swift run -c release NodwireBench --web [SECONDS]`.
//
// Runs the release `nodwire run` (beside this benchmark in .build/release) on clm_look in real time with
// `[web]` on, three times for SECONDS each (default 20, after 5 s to settle): without `[web]`, with `[web]`
// and nobody watching, and with one viewer as the page is one (the event stream read all along, and the
// picture fetched five times a second, one at a time). Prints the process's CPU (user + system, from
// /proc) as a percentage of one core for each, and the viewer's cost: the difference. Target (issue 12):
// under 2% of a core for one viewer; none measurable with nobody watching.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

func runWebBench(_ args: [String]) {
    let seconds = args.first.flatMap(Double.init) ?? 20
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let nodwire = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("nodwire").path
    guard FileManager.default.isExecutableFile(atPath: nodwire) else { fail("no \(nodwire): swift build -c release --product nodwire first") }
    let clip = ".build-fixtures/clm_look.y4m"
    guard FileManager.default.fileExists(atPath: clip) else { fail("no \(clip) (scripts/fixtures.sh)") }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))

    func cpuSeconds(_ pid: Int32) -> Double {
        // /proc/PID/stat: fields 14 and 15 (utime, stime) in clock ticks, after the ")" that ends the name.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
    }

    // One session, so pictures come over one kept-alive connection as a browser's do.
    let session = URLSession(configuration: .ephemeral)
    func fetch(_ url: URL) -> Bool {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var ok = false
        session.dataTask(with: url) { data, response, _ in
            ok = (response as? HTTPURLResponse)?.statusCode == 200 && (data?.count ?? 0) > 100
            done.signal()
        }.resume()
        done.wait()
        return ok
    }

    func measure(_ label: String, web: Bool, viewer: Bool) {
        let port = 18_000 + Int(getpid() % 1000)
        let config = NSTemporaryDirectory() + "webbench-\(getpid()).toml"
        let text = "[budget]\ncpu_percent = 400.0\n" + (web ? "[web]\nenable = true\nlisten = \"127.0.0.1:\(port)\"\n" : "")
        try? text.write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: nodwire)
        p.arguments = ["run", "--source", clip, "--loop", "--gpio", "dry-run", "--config", config]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { fail("cannot start \(nodwire): \(error)") }
        defer { p.terminate(); p.waitUntilExit() }
        Thread.sleep(forTimeInterval: 5)
        var stream: Process?
        if viewer {
            let s = Process()
            s.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            s.arguments = ["-s", "-N", "-o", "/dev/null", "http://127.0.0.1:\(port)/api/events"]
            try? s.run()
            stream = s
        }
        defer { stream?.terminate() }
        let start = Date(), cpu0 = cpuSeconds(p.processIdentifier)
        var pictures = 0
        while Date().timeIntervalSince(start) < seconds {
            if viewer {
                let t0 = Date()
                if fetch(URL(string: "http://127.0.0.1:\(port)/api/picture.jpg")!) { pictures += 1 }
                Thread.sleep(forTimeInterval: max(0, 0.2 - Date().timeIntervalSince(t0)))
            } else {
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        let cpu = (cpuSeconds(p.processIdentifier) - cpu0) / Date().timeIntervalSince(start) * 100
        print(String(format: "  %-36@ %5.2f %% of a core%@", label as NSString, cpu, viewer ? " (\(pictures) pictures)" as NSString : "" as NSString))
        results[label] = cpu
    }
    var results: [String: Double] = [:]
    print("web: nodwire run on \(clip) in real time, \(Int(seconds)) s each (release build)")
    measure("no [web]", web: false, viewer: false)
    measure("[web], nobody watching", web: true, viewer: false)
    measure("[web], one viewer (stream + 5 pictures/s)", web: true, viewer: true)
    if let a = results["[web], nobody watching"], let b = results["[web], one viewer (stream + 5 pictures/s)"], let c = results["no [web]"] {
        print(String(format: "  nobody watching costs %+.2f %%, one viewer %+.2f %% of a core (target < 2)", a - c, b - a))
    }
}
