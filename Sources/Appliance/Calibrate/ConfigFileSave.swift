import Foundation

/// Writes settings into a person's config file safely: only the given keys change (ConfigFileEdit), the
/// result must load, the old file is kept as `FILE.bak`, and the new one replaces it atomically with the
/// old one's owner and mode (a root:nodwire 0640 file stays readable by the service and nobody else).
enum ConfigFileSave {
    struct Saved: Equatable {
        var path: String
        var backup: String
    }

    static func backupPath(_ path: String) -> String { path + ".bak" }

    /// Throws a `Failure` naming what is wrong; on any failure the config file is as it was.
    static func save(_ values: [(key: String, value: ConfigValue)], to path: String) throws -> Saved {
        // Read as the loader reads it: a file that became unreadable or not text is refused, not replaced.
        let text: String
        do { text = try ConfigLoader.text(file: path) } catch {
            throw Failure(message: "nothing written: \(error)", exitCode: ConfigError.exitCode)
        }
        let edited = ConfigFileEdit.set(values, in: text)
        do { _ = try ConfigLoader.parse(edited, file: path) } catch {
            throw Failure(message: "the proposed settings do not fit the other settings, nothing written: \(error)", exitCode: ConfigError.exitCode)
        }
        let fm = FileManager.default
        let attributes = (try? fm.attributesOfItem(atPath: path)) ?? [:]
        var keep: [FileAttributeKey: Any] = [:]
        for k in [FileAttributeKey.posixPermissions, .ownerAccountID, .groupOwnerAccountID] { keep[k] = attributes[k] }
        let backup = backupPath(path)
        do {
            try text.write(toFile: backup, atomically: true, encoding: .utf8)
            try? fm.setAttributes(keep, ofItemAtPath: backup)
            try edited.write(toFile: path, atomically: true, encoding: .utf8)
            try? fm.setAttributes(keep, ofItemAtPath: path)
        } catch {
            // Under systemd the service runs as its own user with /etc read-only: say what allows it.
            let hint = fm.isWritableFile(atPath: (path as NSString).deletingLastPathComponent) ? ""
                : " (this user may not write in its folder; under systemd see docs/web.md, \"Saving a fit\")"
            throw Failure(message: "\(path): cannot write: \(error.localizedDescription)\(hint)", exitCode: 73)
        }
        return Saved(path: path, backup: backup)
    }
}
