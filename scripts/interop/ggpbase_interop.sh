#!/usr/bin/env bash
# Interoperability check: ggp-base's own match server (GameServer) runs matches between our
# player (`ggp serve`) and ggp-base's sample players, in both seats, on local .kif files;
# then check_ggpbase_matches.py reads the match JSON the server wrote and fails if our
# player has any entry in its `errors` field (ggp-base silently replaces illegal or late
# moves and records them only there). Two more parts, on by default:
#   * a negative control: one ticTacToe match against ggp-base's SampleNoopGamer (it
#     answers NOOP to everything), whose errors the checker must find;
#   * our manager (`ggp manage`) against each ggp-base gamer, both seats, on each game;
#     no player may have an error in our manager's records.
#
#   GGPBASE_DIR=/path/to/built/ggp-base scripts/interop/ggpbase_interop.sh [OUT_DIR]
#
# GGPBASE_DIR is a ggp-base source tree (github.com/ggp-org/ggp-base) that is already
# built, kept outside this repository; this script does not build it (see
# docs/ggp_protocol.md). Its classes are looked for in build/classes,
# build/classes/java/main (Gradle) or build/libs/*.jar, its libraries in lib/**.jar;
# GGPBASE_CLASSPATH overrides all of that.
#
# Settings (environment):
#   GAMES         .kif files or names in $GDL_DIR   (ticTacToe connectFour)
#   GAMERS        ggp-base gamer classes (simple names)   (RandomGamer SampleMonteCarloGamer)
#   START_CLOCK   seconds (10)     PLAY_CLOCK  seconds (3)
#   SEATS         "0 1": our player in role 0 and in role 1 (both)
#   SCRAMBLE      1: let the server rename every symbol, as Tiltyard does (0)
#   PREVIEW_CLOCK seconds: the server sends PREVIEW before START (unset: no PREVIEW)
#   CONTROL       1: the SampleNoopGamer control match (1)
#   MANAGE        1: `ggp manage` against each gamer too (1)
#   GGP           command that runs our CLI (ggp)      PYTHON   (python3)   JAVA (java)
#   GDL_DIR       (/work/shared/gdl/perfect)
#   NETNS         auto: rerun inside a user+network namespace with only loopback when
#                 `unshare -rn` works (ggp-base's players bind every interface); 0: never
# Exit status: 0 when every match completed and our player has no error; 1 otherwise;
# 3 when ggp-base is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT_DIR="${1:-ggpbase-interop-$(date -u +%Y%m%dT%H%M%S)}"
GAMES="${GAMES:-ticTacToe connectFour}"
GAMERS="${GAMERS:-RandomGamer SampleMonteCarloGamer}"
START_CLOCK="${START_CLOCK:-10}"
PLAY_CLOCK="${PLAY_CLOCK:-3}"
SEATS="${SEATS:-0 1}"
SCRAMBLE="${SCRAMBLE:-0}"
PREVIEW_CLOCK="${PREVIEW_CLOCK:-}"
CONTROL="${CONTROL:-1}"
MANAGE="${MANAGE:-1}"
GGP="${GGP:-ggp}"
PYTHON="${PYTHON:-python3}"
JAVA="${JAVA:-java}"
GDL_DIR="${GDL_DIR:-/work/shared/gdl/perfect}"
NETNS="${NETNS:-auto}"
OUR_NAME="ggp-python"
OUR_PORT="${OUR_PORT:-9147}"
THEIR_PORT="${THEIR_PORT:-9148}"
JVM_OPTS=(-Xmx768m -XX:+UseSerialGC -XX:TieredStopAtLevel=1)

die() { echo "ggpbase_interop: $1" >&2; exit "${2:-1}"; }

# ---- ggp-base's class path --------------------------------------------------------------
classpath() {
  if [[ -n "${GGPBASE_CLASSPATH:-}" ]]; then echo "$GGPBASE_CLASSPATH"; return; fi
  [[ -n "${GGPBASE_DIR:-}" ]] || die "set GGPBASE_DIR to a built ggp-base source tree" 3
  [[ -d "$GGPBASE_DIR" ]] || die "GGPBASE_DIR=$GGPBASE_DIR is not a directory" 3
  local dir parts=()
  for dir in build/classes/java/main build/resources/main build/classes; do
    if [[ -d "$GGPBASE_DIR/$dir/org" ]]; then parts+=("$GGPBASE_DIR/$dir"); fi
  done
  while IFS= read -r jar; do parts+=("$jar"); done < <(
    find "$GGPBASE_DIR/build/libs" "$GGPBASE_DIR/lib" -name '*.jar' ! -name '*-sources.jar' \
      2>/dev/null | sort)
  local IFS=:
  echo "${parts[*]}"
}
CP="$(classpath)"
has_class() {  # is ggp-base's GameServer on the class path?
  local entry IFS=:
  for entry in $CP; do
    [[ -f "$entry/org/ggp/base/server/GameServer.class" ]] && return 0
    if [[ "$entry" == *.jar ]] && "$PYTHON" -c 'import sys, zipfile
sys.exit("org/ggp/base/server/GameServer.class" not in zipfile.ZipFile(sys.argv[1]).namelist())' \
      "$entry" 2>/dev/null; then return 0; fi
  done
  return 1
}
has_class || die "no compiled ggp-base (org.ggp.base.server.GameServer) under GGPBASE_DIR=${GGPBASE_DIR:-} - build it first" 3
command -v "$JAVA" >/dev/null || die "no java ($JAVA)" 3

# ---- loopback only ------------------------------------------------------------------------
if [[ "$NETNS" != 0 && -z "${GGP_INTEROP_IN_NETNS:-}" ]] && unshare -rn true 2>/dev/null; then
  exec unshare -rn env GGP_INTEROP_IN_NETNS=1 GGPBASE_CLASSPATH="$CP" bash "$0" "$OUT_DIR"
fi
if [[ -n "${GGP_INTEROP_IN_NETNS:-}" ]]; then
  ip link set lo up 2>/dev/null || "$PYTHON" - <<'EOF' || die "cannot bring up loopback"
import fcntl, socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
req = struct.pack("16sH", b"lo", 0)
flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, req))[1]  # SIOCGIFFLAGS
fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))  # SIOCSIFFLAGS |= IFF_UP
EOF
  echo "running in a network namespace with only loopback"
else
  echo "warning: no network namespace; ggp-base's sample players listen on all interfaces" >&2
fi

mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
pids=()
cleanup() { local pid; for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

wait_for_player() {  # port: poll with (INFO) until it answers, at most 60 s
  "$PYTHON" - "$1" <<'EOF'
import socket, sys, time
port, end = int(sys.argv[1]), time.monotonic() + 60
body = b"( INFO )"
while time.monotonic() < end:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: %d\r\n\r\n%s"
                      % (len(body), body))
            if s.recv(4096).startswith(b"HTTP/1.0 200"):
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.5)
sys.exit(1)
EOF
}

game_file() {
  if [[ -f "$1" ]]; then echo "$1"; else echo "$GDL_DIR/$1.kif"; fi
}
for game in $GAMES; do [[ -f "$(game_file "$game")" ]] || die "no game file for $game" 3; done

# ---- our player: one process for every match -------------------------------------------
$GGP serve --port "$OUR_PORT" --name "$OUR_NAME" --max-seconds 3600 -v \
  > "$OUT_DIR/ours.log" 2>&1 &
pids+=($!)
wait_for_player "$OUR_PORT" || die "our player did not come up (see $OUT_DIR/ours.log)"

runner_opts=()
if [[ "$SCRAMBLE" == 1 ]]; then runner_opts+=(--scramble); fi
if [[ -n "$PREVIEW_CLOCK" ]]; then runner_opts+=(--preview "$PREVIEW_CLOCK"); fi
failed=0

server_match() {  # game gamer seat: one match on ggp-base's server
  local game="$1" gamer="$2" seat="$3" name players match
  name="$(basename "${game%.*}")"
  if [[ "$seat" == 0 ]]; then
    players=("$OUR_NAME=127.0.0.1:$OUR_PORT" "$gamer=127.0.0.1:$THEIR_PORT")
  else
    players=("$gamer=127.0.0.1:$THEIR_PORT" "$OUR_NAME=127.0.0.1:$OUR_PORT")
  fi
  match="$name.$gamer.seat$seat"
  echo "== ggp-base server: $match (start $START_CLOCK s, play $PLAY_CLOCK s)"
  "$JAVA" "${JVM_OPTS[@]}" -cp "$CP" "$here/LocalMatchRunner.java" "$(game_file "$game")" \
    "$match" "$START_CLOCK" "$PLAY_CLOCK" "$OUT_DIR/$match.json" "${runner_opts[@]}" \
    "${players[@]}" > "$OUT_DIR/$match.log" 2>&1 || failed=1
  tail -n 1 "$OUT_DIR/$match.log"
}

manager_matches() {  # game gamer: `ggp manage`, our player and the gamer in both seats
  local game="$1" gamer="$2" name
  name="$(basename "${game%.*}")"
  echo "== ggp manage: $name, ours vs $gamer (2 matches, seats rotated)"
  $GGP manage "$(game_file "$game")" -p "ours=http://127.0.0.1:$OUR_PORT/" \
    -p "$gamer=http://127.0.0.1:$THEIR_PORT/" --matches 2 --start-clock "$START_CLOCK" \
    --play-clock "$PLAY_CLOCK" --no-report --out "$OUT_DIR/manage/$name.$gamer" \
    > "$OUT_DIR/manage.$name.$gamer.log" 2>&1 || failed=1
  grep -E '^m[0-9a-f]+:' "$OUT_DIR/manage.$name.$gamer.log" || tail -n 3 "$OUT_DIR/manage.$name.$gamer.log"
}

gamers="$GAMERS"
if [[ "$CONTROL" == 1 ]]; then gamers+=" SampleNoopGamer"; fi
for gamer in $gamers; do
  "$JAVA" "${JVM_OPTS[@]}" -cp "$CP" "$here/GamerLauncher.java" "$THEIR_PORT" "$gamer" \
    > "$OUT_DIR/$gamer.log" 2>&1 &
  gamer_pid=$!
  pids+=($gamer_pid)
  wait_for_player "$THEIR_PORT" || die "ggp-base's $gamer did not come up (see $OUT_DIR/$gamer.log)"
  if [[ "$gamer" == SampleNoopGamer ]]; then
    server_match "$GDL_DIR/ticTacToe.kif" "$gamer" 0
  else
    for game in $GAMES; do
      for seat in $SEATS; do server_match "$game" "$gamer" "$seat"; done
      if [[ "$MANAGE" == 1 ]]; then manager_matches "$game" "$gamer"; fi
    done
  fi
  kill "$gamer_pid" 2>/dev/null || true
  wait "$gamer_pid" 2>/dev/null || true
done

echo "== errors fields (records under $OUT_DIR)"
control=()
if [[ "$CONTROL" == 1 ]]; then control=(--expect-errors SampleNoopGamer); fi
"$PYTHON" "$here/check_ggpbase_matches.py" "$OUT_DIR" --ours "$OUR_NAME" "${control[@]}" \
  --player-log "$OUT_DIR/ours.log" \
  || failed=1
exit "$failed"
