@testable import Appliance
import CMosquitto
import Foundation
import Logging
import Pipeline
import XCTest

/// A fleet through one Mosquitto: 50 devices publish to one broker and one subscriber reads them all.
/// The devices are the appliance's own `MQTTLink`s (one libmosquitto connection and thread each) in this
/// process, fed with event lines as a frame loop would: 50 vision pipelines do not fit on 2 cores. Reports
/// events a second through the broker and the delay from an event being handed over to the subscriber
/// receiving it (p50, p99); asserts only that every event arrives once.
final class MQTTFleetTests: XCTestCase {
    /// Receives on `nodwire/+/event` through libmosquitto's own thread, noting each arrival time.
    final class Subscriber: @unchecked Sendable {
        private let lock = NSLock()
        private var delays: [Double] = []
        private var seen = Set<String>()
        private var duplicates = 0
        private let mosq: OpaquePointer

        init(port: Int) throws {
            mosquitto_lib_init()
            mosq = mosquitto_new("fleet-reader", true, nil)
            mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
            mosquitto_connect_callback_set(mosq) { mosq, _, _ in _ = mosquitto_subscribe(mosq, nil, "nodwire/+/event", 1) }
            mosquitto_message_callback_set(mosq) { _, me, message in
                guard let m = message?.pointee, let payload = m.payload else { return }
                let text = String(decoding: UnsafeRawBufferPointer(start: payload, count: Int(m.payloadlen)), as: UTF8.self)
                Unmanaged<Subscriber>.fromOpaque(me!).takeUnretainedValue().received(text)
            }
            guard mosquitto_connect(mosq, "127.0.0.1", Int32(port), 30) == 0, mosquitto_loop_start(mosq) == 0 else {
                throw TimedOut(what: "the fleet reader's connection")
            }
        }

        func received(_ line: String) {
            let now = MonotonicClock.now()
            guard let o = jsonObject(line), let sent = o["sent"] as? Double, let id = o["id"] as? String else { return }
            lock.withLock {
                if seen.insert(id).inserted { delays.append(now - sent) } else { duplicates += 1 }
            }
        }

        var count: Int { lock.withLock { delays.count } }
        var results: (delays: [Double], duplicates: Int) { lock.withLock { (delays, duplicates) } }

        func stop() {
            mosquitto_disconnect(mosq)
            mosquitto_loop_stop(mosq, false)
            mosquitto_destroy(mosq)
        }
    }

    func testFiftyDevicesThroughOneBroker() throws {
        let broker = try TestBroker(extra: "max_queued_messages 100000")
        defer { broker.stop() }
        let reader = try Subscriber(port: broker.port)
        defer { reader.stop() }
        let (devices, rate, seconds) = (50, 10.0, 5.0)   // 500 events a second in all, each device a nod every 0.1 s
        let links = try (0..<devices).map { n -> MQTTLink in
            var s = MQTTSettings()
            s.broker = "mqtt://127.0.0.1:\(broker.port)"
            s.clientID = "fleet-\(n)"
            s.homeAssistant.discovery = false
            let link = try MQTTLink(settings: s, logger: Logger(label: "fleet") { _ in SwiftLogNoOpLogHandler() })
            link.start()
            return link
        }
        defer { for l in links { l.stop() } }
        try waitUntil("every device connected", timeout: 60) { links.allSatisfy { $0.currentHealth.connected } }
        Thread.sleep(forTimeInterval: 0.5)   // the reader's subscription

        let start = MonotonicClock.now()
        var sent = 0
        var tick = 0
        while Double(tick) / rate < seconds {
            let due = start + Double(tick) / rate
            if due > MonotonicClock.now() { Thread.sleep(forTimeInterval: due - MonotonicClock.now()) }
            for (n, link) in links.enumerated() {
                link.deliver(line: "{\"frame\":\(tick),\"time\":\(Double(tick) / rate),\"type\":\"nod\",\"cycles\":2,\"id\":\"\(n)-\(tick)\",\"sent\":\(MonotonicClock.now())}")
                sent += 1
            }
            tick += 1
        }
        try waitUntil("all \(sent) events at the reader (got \(reader.count))", timeout: 60) { reader.count == sent }
        let elapsed = MonotonicClock.now() - start
        let (delays, duplicates) = reader.results
        XCTAssertEqual(duplicates, 0)
        XCTAssertEqual(links.map { $0.counters.dropped + $0.counters.stale }.reduce(0, +), 0, "nothing dropped")
        let sorted = delays.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        // Then as fast as it goes: a burst of 200 events from each device at once (within the queue of 1000).
        let burstStart = MonotonicClock.now()
        for (n, link) in links.enumerated() {
            for k in 0..<200 {
                link.deliver(line: "{\"frame\":\(k),\"time\":0,\"type\":\"nod\",\"id\":\"b\(n)-\(k)\",\"sent\":\(MonotonicClock.now())}")
            }
        }
        try waitUntil("the burst at the reader (got \(reader.count - sent))", timeout: 120) { reader.count == sent + devices * 200 }
        let burstRate = Double(devices * 200) / (MonotonicClock.now() - burstStart)
        XCTAssertEqual(reader.results.duplicates, 0)
        print("MQTT fleet burst: \(devices * 200) events from \(devices) devices at once: \(EventJSON.number(burstRate, 0)) events/s through one Mosquitto")
        print("MQTT fleet: \(devices) devices, \(sent) events in \(EventJSON.number(elapsed, 2)) s = \(EventJSON.number(Double(sent) / elapsed, 0)) events/s through one Mosquitto; "
              + "delay to the subscriber p50 \(EventJSON.number(percentile(0.5), 1)) ms, p99 \(EventJSON.number(percentile(0.99), 1)) ms, max \(EventJSON.number(percentile(1), 1)) ms")
    }
}
