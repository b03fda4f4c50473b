#!/usr/bin/env bash
# Removes what deploy/install.sh installed: stops and disables the service, removes the unit, the udev
# rule, the binary, the model and the docs. Keeps /etc/nodwire (your settings, the web token) and the user
# nodwire unless --purge. Never removes the groups video and gpio (other programs use them).
#
#   sudo deploy/uninstall.sh [--purge]
#   deploy/uninstall.sh --root DIR [--purge]      # from a folder / mounted image, nothing on this host
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=deploy/paths.sh
. "$here/paths.sh"

say() { echo "uninstall: $*"; }
die() { echo "uninstall: error: $*" >&2; exit 1; }

root="" purge=0
while [ $# -gt 0 ]; do
    case $1 in
        --root) [ $# -ge 2 ] && [ -n "$2" ] || die "--root needs a folder"; root=${2%/}; shift 2 ;;
        --purge) purge=1; shift ;;
        -h|--help) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (allowed: --root DIR, --purge, --help)" ;;
    esac
done
if [ -n "$root" ]; then
    case $root in /*) ;; *) die "--root must be an absolute path, not '$root'" ;; esac
    [ -d "$root" ] || die "--root '$root' is not a folder"
elif [ "$(id -u)" != 0 ]; then
    die "uninstalling from the system needs root: sudo $0"
fi

# Stop first: on SIGTERM nodwire returns its outputs to the safe value and releases them.
if [ -z "$root" ] && nodwire_systemd_running; then
    systemctl disable --now --quiet "$NODWIRE_UNIT_NAME" 2>/dev/null && say "stopped and disabled $NODWIRE_UNIT_NAME" \
        || say "$NODWIRE_UNIT_NAME was not enabled or running"
elif [ -e "$root$DEST_UNIT" ] && command -v systemctl >/dev/null; then
    systemctl --root="${root:-/}" --quiet disable "$NODWIRE_UNIT_NAME" 2>/dev/null || true
fi
# The enable symlink, also where systemctl could not be used.
rm -f "$root/etc/systemd/system/multi-user.target.wants/$NODWIRE_UNIT_NAME"

nodwire_installed_files | while read -r path _mode; do
    if [ -e "$root$path" ] || [ -L "$root$path" ]; then rm -f "$root$path"; say "removed $path"; fi
done
for d in "$DEST_SHARE" "$DEST_DOC"; do
    [ ! -d "$root$d" ] || rmdir "$root$d" 2>/dev/null || say "left $d: it holds files install.sh did not put there"
done

if [ -z "$root" ] && nodwire_systemd_running; then
    systemctl daemon-reload
    udevadm control --reload 2>/dev/null || true
fi

if [ $purge = 0 ]; then
    [ ! -d "$root$DEST_CONFIG_DIR" ] || say "kept $DEST_CONFIG_DIR (the settings, the web token) and the user $NODWIRE_USER (--purge removes them)"
    exit 0
fi
rm -rf "$root$DEST_CONFIG_DIR"
say "removed $DEST_CONFIG_DIR"
rootflag=(); [ -z "$root" ] || rootflag=(--root "$root")
passwd="$root/etc/passwd"; group="$root/etc/group"
if [ -f "$passwd" ] && grep -q "^$NODWIRE_USER:" "$passwd"; then
    userdel "${rootflag[@]}" "$NODWIRE_USER"; say "removed user $NODWIRE_USER"
fi
# userdel removes the user's own group only where login.defs says USERGROUPS_ENAB yes.
if [ -f "$group" ] && grep -q "^$NODWIRE_USER:" "$group"; then
    groupdel "${rootflag[@]}" "$NODWIRE_USER"; say "removed group $NODWIRE_USER"
fi
