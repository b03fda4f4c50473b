#!/usr/bin/env bash
# CI test of deploy/: the systemd unit and install.sh / uninstall.sh, without touching this machine.
#
#   deploy/tests/install-test.sh                     # uses NODWIRE_BIN, else .build/{release,debug}/nodwire
#   NODWIRE_BIN=/path/to/nodwire deploy/tests/install-test.sh
#
# 1. `systemd-analyze verify` of the unit must print nothing and exit 0. systemd 252 exits 0 for most
#    unit mistakes (an unknown key, a bad value: it logs "ignoring" and carries on), so any output counts
#    as a failure. The test proves it catches real mistakes by breaking copies of the unit.
# 2. `systemd-analyze security --offline` must rate the unit's exposure at most 2.0 (of 10): dropping
#    hardening fails the test.
# 3. An install into a temporary root (with etc/passwd and etc/group, so the accounts are made with
#    useradd --root): every file with its mode and content, the config with the model path, the web token
#    (random, root:nodwire 0640, and `nodwire web-url` prints it), the user in video and gpio, the enable
#    link; a second install keeps a changed config and the token and adds nothing twice; refused configs
#    and bad arguments stop it before it installs anything; uninstall removes exactly what install added
#    but the config and the token, --purge those and the user too.
# Exit 0 only if every check passed; each failure is named. Needs root (useradd --root chroots).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
. deploy/paths.sh

checks=0
ok() { checks=$((checks + 1)); echo "  ok  $*"; }
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (useradd --root and groupadd --root chroot into the test root)"

# --- Tools ------------------------------------------------------------------------------------------
need_tool() {  # command package
    command -v "$1" >/dev/null && return 0
    echo "install-test: installing $2 (for $1)"
    for _ in 1 2 3 4 5 6; do   # other jobs may hold the dpkg lock
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1 && break
        sleep 10
    done
    command -v "$1" >/dev/null || fail "$1 is missing and apt-get install $2 failed"
}
need_tool systemd-analyze systemd
need_tool shellcheck shellcheck
bin=${NODWIRE_BIN:-}
if [ -z "$bin" ]; then
    for b in .build/release/nodwire .build/debug/nodwire; do [ -x "$b" ] && { bin=$repo/$b; break; }; done
fi
[ -n "$bin" ] && [ -x "$bin" ] || fail "no nodwire binary: build it (swift build --product nodwire) or set NODWIRE_BIN"
"$bin" config defaults >/dev/null || fail "$bin does not run here"
scripts/fetch-model.sh
model=Models/$NODWIRE_MODEL_NAME
echo "install-test: binary $bin"

work=$(mktemp -d /tmp/nodwire-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# --- 1. The scripts and the unit ------------------------------------------------------------------------
shellcheck -x -S warning deploy/*.sh deploy/tests/*.sh || fail "shellcheck found problems in deploy/ (above)"
ok "shellcheck -S warning: deploy/*.sh deploy/tests/*.sh"

# systemd-analyze verify:
# verify needs ExecStart's program to exist; `--root` would also need the whole systemd tree and
# /bin/kill inside the root (on 252: "Unit sysinit.target not found"). So the unit is verified as a copy
# whose ExecStart points at the binary installed in a scratch root; that is the only difference.
verify_dir=$work/verify; mkdir -p "$verify_dir/usr/local/bin"
cp "$bin" "$verify_dir/usr/local/bin/nodwire"
verify_copy() {  # unit-file sed-expression... -> $verify_dir/nodwire.service
    local src=$1; shift
    sed -e "s#^ExecStart=$DEST_BIN #ExecStart=$verify_dir$DEST_BIN #" "$@" "$src" > "$verify_dir/nodwire.service"
}
verify_strict() {  # -> 0 only if verify exits 0 and says nothing
    local out rc=0
    out=$(cd "$verify_dir" && systemd-analyze verify --man=no "$verify_dir/nodwire.service" 2>&1) || rc=$?
    [ $rc = 0 ] && [ -z "$out" ] && return 0
    printf '%s\n' "$out" > "$verify_dir/last.out"
    return 1
}
echo "install-test: systemd-analyze verify ($(systemctl --version | head -1))"
verify_copy deploy/nodwire.service
[ "$(diff deploy/nodwire.service "$verify_dir/nodwire.service" | grep -c '^>')" = 1 ] \
    || fail "the verify copy differs from deploy/nodwire.service in more than the ExecStart path"
verify_strict || fail "systemd-analyze verify deploy/nodwire.service: $(cat "$verify_dir/last.out")"
ok "verify: deploy/nodwire.service has no errors or warnings"

# Each of these must make verify complain; if one does not, the check above proves nothing.
breakages=(
    's/^ProtectSystem=strict/ProtectSytem=strict/'          # misspelt key
    's/^Type=notify/Type=notifyy/'                          # bad enum value
    's/^WatchdogSec=10s/WatchdogSec=10q/'                   # bad time span
    's/^DeviceAllow=char-gpiochip rw/DeviceAllow=char-gpiochip rwz/'
    's/^SystemCallFilter=@system-service/SystemCallFilter=@system-servic/'
    's/^RestrictAddressFamilies=.*/RestrictAddressFamilies=AF_UNIX AF_NOPE/'
    's#^ExecStart=[^ ]*#ExecStart=/nonexistent/nodwire#'     # program missing
    's/^\[Service\]/[Servce]/'                              # no [Service] at all
)
cp "$verify_dir/nodwire.service" "$verify_dir/good.service"
for b in "${breakages[@]}"; do
    verify_copy deploy/nodwire.service -e "$b"
    ! cmp -s "$verify_dir/nodwire.service" "$verify_dir/good.service" || fail "breakage '$b' no longer changes the unit (update the test)"
    if verify_strict; then fail "systemd-analyze verify accepted a broken unit ($b)"; fi
    ok "verify catches '$b': $(head -1 "$verify_dir/last.out")"
done

threshold=20   # systemd-analyze's 0-100 scale: 2.0 in its printed 0-10 scale
verify_copy deploy/nodwire.service
exposure=$(systemd-analyze security --offline=true --threshold=$threshold "$verify_dir/nodwire.service" 2>&1) \
    || fail "hardening lost: $(grep 'Overall exposure' <<<"$exposure")"
ok "security: $(grep -o 'Overall exposure level.*' <<<"$exposure")"
verify_copy deploy/nodwire.service -e 's/^ProtectSystem=strict/ProtectSystem=no/' -e '/^CapabilityBoundingSet=/d' -e '/^ProtectHome=/d'
if systemd-analyze security --offline=true --threshold=$threshold "$verify_dir/nodwire.service" >/dev/null 2>&1; then
    fail "systemd-analyze security did not notice the hardening removed"
fi
ok "security catches removed hardening"

# --- 2. Install into a temporary root -------------------------------------------------------------------
seed_root() {  # dir: a minimal etc with root and video, no gpio group (as on Debian on a PC)
    mkdir -p "$1/etc"
    printf 'root:x:0:0:root:/root:/bin/bash\n' > "$1/etc/passwd"
    printf 'root:x:0:\nvideo:x:44:\n' > "$1/etc/group"
    printf 'root:*:19000:0:99999:7:::\n' > "$1/etc/shadow"
    printf 'root:*::\nvideo:!::\n' > "$1/etc/gshadow"
    chmod 640 "$1/etc/shadow" "$1/etc/gshadow"
}
files_of() { (cd "$1" && find . \( -type f -o -type l \) ! -name '*-' ! -name .pwd.lock | sort); }   # not shadow's backups and lock
run_install() {  # log args...
    local log=$1; shift
    deploy/install.sh "$@" > "$log" 2>&1
}
mode_of() { stat -c %a "$1"; }

root=$work/root
seed_root "$root"
files_of "$root" > "$work/before.txt"
run_install "$work/install1.log" --root "$root" --binary "$bin" || { cat "$work/install1.log"; fail "install into $root failed"; }
echo "install-test: install into a temporary root"

declare -A source_of=(
    ["$DEST_BIN"]=$bin ["$DEST_MODEL"]=$model ["$DEST_UNIT"]=deploy/nodwire.service
    ["$DEST_UDEV_RULE"]=deploy/60-nodwire.rules ["$DEST_DOC/WIRING.md"]=hardware/WIRING.md
    ["$DEST_DOC/wiring.svg"]=hardware/wiring.svg
)
while read -r path mode; do
    f=$root$path
    [ -f "$f" ] || fail "install did not put $path"
    [ "$(mode_of "$f")" = "${mode#0}" ] || fail "$path has mode $(mode_of "$f"), expected $mode"
    [ -n "${source_of[$path]:-}" ] || fail "the test does not know where $path comes from (paths.sh changed?)"
    cmp -s "$f" "${source_of[$path]}" || fail "$path differs from ${source_of[$path]}"
    ok "$path (mode $mode, same as ${source_of[$path]})"
done < <(nodwire_installed_files)

cfg=$root$DEST_CONFIG
[ -f "$cfg" ] || fail "no $DEST_CONFIG"
[ "$(mode_of "$cfg")" = 644 ] || fail "$DEST_CONFIG has mode $(mode_of "$cfg")"
grep -qx "model_path = \"$DEST_MODEL\"" "$cfg" || fail "$DEST_CONFIG does not set model_path = \"$DEST_MODEL\""
[ "$(grep -c 'model_path' "$cfg")" = 1 ] || fail "$DEST_CONFIG sets model_path more than once"
"$bin" config check "$cfg" >/dev/null || fail "the installed config is refused by nodwire config check"
diff <("$bin" config defaults | grep -v model_path) <(grep -v model_path "$cfg" | sed '1,2d') >/dev/null \
    || fail "the installed config is not 'nodwire config defaults' with the model path"
ok "$DEST_CONFIG: the defaults, model_path = $DEST_MODEL, accepted by config check"

grep -qx "$NODWIRE_USER:x:[0-9]*:[0-9]*::/nonexistent:/usr/sbin/nologin" "$root/etc/passwd" \
    || fail "no system user $NODWIRE_USER in etc/passwd: $(cat "$root/etc/passwd")"
for g in "${NODWIRE_GROUPS[@]}"; do
    grep -Eq "^$g:x:[0-9]+:(.*,)?$NODWIRE_USER(,.*)?$" "$root/etc/group" || fail "$NODWIRE_USER is not in group $g: $(cat "$root/etc/group")"
done
ok "user $NODWIRE_USER (nologin, no home) in groups ${NODWIRE_GROUPS[*]}; gpio made as it was missing"
link=$root/etc/systemd/system/multi-user.target.wants/$NODWIRE_UNIT_NAME
[ "$(readlink "$link")" = "$DEST_UNIT" ] || fail "not enabled: $link -> '$(readlink "$link" || true)'"
ok "enabled: multi-user.target.wants/$NODWIRE_UNIT_NAME -> $DEST_UNIT"

# The setup page's token: 64 hex digits (256 bits), one line, root:nodwire 0640 (the service's group reads it).
tok=$root$DEST_WEB_TOKEN
[ -f "$tok" ] || fail "no $DEST_WEB_TOKEN"
gid=$(awk -F: -v g="$NODWIRE_USER" '$1 == g { print $3 }' "$root/etc/group")
[ "$(stat -c '%a %u %g' "$tok")" = "640 0 $gid" ] || fail "$DEST_WEB_TOKEN is $(stat -c '%a %u:%g' "$tok"), expected 640 0:$gid (root:$NODWIRE_USER)"
grep -Eqx '[0-9a-f]{64}' "$tok" && [ "$(wc -l < "$tok")" = 1 ] || fail "$DEST_WEB_TOKEN is not one line of 64 hex digits: $(wc -c < "$tok") bytes"
grep -q "made $DEST_WEB_TOKEN" "$work/install1.log" || fail "install did not say it made $DEST_WEB_TOKEN"
token_value=$(cat "$tok")
# As the unit runs it (User=nodwire, Group=nodwire; ProtectSystem=strict leaves /etc readable): the service
# reads it, another user does not. (The scratch folder is opened for passing through, not for listing.)
uid=$(awk -F: -v u="$NODWIRE_USER" '$1 == u { print $3 }' "$root/etc/passwd")
chmod 711 "$work"
setpriv --reuid="$uid" --regid="$gid" --clear-groups cat "$tok" >/dev/null 2>&1 || fail "user $NODWIRE_USER (uid $uid, gid $gid) cannot read $DEST_WEB_TOKEN"
if setpriv --reuid=65534 --regid=65534 --clear-groups cat "$tok" >/dev/null 2>&1; then fail "another user can read $DEST_WEB_TOKEN"; fi
chmod 700 "$work"
printf '[web]\nenable = true\nlisten = "0.0.0.0:8080"\ntoken_file = "%s"\n' "$tok" > "$work/web.toml"
"$bin" web-url --config "$work/web.toml" > "$work/web-url.out" 2>&1 || fail "nodwire web-url with the token: $(cat "$work/web-url.out")"
[ -s "$work/web-url.out" ] && ! grep -qv "^http://.*:8080/#token=$token_value\$" "$work/web-url.out" \
    || fail "nodwire web-url does not print the installed token on every line: $(cat "$work/web-url.out")"
ok "$DEST_WEB_TOKEN: 256 random bits in hex, root:$NODWIRE_USER 0640, read by the service's user only; nodwire web-url prints it ($(wc -l < "$work/web-url.out") addresses)"

# The unit as installed passes verify too (it is the file from deploy/, but check what landed).
verify_copy "$root$DEST_UNIT"
verify_strict || fail "verify of the installed unit: $(cat "$verify_dir/last.out")"
ok "verify: the installed unit"

# --- 3. Second install: the config is the user's; nothing is added twice ---------------------------------
echo "# changed by the installer's test" >> "$cfg"
sed -i 's/^min_face_size = .*/min_face_size = 80.0/' "$cfg"
sum=$(sha256sum < "$cfg")
chmod 600 "$tok"   # the person's own choice, kept as it is
cp "$root/etc/passwd" "$work/passwd1"; cp "$root/etc/group" "$work/group1"
run_install "$work/install2.log" --root "$root" --binary "$bin" || { cat "$work/install2.log"; fail "second install failed"; }
[ "$(sha256sum < "$cfg")" = "$sum" ] || fail "the second install changed the config"
grep -q "kept your $DEST_CONFIG" "$work/install2.log" || fail "the second install did not say it kept the config"
[ "$(cat "$tok")" = "$token_value" ] && [ "$(stat -c %a "$tok")" = 600 ] || fail "the second install replaced or changed $DEST_WEB_TOKEN"
grep -q "kept $DEST_WEB_TOKEN" "$work/install2.log" || fail "the second install did not say it kept $DEST_WEB_TOKEN"
chmod 640 "$tok"
cmp -s "$root/etc/passwd" "$work/passwd1" && cmp -s "$root/etc/group" "$work/group1" \
    || fail "the second install changed passwd/group: $(diff "$work/group1" "$root/etc/group")"
ok "second install: changed config and the token kept (and said so); passwd and group unchanged"

# A changed config the binary refuses stops an upgrade before anything is replaced.
cp "$cfg" "$work/good.toml"
echo 'no_such_key = 1' >> "$cfg"
touch -d '2000-01-01' "$root$DEST_BIN"
if run_install "$work/install3.log" --root "$root" --binary "$bin"; then fail "install went on with a refused config"; fi
grep -q "no_such_key" "$work/install3.log" || fail "the refusal does not name the bad key: $(cat "$work/install3.log")"
[ "$(stat -c %Y "$root$DEST_BIN")" = "$(date -d 2000-01-01 +%s)" ] || fail "the binary was replaced although the config is refused"
cp "$work/good.toml" "$cfg"
ok "a refused existing config stops the install before it replaces anything, and names the key"

# --- 4. --config-from, refused input, bad arguments -----------------------------------------------------
root2=$work/root2; seed_root "$root2"
printf '[gestures]\nrefractory = 1.5\n' > "$work/example.toml"
run_install "$work/from.log" --root "$root2" --binary "$bin" --config-from "$work/example.toml" \
    || { cat "$work/from.log"; fail "install --config-from failed"; }
grep -qx "vision.model_path = \"$DEST_MODEL\"" "$root2$DEST_CONFIG" || fail "--config-from without [vision] did not get the model path"
grep -qx 'refractory = 1.5' "$root2$DEST_CONFIG" || fail "--config-from lost the file's settings"
"$bin" config check "$root2$DEST_CONFIG" >/dev/null || fail "the --config-from config is refused after adding the model path"
ok "--config-from FILE: installed with vision.model_path added, accepted by config check"

for example in deploy/*.toml; do
    [ -e "$example" ] || continue
    r=$work/ex-$(basename "$example" .toml); seed_root "$r"
    run_install "$work/ex.log" --root "$r" --binary "$bin" --config-from "$example" \
        || { cat "$work/ex.log"; fail "install --config-from $example failed"; }
    ok "--config-from $example installs and passes config check"
done

root3=$work/root3; seed_root "$root3"
printf '[vision]\nmin_face_size = 5000\n' > "$work/bad.toml"
if run_install "$work/bad.log" --root "$root3" --binary "$bin" --config-from "$work/bad.toml"; then fail "install accepted a refused config"; fi
grep -q "min_face_size" "$work/bad.log" || fail "the refusal does not name min_face_size: $(cat "$work/bad.log")"
files_of "$root3" > "$work/root3.txt"
! grep -qv '^./etc/\(passwd\|group\|shadow\|gshadow\)$' "$work/root3.txt" || fail "a refused install left files: $(cat "$work/root3.txt")"
ok "a refused --config-from stops the install before anything is written"

expect_error() {  # what pattern args...
    local what=$1 pattern=$2; shift 2
    if deploy/install.sh "$@" > "$work/err.log" 2>&1; then fail "install.sh accepted $what"; fi
    grep -q "$pattern" "$work/err.log" || fail "install.sh $what: message lacks '$pattern': $(cat "$work/err.log")"
    ok "install.sh refuses $what: $(grep -m1 error "$work/err.log")"
}
expect_error "a relative --root" "absolute path" --root relative/dir --binary "$bin"
expect_error "a missing binary" "does not exist" --root "$work/x" --binary "$work/none"
expect_error "a non-ELF binary" "not an ELF" --root "$work/x" --binary deploy/install.sh
expect_error "an unknown option" "unknown argument '--frobnicate'" --frobnicate
expect_error "--binary without a value" "needs a value" --binary

# A binary that cannot run here (as an aarch64 build on this PC): /bin/false stands in (an ELF that fails).
expect_error "a foreign binary without --config-from" "pass --config-from" --root "$work/foreign" --binary /bin/false
root5=$work/foreign; seed_root "$root5"
run_install "$work/foreign.log" --root "$root5" --binary /bin/false --config-from "$work/example.toml" \
    || { cat "$work/foreign.log"; fail "install of a foreign binary with --config-from failed"; }
grep -q "does not run on this machine" "$work/foreign.log" || fail "no word that the foreign binary's config is unchecked"
grep -qx "vision.model_path = \"$DEST_MODEL\"" "$root5$DEST_CONFIG" || fail "foreign binary: config without the model path"
ok "a binary that cannot run here: refused without --config-from; with it, installed and said unchecked"

# A root without accounts: says what it would do instead of touching this host's accounts.
root4=$work/root4; mkdir -p "$root4"
run_install "$work/noacct.log" --root "$root4" --binary "$bin" || { cat "$work/noacct.log"; fail "install into a bare root failed"; }
grep -q "useradd --system .* $NODWIRE_USER" "$work/noacct.log" || fail "a bare root: no word about the accounts"
[ ! -e "$root4/etc/passwd" ] || fail "a bare root got an etc/passwd"
[ "$(stat -c '%a %u %g' "$root4$DEST_WEB_TOKEN")" = "640 0 0" ] || fail "a bare root: $DEST_WEB_TOKEN is $(stat -c '%a %u:%g' "$root4$DEST_WEB_TOKEN"), expected 640 root:root"
grep -q "chgrp $NODWIRE_USER $DEST_WEB_TOKEN" "$work/noacct.log" || fail "a bare root: no word that the token needs group $NODWIRE_USER"
ok "a root without etc/passwd: files installed, the token root's only (chgrp described), accounts described, not made"

# --- 5. Uninstall ----------------------------------------------------------------------------------------
echo "install-test: uninstall"
deploy/uninstall.sh --root "$root" > "$work/un.log" 2>&1 || { cat "$work/un.log"; fail "uninstall failed"; }
diff "$work/before.txt" <(files_of "$root") | grep '^[<>]' > "$work/left.txt" || true
[ "$(cat "$work/left.txt")" = "$(printf '> .%s\n> .%s' "$DEST_CONFIG" "$DEST_WEB_TOKEN")" ] \
    || fail "uninstall left or removed more than the config and the web token: $(cat "$work/left.txt")"
[ "$(cat "$tok")" = "$token_value" ] || fail "uninstall changed $DEST_WEB_TOKEN"
for d in "$DEST_SHARE" "$DEST_DOC"; do [ ! -e "$root$d" ] || fail "uninstall left $d"; done
grep -q "^$NODWIRE_USER:" "$root/etc/passwd" || fail "uninstall without --purge removed the user"
ok "uninstall: every installed file, the enable link and our folders gone; config, web token and user kept"
deploy/uninstall.sh --root "$root" > "$work/un2.log" 2>&1 || { cat "$work/un2.log"; fail "a second uninstall failed"; }
ok "a second uninstall is harmless"
deploy/uninstall.sh --root "$root" --purge > "$work/purge.log" 2>&1 || { cat "$work/purge.log"; fail "uninstall --purge failed"; }
[ -z "$(diff "$work/before.txt" <(files_of "$root"))" ] || fail "after --purge files remain: $(diff "$work/before.txt" <(files_of "$root"))"
[ ! -e "$root$DEST_CONFIG_DIR" ] && [ ! -e "$tok" ] || fail "--purge left $DEST_CONFIG_DIR or $DEST_WEB_TOKEN"
! grep -q "$NODWIRE_USER" "$root/etc/passwd" "$root/etc/group" || fail "--purge left the user or its group: $(grep "$NODWIRE_USER" "$root/etc/passwd" "$root/etc/group")"
grep -q '^gpio:' "$root/etc/group" || fail "--purge removed the gpio group (other programs use it)"
ok "uninstall --purge: back to the files before install (config and token gone); user gone, groups video and gpio stay"

echo "install-test: all $checks checks passed"
