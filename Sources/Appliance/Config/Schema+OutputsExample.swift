extension ConfigSchema {
    /// The outputs example: `nodwire config defaults` prints it commented out (settings as `#key = value`,
    /// explanations as `# text`), and deploy/examples-outputs.toml is this text (a test keeps them equal).
    static let outputsExample = """
    # Nodwire outputs: which GPIO lines the gestures switch, and how.
    # Check a file with `nodwire config check FILE`, the wiring with `nodwire gpio test --config FILE`,
    # and the whole chain without a camera with `nodwire replay CLIP.y4m --outputs --config FILE`.

    # One [[outputs]] table for each line. Values are logical: 1 = "pressed" unless `safe = 1`.
    [[outputs]]
    name = "switch1"          # unique; the bindings and status_led below use it
    chip = "gpiochip0"        # chip name, number, /dev path or label (`nodwire gpio list` shows them)
    line = 17                 # offset on the chip, or the line's name in quotes ("GPIO17")
    active_low = false        # true: logical 1 drives the pin low (for inputs that are "pressed" when pulled low)
    safe = 0                  # the "not pressed" value: at start, at exit, on a fault, and whenever nothing asks for it
    drive = "push-pull"       # push-pull, open-drain or open-source (open-drain for switch inputs with their own pull-up)
    bias = "as-is"            # as-is, disabled, pull-up or pull-down

    [[outputs]]
    name = "switch2"
    chip = "gpiochip0"
    line = 27

    [[outputs]]
    name = "status"
    chip = "gpiochip0"
    line = 22

    # One [[bindings]] table for each "when EVENT, do ACTION to OUTPUT(s)".
    # event: nod, shake, look, look_start, look_stop, face_found, face_lost, calibrated.
    # direction (look, look_start, look_stop only): left, right, up or down (the person's own); leave out for any.
    # action:
    #   pulse    on for pulse_ms (default 200), then off. A new event during the pulse extends it (no second edge).
    #   hold     on while the gesture lasts: look_start until its look_stop, or face_found until face_lost;
    #            never longer than max_hold_ms (default 5000). Ends at once when the face is lost.
    #   repeat   while the gesture lasts (as hold): on for pulse_ms every 1/rate_hz seconds (default 2 Hz, half on),
    #            for switch-scanning aids.
    #   toggle   flips the output on or off; latch turns it on; release turns it off (they share one on/off state).
    # Several bindings may drive one output: it is on while ANY of them asks for it (OR), off when none does.
    [[bindings]]
    event = "nod"
    output = "switch1"
    action = "pulse"
    pulse_ms = 250

    [[bindings]]
    event = "look_start"
    direction = "right"
    output = "switch2"
    action = "hold"
    max_hold_ms = 3000

    [[bindings]]
    event = "look_start"
    direction = "down"
    outputs = ["switch1", "switch2"]
    action = "repeat"
    rate_hz = 1.5
    pulse_ms = 200
    max_hold_ms = 10000

    [[bindings]]
    event = "shake"
    output = "switch2"
    action = "toggle"

    # The status LED: an output of its own (no binding may drive it) and a pattern for each state:
    # "on", "off", or milliseconds on, off, on, off... repeating from the moment the state begins.
    # Priority: fault, then low_battery, then searching / calibrating / tracking.
    [status_led]
    output = "status"
    searching = [100, 900]            # no face: a short blink each second
    calibrating = [250, 250]          # learning the resting pose: fast even blink
    tracking = "on"                   # ready: steady on
    fault = [100, 100, 100, 700]      # camera or GPIO failure: double blink (all switches are off)
    low_battery = [50, 1950]          # a brief blink every 2 s
    fired_flash_ms = 150              # a fired binding inverts the LED this long (0: no flash)
    """
}
