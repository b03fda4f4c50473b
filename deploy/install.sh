#!/usr/bin/env bash
# Installs Nodwire as a systemd service (deploy/nodwire.service) running as the user `nodwire`.
#
#   sudo deploy/install.sh                         # build (release, Swift runtime linked in) and install
#   sudo deploy/install.sh --binary PATH           # install a binary built elsewhere
#   sudo deploy/install.sh --config-from deploy/EXAMPLE.toml
#   deploy/install.sh --root DIR --binary PATH     # into a folder / mounted SD-card image; nothing on this host
#
# What it does (again and again, safely): checks the binary, the model and the config before it touches
# anything; makes the groups video and gpio and the system user nodwire in them; installs
#   /usr/local/bin/nodwire, /usr/local/share/nodwire/<model>, /usr/local/share/doc/nodwire/,
#   /etc/systemd/system/nodwire.service, /etc/udev/rules.d/60-nodwire.rules,
#   /etc/nodwire/nodwire.toml (only if there is none: yours is never overwritten),
#   /etc/nodwire/web-token (the setup page's token, root:nodwire 0640; only if there is none);
# then systemctl daemon-reload, enable, restart. Without a running systemd (chroot, container) it
# enables the unit for the next boot and says so. deploy/uninstall.sh undoes it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
# shellcheck source=deploy/paths.sh
. "$here/paths.sh"

say() { echo "install: $*"; }
warn() { echo "install: warning: $*" >&2; }
die() { echo "install: error: $*" >&2; exit 1; }
usage() { sed -n '2,17s/^# \{0,1\}//p' "$0"; }

binary="" config_from="" root="" model="" start=1
need() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"; }
while [ $# -gt 0 ]; do
    case $1 in
        --binary) need "$@"; binary=$2; shift 2 ;;
        --config-from) need "$@"; config_from=$2; shift 2 ;;
        --root) need "$@"; root=$2; shift 2 ;;
        --model) need "$@"; model=$2; shift 2 ;;
        --no-start) start=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (allowed: --binary PATH, --config-from FILE, --root DIR, --model FILE, --no-start, --help)" ;;
    esac
done

# --- Where -----------------------------------------------------------------------------------------
if [ -n "$root" ]; then
    case $root in /*) ;; *) die "--root must be an absolute path, not '$root'" ;; esac
    root=${root%/}
    [ -n "$root" ] || die "--root / is the running system: leave --root out"
    mkdir -p "$root"
elif [ "$(id -u)" != 0 ]; then
    die "installing into the system needs root: sudo $0 ... (or --root DIR to install into a folder)"
fi

# --- Check everything before touching anything ------------------------------------------------------
if [ -z "$binary" ]; then
    command -v swift >/dev/null || die "no --binary given and no swift to build one (install Swift 6, or pass --binary PATH)"
    # --static-swift-stdlib: the binary carries the Swift runtime, so the service does not depend on
    # a toolchain folder (often under /home, which ProtectHome=yes hides from it).
    flags=(-c release --product nodwire --static-swift-stdlib)
    say "building: swift build ${flags[*]} (minutes on a Pi)"
    (cd "$repo" && swift build "${flags[@]}") || die "the build failed (output above)"
    binary="$(cd "$repo" && swift build "${flags[@]}" --show-bin-path)/nodwire"
fi
[ -f "$binary" ] && [ -x "$binary" ] || die "binary '$binary' does not exist or is not executable"
[ "$(head -c 4 "$binary" | od -An -c | tr -d ' ')" = '177ELF' ] || die "'$binary' is not an ELF program"

# A binary for another architecture (an aarch64 build going into a Pi image) cannot run here: then the
# config cannot be checked or generated on this machine.
runs_here=0
if "$binary" --help >/dev/null 2>&1; then runs_here=1; fi
if [ $runs_here = 1 ] && command -v ldd >/dev/null; then
    libs=$(ldd "$binary" 2>&1 || true)
    missing=$(grep 'not found' <<<"$libs" || true)
    [ -z "$missing" ] || die "'$binary' needs libraries this system lacks:
$missing
(apt install libdlib19.1 libgpiod2 libblas3 liblapack3, or see scripts/setup.sh)"
    hidden=$(grep -E '=> (/home|/root)/' <<<"$libs" || true)
    [ -z "$hidden" ] || die "'$binary' loads libraries from a home folder, which the service cannot see (ProtectHome=yes):
$hidden
Build it with --static-swift-stdlib (this script does when it builds)."
    if grep -q 'libswiftCore' <<<"$libs"; then
        warn "'$binary' links the Swift runtime dynamically ($(grep -o '/[^ ]*libswiftCore.so' <<<"$libs")): the target needs that exact path; --static-swift-stdlib avoids it"
    fi
elif [ $runs_here = 0 ]; then
    say "'$binary' does not run on this machine (another architecture?): its config is not checked here"
fi

if [ -z "$model" ]; then
    model=$repo/Models/$NODWIRE_MODEL_NAME
    [ -s "$model" ] || [ ! -x "$repo/scripts/fetch-model.sh" ] || "$repo/scripts/fetch-model.sh" || die "scripts/fetch-model.sh failed"
fi
[ -s "$model" ] || die "model '$model' is missing or empty (scripts/fetch-model.sh puts it in Models/, or pass --model FILE)"

doc_files=("$repo/hardware/WIRING.md" "$repo/hardware/wiring.svg")
for f in "$here/nodwire.service" "$here/60-nodwire.rules" "${doc_files[@]}"; do
    [ -f "$f" ] || die "'$f' is missing from this checkout"
done

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check_config() {  # file what
    [ $runs_here = 1 ] || return 0
    "$binary" config check "$1" >"$tmp/check.out" 2>&1 && return 0
    cat "$tmp/check.out" >&2
    die "$2 is refused by this nodwire (above). Fix it, or move it away to get a fresh one, and run again."
}

# The model path is written into the config as an absolute path, so the service never depends on its
# working directory. Replaces vision.model_path where it is; else adds it under [vision]; else on top.
set_model_path() {  # in out
    awk -v line="model_path = \"$DEST_MODEL\"" '
        function name(s) { gsub(/[ \t]|#.*/, "", s); return s }
        NR != FNR && FNR == 1 { section = ""; if (!found && !vision) print "vision." line }
        /^[ \t]*\[/ { section = name($0) }
        NR == FNR {
            if (section == "[vision]") { vision = 1; if (/^[ \t]*model_path[ \t]*=/) found = 1 }
            else if (section == "" && /^[ \t]*vision\.model_path[ \t]*=/) found = 1
            next
        }
        section == "[vision]" && /^[ \t]*model_path[ \t]*=/ { print line; next }
        section == "" && /^[ \t]*vision\.model_path[ \t]*=/ { print "vision." line; next }
        { print }
        section == "[vision]" && /^[ \t]*\[/ && !found { print line }
    ' "$1" "$1" > "$2"
}

config="$root$DEST_CONFIG"
if [ -e "$config" ]; then
    check_config "$config" "your $DEST_CONFIG"
    new_config=""
else
    if [ -n "$config_from" ]; then
        [ -f "$config_from" ] || die "--config-from '$config_from' does not exist"
        cp "$config_from" "$tmp/source.toml"
        origin=$config_from
    else
        [ $runs_here = 1 ] || die "cannot run '$binary' here to print the default config: pass --config-from FILE"
        "$binary" config defaults > "$tmp/source.toml"
        origin="nodwire config defaults"
    fi
    { echo "# Installed by deploy/install.sh from $origin. Yours now: install.sh never overwrites it."
      echo "# Check a change with: nodwire config check $DEST_CONFIG; apply it: systemctl reload nodwire"
      cat "$tmp/source.toml"; } > "$tmp/with-header.toml"
    set_model_path "$tmp/with-header.toml" "$tmp/nodwire.toml"
    check_config "$tmp/nodwire.toml" "the config from $origin (with vision.model_path = $DEST_MODEL)"
    new_config=$tmp/nodwire.toml
fi

# --- User and groups ------------------------------------------------------------------------------
# With --root the accounts go into DIR/etc via --root (useradd chroots there); a folder without
# etc/passwd gets nothing, and the script says what it would have done.
accounts_here=1
if [ -n "$root" ] && { [ ! -f "$root/etc/passwd" ] || [ ! -f "$root/etc/group" ]; }; then accounts_here=0; fi
rootflag=(); [ -z "$root" ] || rootflag=(--root "$root")
has_group() { if [ -n "$root" ]; then grep -q "^$1:" "$root/etc/group"; else getent group "$1" >/dev/null; fi; }
has_user() { if [ -n "$root" ]; then grep -q "^$1:" "$root/etc/passwd"; else getent passwd "$1" >/dev/null; fi; }
groups_csv=$(IFS=,; echo "${NODWIRE_GROUPS[*]}")
if [ $accounts_here = 0 ]; then
    say "no $root/etc/passwd: not making accounts; on the target run:"
    for g in "${NODWIRE_GROUPS[@]}"; do say "  getent group $g || groupadd --system $g"; done
    say "  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --groups $groups_csv $NODWIRE_USER"
else
    for g in "${NODWIRE_GROUPS[@]}"; do
        # gpio: Raspberry Pi OS has it; Debian on a PC does not (the udev rule below gives it the chips).
        has_group "$g" || { groupadd "${rootflag[@]}" --system "$g"; say "made group $g"; }
    done
    if has_user "$NODWIRE_USER"; then
        usermod "${rootflag[@]}" -a -G "$groups_csv" "$NODWIRE_USER"
        say "user $NODWIRE_USER exists; in groups $groups_csv"
    else
        # (A root without /usr/sbin/nologin makes useradd warn about the shell: not worth showing.)
        useradd "${rootflag[@]}" --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin --groups "$groups_csv" "$NODWIRE_USER" 2>"$tmp/useradd.err" \
            || { cat "$tmp/useradd.err" >&2; die "useradd $NODWIRE_USER failed"; }
        grep -v "missing or non-executable shell" "$tmp/useradd.err" >&2 || true
        say "made system user $NODWIRE_USER in groups $groups_csv"
    fi
fi

# --- Files ------------------------------------------------------------------------------------------
put() {  # mode source target
    install -D -m "$1" "$2" "$root$3.nodwire-new"
    mv -f "$root$3.nodwire-new" "$root$3"   # rename: a running nodwire keeps its old file
    say "installed $3"
}
put 0755 "$binary" "$DEST_BIN"
put 0644 "$model" "$DEST_MODEL"
for f in "${doc_files[@]}"; do put 0644 "$f" "$DEST_DOC/$(basename "$f")"; done
put 0644 "$here/60-nodwire.rules" "$DEST_UDEV_RULE"
put 0644 "$here/nodwire.service" "$DEST_UNIT"
if [ -n "$new_config" ]; then
    put 0644 "$new_config" "$DEST_CONFIG"
else
    say "kept your $DEST_CONFIG (never overwritten; 'nodwire config defaults' shows every setting)"
fi

# The setup page's token: 256 random bits as hex (safe in a URL), readable by root and the service's group
# only, made under umask 027 so it is never readable by others, not even for a moment. An existing one is
# kept: pages that hold it keep working.
token="$root$DEST_WEB_TOKEN"
if [ -e "$token" ]; then
    say "kept $DEST_WEB_TOKEN (never replaced; remove it and install again for a new one)"
else
    mkdir -p "$root$DEST_CONFIG_DIR"
    (umask 027; { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; echo; } > "$token.nodwire-new")
    if [ $accounts_here = 1 ]; then
        gid=$(if [ -n "$root" ]; then awk -F: -v g="$NODWIRE_USER" '$1 == g { print $3 }' "$root/etc/group"; else getent group "$NODWIRE_USER" | cut -d: -f3; fi)
        chown "0:$gid" "$token.nodwire-new"
    else
        say "no accounts in $root: on the target run chgrp $NODWIRE_USER $DEST_WEB_TOKEN"
    fi
    mv -f "$token.nodwire-new" "$token"
    say "made $DEST_WEB_TOKEN (the setup page's token; sudo nodwire web-url prints the address with it)"
fi

# --- systemd ----------------------------------------------------------------------------------------
if [ -n "$root" ]; then
    if command -v systemctl >/dev/null; then
        systemctl --root="$root" --quiet enable "$NODWIRE_UNIT_NAME"
        say "enabled $NODWIRE_UNIT_NAME in $root: it starts at that system's next boot"
    else
        say "no systemctl here: on the target run systemctl enable --now $NODWIRE_UNIT_NAME"
    fi
elif nodwire_systemd_running; then
    udevadm control --reload 2>/dev/null && udevadm trigger --subsystem-match=gpio --subsystem-match=dma_heap 2>/dev/null \
        || warn "could not re-apply udev rules; reboot, or: udevadm trigger"
    systemctl daemon-reload
    systemctl --quiet enable "$NODWIRE_UNIT_NAME"
    if [ $start = 1 ]; then
        # restart, not start: an upgrade must run the new binary. Type=notify: this waits for READY=1.
        if ! systemctl restart "$NODWIRE_UNIT_NAME"; then
            systemctl --no-pager status "$NODWIRE_UNIT_NAME" >&2 || true
            die "$NODWIRE_UNIT_NAME did not start (above; more: journalctl -u nodwire)"
        fi
        say "started: systemctl status nodwire; journalctl -u nodwire -f"
    else
        say "enabled, not started (--no-start): systemctl start nodwire"
    fi
else
    systemctl --root=/ --quiet enable "$NODWIRE_UNIT_NAME" 2>/dev/null \
        && say "systemd is not running here (chroot or container?): enabled for the next boot, not started" \
        || say "systemd is not running here: on the target run systemctl enable --now $NODWIRE_UNIT_NAME"
fi
