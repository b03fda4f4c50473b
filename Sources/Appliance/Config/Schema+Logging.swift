extension ConfigSchema {
    static var logging: [SettingSpec] { [
        .choice("logging.level", \.logging.level, "Least severe messages written: trace, debug (a status line every few seconds), info, notice, warning, error, critical."),
        .choice("logging.format", \.logging.format, "terminal: time, level, message; journal: one line an event with a syslog level prefix and no time (journald adds it); auto: journal under systemd, else terminal."),
    ] }
}
