# Where deploy/install.sh puts Nodwire, and what deploy/uninstall.sh removes. Sourced by both (and by
# deploy/tests/install-test.sh), so the three always agree. Paths are absolute on the target system;
# the scripts prefix them with --root DIR.
# shellcheck shell=bash disable=SC2034  # the variables are used by the scripts that source this
NODWIRE_USER=nodwire
NODWIRE_GROUPS=(video gpio)                 # camera devices / GPIO chips (see hardware/WIRING.md)
DEST_BIN=/usr/local/bin/nodwire
DEST_SHARE=/usr/local/share/nodwire      # beside ../share/nodwire of the binary: ModelLocator finds it
NODWIRE_MODEL_NAME=shape_predictor_5_face_landmarks.dat
DEST_MODEL=$DEST_SHARE/$NODWIRE_MODEL_NAME
DEST_DOC=/usr/local/share/doc/nodwire
DEST_CONFIG_DIR=/etc/nodwire
DEST_CONFIG=$DEST_CONFIG_DIR/nodwire.toml
# The setup page's token (web.token_file): made once, never replaced; root and group nodwire may read it.
DEST_WEB_TOKEN=$DEST_CONFIG_DIR/web-token
NODWIRE_UNIT_NAME=nodwire.service
DEST_UNIT=/etc/systemd/system/$NODWIRE_UNIT_NAME
DEST_UDEV_RULE=/etc/udev/rules.d/60-nodwire.rules

# Every file install.sh installs (not the config, which is the user's), with its mode.
nodwire_installed_files() {
    cat <<LIST
$DEST_BIN 0755
$DEST_MODEL 0644
$DEST_DOC/WIRING.md 0644
$DEST_DOC/wiring.svg 0644
$DEST_UNIT 0644
$DEST_UDEV_RULE 0644
LIST
}

# True when systemd is the running init of this machine (not a chroot, container or build box).
nodwire_systemd_running() { [ -d /run/systemd/system ]; }
