// libFuzzer entry point for the config loader (TOML text -> NodwireConfig). Built by scripts/fuzz.sh from the
// loader's sources (Sources/Appliance/Config, the settings types) and TOMLKit's, without the rest of Appliance.
// A trap or ASan report is a bug; so is an accepted file that breaks a rule the loader promises:
// every accepted config is consistent, and writing it out again and reading that back gives the same config.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let config = try ConfigLoader.parse(text, file: "fuzz.toml")
        precondition(config.problems().isEmpty, "accepted an inconsistent config")
        let written = render(config)
        do {
            let again = try ConfigLoader.parse(written, file: "written.toml")
            precondition(again == config, "writing and reading back changed the config:\n\(written)")
        } catch {
            preconditionFailure("a written config is refused: \(error)\n\(written)")
        }
    } catch {
        let message = error.description
        precondition(message.hasPrefix("fuzz.toml"), "an error message must name the file: \(message)")
    }
    return 0
}

/// Every setting of `config` as a TOML file, section by section.
func render(_ config: NodwireConfig) -> String {
    var out = ""
    var section = ""
    for spec in ConfigSchema.all {
        if spec.section != section {
            section = spec.section
            out += "[\(section)]\n"
        }
        out += "\(spec.name) = \(spec.get(config).text)\n"
    }
    return out
}
