import Foundation

/// Home Assistant MQTT discovery: retained config documents under `<discovery prefix>/<component>/<node>/<object>/config`
/// that make Home Assistant show "Nodwire <client id>" with its sensors and a device trigger for each gesture.
/// Follows the per-entity discovery format of Home Assistant's MQTT integration (docs/mqtt.md says which
/// version): sensors read the retained status, the triggers the plain `<prefix>/gesture` topic.
enum HomeAssistant {
    /// The gestures a trigger exists for: the `<prefix>/gesture` payload, and the trigger's type and subtype
    /// (Home Assistant shows "subtype type": "head nod", "left look", "left look start").
    static let gestures: [(payload: String, type: String, subtype: String)] =
        [("nod", "nod", "head"), ("shake", "shake", "head")]
        + ["left", "right", "up", "down"].flatMap { d in [("look_\(d)", "look", d), ("look_start_\(d)", "look_start", d)] }

    /// The `<prefix>/gesture` payload for an event line of the stream, or nil for events that are not a gesture.
    /// Plain string tests: this runs on the frame loop's thread for every event (moves included).
    static func gesture(ofEventLine line: String) -> String? {
        for kind in ["nod", "shake", "look", "look_start"] where line.contains("\"type\":\"\(kind)\"") {
            guard kind.hasPrefix("look") else { return kind }
            for d in ["left", "right", "up", "down"] where line.contains("\"direction\":\"\(d)\"") { return "\(kind)_\(d)" }
        }
        return nil
    }

    /// A name Home Assistant accepts as node id and in unique ids: letters, digits, _ and -.
    static func nodeID(_ clientID: String) -> String {
        String(clientID.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }

    /// (topic, JSON document) for every entity and trigger of the device.
    static func documents(discoveryPrefix: String, prefix: String, clientID: String, outputs: [String]) -> [(topic: String, payload: String)] {
        let node = nodeID(clientID)
        let device: [String: Any] = [
            "identifiers": ["nodwire_\(node)"], "name": "Nodwire \(clientID)", "manufacturer": "Nodwire",
            "model": "Head-gesture appliance",
        ]
        let status = "\(prefix)/status"
        func entity(_ component: String, _ object: String, _ name: String, _ extra: [String: Any]) -> (String, [String: Any]) {
            var d: [String: Any] = ["name": name, "unique_id": "nodwire_\(node)_\(object)", "object_id": "nodwire_\(node)_\(object)",
                                    "device": device, "availability_topic": "\(prefix)/availability",
                                    "payload_available": "online", "payload_not_available": "offline"]
            d.merge(extra) { _, new in new }
            return ("\(discoveryPrefix)/\(component)/\(node)/\(object)/config", d)
        }
        func sensor(_ object: String, _ name: String, _ key: String, _ extra: [String: Any] = [:]) -> (String, [String: Any]) {
            entity("sensor", object, name, ["state_topic": status, "value_template": "{{ value_json.\(key) }}"].merging(extra) { _, new in new })
        }
        var docs: [(String, [String: Any])] = [
            entity("binary_sensor", "face", "Face present", ["state_topic": status, "device_class": "occupancy",
                                                              "value_template": "{{ 'ON' if value_json.face_present else 'OFF' }}"]),
            entity("binary_sensor", "camera", "Camera", ["state_topic": status, "device_class": "problem", "entity_category": "diagnostic",
                                                          "value_template": "{{ 'OFF' if value_json.camera == 'ok' else 'ON' }}"]),
            sensor("fps", "Frames a second", "fps", ["unit_of_measurement": "fps", "state_class": "measurement", "entity_category": "diagnostic"]),
            sensor("cpu", "CPU", "cpu_percent", ["unit_of_measurement": "%", "state_class": "measurement", "entity_category": "diagnostic"]),
            sensor("battery", "Battery", "battery_percent", ["unit_of_measurement": "%", "device_class": "battery", "state_class": "measurement"]),
            sensor("temperature", "Temperature", "celsius", ["unit_of_measurement": "°C", "device_class": "temperature", "state_class": "measurement",
                                                             "entity_category": "diagnostic"]),
            sensor("state", "State", "state"),
        ]
        for name in outputs {
            let object = "output_\(nodeID(name))"
            docs.append(entity("binary_sensor", object, "Output \(name)", ["state_topic": "\(prefix)/output/\(name)", "payload_on": "1", "payload_off": "0"]))
        }
        for g in gestures {
            docs.append(("\(discoveryPrefix)/device_automation/\(node)/\(g.payload)/config",
                         ["automation_type": "trigger", "topic": "\(prefix)/gesture", "payload": g.payload, "qos": 1,
                          "type": g.type, "subtype": g.subtype, "device": device]))
        }
        return docs.map { ($0.0, json($0.1)) }
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
