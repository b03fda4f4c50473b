@testable import Appliance
import XCTest

/// The Home Assistant discovery documents, checked against the fields Home Assistant's MQTT integration
/// requires (device trigger: automation_type, topic, type, subtype, device; sensor: state_topic, and
/// unique_id with a device to join the device registry).
final class MQTTHomeAssistantTests: XCTestCase {
    static let docs = HomeAssistant.documents(discoveryPrefix: "homeassistant", prefix: "nodwire/kiosk.7", clientID: "kiosk.7", outputs: ["yes", "no"])

    private func objects(_ component: String) throws -> [(topic: String, doc: [String: Any])] {
        try Self.docs.filter { $0.topic.hasPrefix("homeassistant/\(component)/") }.map { ($0.topic, try XCTUnwrap(jsonObject($0.payload), $0.payload)) }
    }

    func testDeviceTriggersHaveWhatHomeAssistantRequires() throws {
        let triggers = try objects("device_automation")
        XCTAssertEqual(triggers.count, 10, "nod, shake, and look and look_start in four directions")
        var pairs = Set<String>()
        for (topic, d) in triggers {
            XCTAssertTrue(topic.range(of: #"^homeassistant/device_automation/kiosk_7/[a-z_]+/config$"#, options: .regularExpression) != nil, topic)
            XCTAssertEqual(d["automation_type"] as? String, "trigger")
            XCTAssertEqual(d["topic"] as? String, "nodwire/kiosk.7/gesture")
            XCTAssertNotNil(d["payload"] as? String)
            let (type, subtype) = (try XCTUnwrap(d["type"] as? String), try XCTUnwrap(d["subtype"] as? String))
            XCTAssertTrue(pairs.insert("\(type)/\(subtype)").inserted, "type and subtype unique for the device: \(type) \(subtype)")
            let device = try XCTUnwrap(d["device"] as? [String: Any])
            XCTAssertEqual(device["identifiers"] as? [String], ["nodwire_kiosk_7"])
            XCTAssertEqual(device["name"] as? String, "Nodwire kiosk.7")
        }
        XCTAssertEqual(Set(triggers.compactMap { $0.doc["payload"] as? String }), Set(HomeAssistant.gestures.map(\.payload)))
    }

    func testSensorsReadTheStatusAndJoinTheDevice() throws {
        let sensors = try objects("sensor") + objects("binary_sensor")
        XCTAssertTrue(sensors.contains { $0.doc["name"] as? String == "Face present" })
        for name in ["Frames a second", "Battery", "Camera", "Output yes", "Output no"] {
            XCTAssertTrue(sensors.contains { $0.doc["name"] as? String == name }, name)
        }
        var ids = Set<String>()
        for (topic, d) in sensors {
            XCTAssertTrue(topic.hasSuffix("/config"), topic)
            let state = try XCTUnwrap(d["state_topic"] as? String, topic)
            XCTAssertTrue(state == "nodwire/kiosk.7/status" || state.hasPrefix("nodwire/kiosk.7/output/"), state)
            XCTAssertTrue(ids.insert(try XCTUnwrap(d["unique_id"] as? String)).inserted)
            XCTAssertNotNil((d["device"] as? [String: Any])?["identifiers"])
            XCTAssertEqual(d["availability_topic"] as? String, "nodwire/kiosk.7/availability")
        }
        // The templates read keys the status really has.
        let status = try XCTUnwrap(jsonObject(MQTTStatus.json(previous: .init(), current: .init(), seconds: 1, cpuSeconds: 0,
                                                                link: MQTTLink(settings: .init(broker: "mqtt://h"), logger: .init(label: "t")))))
        for (_, d) in sensors {
            guard let template = d["value_template"] as? String, let key = template.firstMatch(of: /value_json\.([a-z_]+)/)?.1 else { continue }
            XCTAssertTrue(status.keys.contains(String(key)), "status has \(key)")
        }
    }

    func testGestureNamesFromEventLines() {
        XCTAssertEqual(HomeAssistant.gesture(ofEventLine: #"{"frame":1,"time":0.1,"type":"nod","cycles":2}"#), "nod")
        XCTAssertEqual(HomeAssistant.gesture(ofEventLine: #"{"frame":1,"time":0.1,"type":"look","direction":"up","distance":14}"#), "look_up")
        XCTAssertEqual(HomeAssistant.gesture(ofEventLine: #"{"frame":1,"time":0.1,"type":"look_start","direction":"left"}"#), "look_start_left")
        XCTAssertNil(HomeAssistant.gesture(ofEventLine: #"{"frame":1,"time":0.1,"type":"look_stop","direction":"left"}"#))
        XCTAssertNil(HomeAssistant.gesture(ofEventLine: #"{"frame":1,"time":0.1,"type":"move"}"#))
    }
}
