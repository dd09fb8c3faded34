"""Random playouts per second of the GDL reasoners (gdl-perf method).

From the initial state: legal moves of every role, a random joint move, next state, until
terminal; then the goals. Timed after ``--warm-up`` seconds of playouts (1 s, as the Java
prover gets). The grounded reasoner
(``ggp.gdl.grounded``, "-" when the game falls back) and the compiled reasoner are compared
with the naive interpreter (``ggp.gdl.naive``) measured in the same run, and with ggp-base's
Java prover and naive Java propnet numbers on this machine kind (shared/research/ggpbase.md).

    python bench/gdl_playouts.py                # all five games, 10 s per engine and game
    python bench/gdl_playouts.py --seconds 3 ticTacToe connectFour
    python bench/gdl_playouts.py --seconds 3 --adapter ticTacToe   # + through the world model
    python bench/gdl_playouts.py --corpus /work/shared/gdl/imperfect --naive-seconds 3 backgammon
    GGPBASE_DIR=/path/to/ggp-base python bench/gdl_playouts.py --clock cpu --java GAMES...

``--java`` measures ggp-base's ProverStateMachine in the same run (``bench/java/
ProverPlayouts.java``, compiled with javac against the ggp-base source tree in GGPBASE_DIR:
its ``src/main/java`` and ``lib/``; nothing of it is kept here), CPU time of its thread
after the same warm-up, and prints the engine ``make_reasoner`` picks over it as a ratio
(measured again as it plays: a grounded pick steps cold joint moves through the compiled
engine, where the "grounded" column generates a function for every joint move).
Games may also be given as paths.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

from ggp.core.errors import GGPError
from ggp.gdl.adapter import load_gdl_model
from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.ground import NotGroundable
from ggp.gdl.reasoner import make_reasoner
from ggp.gdl.kif import parse_kif
from ggp.gdl.naive import NaiveReasoner

CORPUS = Path("/work/shared/gdl/perfect")
GAMES = ["ticTacToe", "connectFour", "breakthrough", "reversi", "chess_200"]
# ggp-base ProverStateMachine and a naive Java propnet, playouts/s (ggpbase.md)
JAVA_PROVER = {"ticTacToe": 823, "connectFour": 73, "breakthrough": 13.5, "reversi": 0.38,
               "chess_200": 0.27}
JAVA_PROPNET = {"ticTacToe": 27000, "connectFour": 4100, "breakthrough": 138, "reversi": 18,
                "chess_200": 1.2}


CLOCK = time.perf_counter  # --clock cpu switches to this process's CPU time


def playout(reasoner, rng: random.Random, deadline: float = float("inf")) -> tuple[int, bool]:
    """Steps taken and whether the playout reached a terminal state before ``deadline``."""
    state, steps = reasoner.initial_state(), 0
    while not reasoner.is_terminal(state):
        if CLOCK() > deadline:
            return steps, False
        legal = reasoner.legal_moves(state)
        state = reasoner.next_state(state, {r: rng.choice(m) for r, m in legal.items()})
        steps += 1
    reasoner.goals(state)
    return steps, True


def measure(reasoner, seconds: float, warm_up: float, seed: int = 0) -> tuple[int, int, float]:
    """(complete playouts, state changes, seconds) after playouts for ``warm_up`` seconds
    (at least one when positive: it compiles the rules, fills the static indexes and lets
    the grounded engine generate its first functions, as the JVM compiles ggp-base's prover
    in its warm-up of the same length). A playout still running at the deadline is
    finished, unless the run is a baseline that would take far too long: then its steps
    count toward state changes/s only."""
    rng = random.Random(seed)
    if warm_up > 0:
        end = CLOCK() + warm_up
        playout(reasoner, rng)
        while CLOCK() < end:
            playout(reasoner, rng)
    count, steps = 0, 0
    started = CLOCK()
    hard_stop = started + 3 * seconds
    while True:
        n, done = playout(reasoner, rng, hard_stop)
        steps += n
        count += done
        elapsed = CLOCK() - started
        if elapsed >= seconds or not done:
            return count, steps, elapsed


def model_playouts(path: Path, engine: str, seconds: float) -> float:
    """Playouts/s through the world-model adapter (JSON states, sequentialized moves)."""
    model = load_gdl_model(path, engine=engine)
    rng = random.Random(0)
    count, started = 0, CLOCK()
    while CLOCK() - started < seconds:
        state = model.initial_state()
        while not model.is_terminal(state):
            state = model.apply(state, rng.choice(model.legal_actions(state)))
        model.rewards(state)
        count += 1
    return count / (CLOCK() - started)


def game_file(corpus: Path, game: str) -> Path:
    """``game`` if it is a file, else ``corpus/game.kif``, or ``.gdl`` (the GDL-II folder's
    extension)."""
    if Path(game).is_file():
        return Path(game)
    kif = corpus / f"{game}.kif"
    return kif if kif.exists() else corpus / f"{game}.gdl"


def build_java_prover(ggpbase: Path) -> list[str]:
    """javac ProverPlayouts.java against the ggp-base tree; the ``java`` command to run it."""
    source = Path(__file__).parent / "java" / "ProverPlayouts.java"
    jars = [str(j) for j in sorted((ggpbase / "lib").rglob("*.jar")) if "sources" not in j.name]
    out = Path(tempfile.mkdtemp(prefix="ggp-prover-"))
    classpath = os.pathsep.join([str(out), *jars])
    subprocess.run(["javac", "-nowarn", "-d", str(out), "-cp", classpath, "-sourcepath",
                    str(ggpbase / "src" / "main" / "java"), str(source)], check=True,
                   capture_output=True)
    return ["java", "-Xmx2g", "-XX:+UseSerialGC", "-cp", classpath, "ProverPlayouts"]


def java_prover_rate(java: list[str], path: Path, seconds: float,
                     warm_up: float) -> tuple[float, str]:
    """Playouts per CPU second of ggp-base's prover on ``path`` ('' or an error)."""
    try:
        done = subprocess.run(java + [str(path), str(seconds), str(warm_up)],
                              capture_output=True, text=True,
                              timeout=60 + 10 * (seconds + warm_up))
    except subprocess.TimeoutExpired:
        return 0.0, "timed out"
    try:
        playouts, _steps, cpu = done.stdout.split()
        return int(playouts) / float(cpu), ""
    except ValueError:
        return 0.0, (done.stderr.strip().splitlines() or ["failed"])[-1][:80]


def java_ratio(rate: float, java: dict, game: str, width: int, digits: int) -> str:
    """``rate`` over ggp-base's number for ``game``, or '-' where none was measured."""
    if game not in java:
        return f"{'-':>{width + 1}}"
    return f"{rate / java[game]:>{width}.{digits}f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--seconds", type=float, default=10.0, help="per engine and game")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of the .kif files")
    parser.add_argument("--naive-seconds", type=float, default=None,
                        help="time for the naive baseline (default: same as --seconds)")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall time (gdl-perf) or this process's CPU time (use on a "
                        "machine shared with other jobs)")
    parser.add_argument("--adapter", action="store_true",
                        help="also time playouts through the world model (load_gdl_model) "
                        "with each engine")
    parser.add_argument("--warm-up", type=float, default=1.0,
                        help="seconds of playouts before each engine is timed, ggp's and "
                        "the Java prover's alike (at least one playout for ggp's)")
    parser.add_argument("--java", action="store_true",
                        help="also measure ggp-base's Java prover in this run (GGPBASE_DIR)")
    args = parser.parse_args()
    java = None
    if args.java:
        if not os.environ.get("GGPBASE_DIR"):
            parser.error("--java needs GGPBASE_DIR: a ggp-base source tree (src/main/java, lib/)")
        java = build_java_prover(Path(os.environ["GGPBASE_DIR"]))
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"clock: {args.clock}")
    header = (f"{'game':<14}{'grounded':>10}{'compiled':>10}{'naive':>10}"
              f"{'gr/comp':>9}{'gr/naive':>10}{'gr/Java prover':>16}{'gr/Java propnet':>17}"
              f"{'comp/Java propnet':>19}")
    print(header)
    for game in args.games:
        path = game_file(args.corpus, game)
        try:
            load_gdl_model(path, engine="compiled")  # validates the description
        except GGPError as exc:
            print(f"{game:<14} does not load: {exc}", flush=True)
            continue
        rules = parse_kif(path.read_text()).rules
        t0 = time.perf_counter()
        try:
            grounded = make_reasoner(rules, engine="grounded")
            reason = ""
        except NotGroundable as exc:
            grounded, reason = None, str(exc)
        ground_build = time.perf_counter() - t0
        t0 = time.perf_counter()
        fast = CompiledReasoner(rules)
        build = time.perf_counter() - t0
        if grounded is not None:
            g_n, g_steps, g_secs = measure(grounded, args.seconds, args.warm_up)
            g_rate = g_n / g_secs
        n, steps, secs = measure(fast, args.seconds, args.warm_up)
        fast_rate, depth = n / secs, steps / max(n, 1)
        slow_n, slow_steps, slow_secs = measure(NaiveReasoner(rules),
                                                args.naive_seconds or args.seconds, warm_up=0)
        slow_steps /= slow_secs
        # the naive engine may not finish one playout: then playouts/s is estimated from its
        # state changes/s and the mean depth of the compiled engine's playouts (marked ~)
        slow_rate = slow_n / slow_secs if slow_n >= 3 else slow_steps / depth
        mark = " " if slow_n >= 3 else "~"
        if grounded is None:
            gr = f"{'-':>10}{'-':>9}{'-':>10}{'-':>16}{'-':>17}"
        else:
            vs_naive = f"{g_rate / slow_rate:>9.1f}x" if slow_rate else f"{'-':>10}"
            gr = (f"{g_rate:>10.2f}{g_rate / fast_rate:>8.2f}x{vs_naive}"
                  f"{java_ratio(g_rate, JAVA_PROVER, game, 15, 2)}"
                  f"{java_ratio(g_rate, JAVA_PROPNET, game, 16, 3)}")
        print(f"{game:<14}{gr[:10]}{fast_rate:>10.2f}{mark}{slow_rate:>9.3f}{gr[10:]}"
              f"{java_ratio(fast_rate, JAVA_PROPNET, game, 18, 3)}   (build: grounded {ground_build:.2f}s,"
              f" compiled {build:.2f}s; depth {depth:.0f})"
              + (f"  [not grounded: {reason}]" if reason else ""), flush=True)
        if java is not None:
            chosen = make_reasoner(rules)  # the engine "auto" picks (it races both)
            if chosen.info.name == "grounded":  # as it plays: cold joint moves included
                c_n, _, c_secs = measure(chosen, args.seconds, args.warm_up)
                rate = c_n / c_secs
            else:
                rate = fast_rate
            j_rate, error = java_prover_rate(java, path, args.seconds, args.warm_up)
            print(f"{'':<14}auto engine: {chosen.info.name} {rate:.2f} playouts/s; Java prover "
                  + (f"{j_rate:.2f} playouts/s CPU (same run): {rate / j_rate:.2f}x" if j_rate
                     else f"failed: {error}"), flush=True)
        if args.adapter:
            rates = {e: model_playouts(path, e, args.seconds) for e in ("auto", "compiled")}
            print(f"{'':<14}world model: auto engine {rates['auto']:.2f}, compiled engine "
                  f"{rates['compiled']:.2f} playouts/s ({rates['auto'] / rates['compiled']:.1f}x)",
                  flush=True)
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
