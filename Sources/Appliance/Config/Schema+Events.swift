extension ConfigSchema {
    static var events: [SettingSpec] { [
        .optionalPath("events.socket_path", \.events.socketPath, "Unix stream socket where programs (a kiosk app) read the event lines, as `replay` prints them; `nodwire events` shows them. \"\" for none."),
        .bool("events.stdout", \.events.stdout, "Also print the event lines on standard output."),
        .int("events.client_buffer_bytes", \.events.clientBufferBytes, 4_096...16_777_216, "Unsent bytes a socket client may fall behind before it is disconnected (it may reconnect); the gesture loop never waits for a client."),
    ] }
}
