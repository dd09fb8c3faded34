"""The grounded reasoner agrees with the compiled reasoner, and falls back when it must."""

import random

import time

import pytest

from ggp.core.errors import ModelError
from ggp.gdl.adapter import load_gdl_model, load_gdl_text
from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.ground import GroundingLimits, NotGroundable, ground
from ggp.gdl.grounded import _COLD_RECHECK, _COLD_SAMPLES, GroundedReasoner
from ggp.gdl.reasoner import first_disagreement, make_reasoner, measure_speeds
from ggp.gdl.kif import parse_kif, parse_kif_term

import test_gdl_reasoner as edge
from gdl_corpus import FILES, REJECTED, path

# games whose grounding exceeds the default limits (docs/gdl.md lists the reasons)
TOO_BIG = {"chess_200.kif", "checkers.kif", "hex.kif", "quarto.kif", "blackjack.gdl",
           "small_dominion.gdl", "twogenerals.gdl"}
# generous limits so that a loaded test machine cannot turn a grounding into a fallback
ROOMY = GroundingLimits(seconds=60, max_step_chars=10**9)
# random steps compared per game: heavier games get fewer
STEPS = {"amazons_8x8.kif": 15, "BattleshipsFog.gdl": 12, "mastermind.gdl": 10,
         "stratego.gdl": 15, "breakthrough.kif": 30, "knightThrough.kif": 30,
         "reversi.kif": 15, "sheepAndWolf.kif": 30, "minichess.kif": 30,
         "dotsAndBoxes.kif": 40, "eightPuzzle.kif": 40, "backgammon.gdl": 25}


def rules_of(p):
    return parse_kif(p.read_text()).rules


def compare_walks(rules, steps: int, seed: int = 3) -> None:
    """Random playouts compared with the compiled reasoner at every state: fluents both
    ways through encode/decode, terminal, goals, legal moves in the same order, percepts
    and next states (:func:`ggp.gdl.reasoner.first_disagreement`)."""
    grounded = make_reasoner(rules, engine="grounded", limits=ROOMY)
    assert first_disagreement(grounded, CompiledReasoner(rules), steps, seed) is None


@pytest.mark.parametrize("p", [f for f in FILES if f.name not in set(REJECTED) | TOO_BIG],
                         ids=lambda p: p.name)
def test_grounded_agrees_with_compiled(p):
    compare_walks(rules_of(p), STEPS.get(p.name, 80))


class FluentStates:
    """The grounded engine with frozenset states, so that the edge-case tests written for
    the other reasoners run on it unchanged."""

    def __init__(self, rules):
        self.engine = make_reasoner(rules, engine="grounded")
        assert isinstance(self.engine, GroundedReasoner)
        self.roles = self.engine.roles

    def initial_state(self):
        return self.engine.decode(self.engine.initial_state())

    def legal_moves(self, state):
        return self.engine.legal_moves(self.engine.encode(state))

    def is_terminal(self, state):
        return self.engine.is_terminal(self.engine.encode(state))

    def goals(self, state):
        return self.engine.goals(self.engine.encode(state))

    def next_state(self, state, joint):
        return self.engine.decode(self.engine.next_state(self.engine.encode(state), joint))


EDGE_CASES = [edge.test_case_1a_time_invariant_goal, edge.test_case_3c_undefined_proposition,
              edge.test_case_5b_doubled_variables, edge.test_case_5e_seven_moves,
              edge.test_distinct_beginning_rule, edge.test_case_3d_initial_state,
              edge.test_case_3a_both_propositions, edge.test_role_variables_in_legal_and_goal,
              edge.test_not_distinct]


@pytest.mark.parametrize("case", EDGE_CASES, ids=lambda f: f.__name__)
def test_grounded_gives_the_expected_edge_case_answers(case):
    case(FluentStates)


@pytest.mark.parametrize("name", ["test_case_5a.kif", "test_case_5c.kif", "test_case_5d.kif"])
def test_grounded_recursion_edge_cases(name):
    edge.test_case_5acd_recursion(FluentStates, name)


def test_the_edge_case_files_are_all_grounded():
    names = [p.name for p in FILES if p.parent.name == "reasoner_tests"]
    if len(names) != 22:
        pytest.skip("the shared reasoner edge cases are not all present")
    for name in names:
        assert make_reasoner(rules_of(path(name)), engine="grounded").info.name == "grounded", name


# ---------------------------------------------------------------------- fallback
def test_a_game_too_big_for_the_limits_falls_back_with_a_reason():
    rules = rules_of(path("ticTacToe.kif"))
    small = GroundingLimits(max_rules=50)
    with pytest.raises(NotGroundable, match="more than 50 ground rules"):
        ground(rules, small)
    r = make_reasoner(rules, limits=small)
    assert isinstance(r, CompiledReasoner) and r.info.name == "compiled"
    assert "more than 50 ground rules" in r.info.why_not_grounded
    # and it still plays the game
    assert len(r.legal_moves(r.initial_state())["xplayer"]) == 9
    for limits, reason in [(GroundingLimits(max_fluents=10), "possible fluents"),
                           (GroundingLimits(max_atoms=20), "possibly-true atoms"),
                           (GroundingLimits(seconds=0.0), "in time")]:
        r = make_reasoner(rules, limits=limits)
        assert r.info.name == "compiled" and reason in r.info.why_not_grounded
    assert make_reasoner(rules, engine="grounded").info.name == "grounded"
    assert make_reasoner(rules, engine="compiled").info.name == "compiled"


def test_auto_keeps_the_engine_measured_faster():
    """"auto" races both engines on a game that grounds and keeps the one with more
    steps per CPU second; the speeds are reported and remembered per rule set."""
    rules = rules_of(path("ticTacToe.kif"))
    r = make_reasoner(rules)
    speeds = r.info.speeds
    assert set(speeds) == {"grounded", "compiled"} and min(speeds.values()) > 0
    assert r.info.name == max(speeds, key=speeds.get)
    assert (r.info.why_not_grounded is None) == (r.info.name == "grounded")
    assert make_reasoner(rules).info.speeds == speeds  # remembered, not raced again
    assert make_reasoner(rules, engine="grounded").info.speeds is None


def test_an_engine_that_fails_loses_the_race():

    rules = rules_of(path("ticTacToe.kif"))

    class Broken(CompiledReasoner):
        def next_state(self, state, joint):
            raise RuntimeError("broken")

    speeds = measure_speeds({"ok": CompiledReasoner(rules), "broken": Broken(rules)}, 0.05)
    assert speeds["broken"] == 0 and speeds["ok"] > 0


class _Busy:
    """A fake engine: 10 steps to the end, two moves per state, CPU time burnt per step
    (and per joint move met for the first time, as the grounded engine generates code)."""

    roles = ["r"]

    def __init__(self, step_cpu: float, generate_cpu: float = 0.0) -> None:
        self.step_cpu, self.generate_cpu = step_cpu, generate_cpu
        self.generated: set = set()
        self.functions_generated = 0

    @staticmethod
    def _burn(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    def initial_state(self):
        return 0

    def is_terminal(self, state):
        return state >= 10

    def goals(self, state):
        return [50]

    def legal_moves(self, state):
        return {"r": [f"m{state}a", f"m{state}b"]}

    def next_state(self, state, joint):
        if self.generate_cpu and joint["r"] not in self.generated:
            self.generated.add(joint["r"])
            self.functions_generated += 1
            self._burn(self.generate_cpu)
        self._burn(self.step_cpu)
        return state + 1


def test_the_race_leaves_code_generation_out():
    """An engine that generates code for every new joint move (for 0.05 s every step
    meets one) wins the race when its steps are faster once generated: in play the cold
    joint moves go through the compiled engine, so generation is bounded there."""

    engines = {"grounded": _Busy(0.0001, generate_cpu=0.01), "compiled": _Busy(0.001)}
    speeds = measure_speeds(engines, 0.05)
    assert speeds["grounded"] > speeds["compiled"] > 0


def test_cold_joint_moves_go_through_the_compiled_engine_until_generating_pays():
    """The grounded engine as make_reasoner returns it: a joint move is stepped by the
    compiled engine until those steps have cost as much as generating its function, then
    generated; every answer is the one of the pure grounded engine."""
    rules = rules_of(path("kriegTTT_4x4.gdl"))
    pure = make_reasoner(rules, engine="grounded")
    hybrid = make_reasoner(rules, engine="grounded")
    hybrid.cold_engine = CompiledReasoner(rules)
    hybrid._generate_cost = 1.0  # generation "costs" a second: a move stays cold long
    rng = random.Random(3)
    for _ in range(30):
        s = pure.initial_state()
        while not pure.is_terminal(s):
            legal = pure.legal_moves(s)
            assert hybrid.legal_moves(s) == legal
            joint = {r: rng.choice(m) for r, m in legal.items()}
            assert hybrid.step(s, joint) == pure.step(s, joint)
            nxt = pure.next_state(s, joint)
            assert hybrid.next_state(s, joint) == nxt
            s = nxt
        assert hybrid.goals(s) == pure.goals(s)
    assert hybrid.functions_generated <= 1  # the one made at load (check_step_code)
    hybrid._generate_cost, hybrid._cold_cost = 1e-9, 1.0  # now generating pays at once
    legal = hybrid.legal_moves(hybrid.initial_state())
    hybrid.next_state(hybrid.initial_state(), {r: m[-1] for r, m in legal.items()})
    assert hybrid.functions_generated == 2


def _hybrid(rules):
    hybrid = make_reasoner(rules, engine="grounded")
    hybrid.cold_engine = CompiledReasoner(rules)
    return hybrid


def _new_joint_moves(rules, count: int):
    """``count`` (state, joint move) pairs of distinct joint moves from random matches
    (states of the grounded engine, found by another one)."""
    reasoner = make_reasoner(rules, engine="grounded")
    rng, found = random.Random(5), {}
    while len(found) < count:
        s = reasoner.initial_state()
        while not reasoner.is_terminal(s) and len(found) < count:
            legal = reasoner.legal_moves(s)
            joint = {r: rng.choice(m) for r, m in legal.items()}
            found.setdefault(tuple(joint[r] for r in reasoner.roles), (s, joint))
            s = reasoner.next_state(s, joint)
    return list(found.values())


def test_one_slow_cold_step_does_not_decide_for_generation():
    """The first cold steps pay the compiled engine's start-up (5 ms against 0.03 ms
    after it on BattleshipsFog): they are taken whatever the costs and left out of the
    cold cost, so one slow start does not make every later joint move generated."""
    rules = rules_of(path("kriegTTT_4x4.gdl"))
    hybrid = _hybrid(rules)
    hybrid._generate_cost = 1.0  # generating "costs" a second
    hybrid._cold_step_took(5.0)  # the start-up
    assert hybrid._joint_function({}, ("k",), {}, sees=False) is None  # too few samples
    for _ in range(_COLD_SAMPLES - 1):
        hybrid._cold_step_took(1e-5)
    assert hybrid._cold_cost == 0.0  # all of them left out
    generated = hybrid.functions_generated
    for s, joint in _new_joint_moves(rules, 20):
        hybrid.step(s, joint)
    assert hybrid.functions_generated == generated  # each met once: all stayed cold
    assert 0.0 < hybrid._cold_cost < 1.0  # measured on them


def test_a_cold_step_is_measured_again_among_generated_ones():
    """A cold cost measured too high (every new joint move generated) is measured again
    after every _COLD_RECHECK generated functions, so it can come down."""
    rules = rules_of(path("kriegTTT_4x4.gdl"))
    hybrid = _hybrid(rules)
    for _ in range(_COLD_SAMPLES + 10):
        hybrid._cold_step_took(1.0)  # cold steps "cost" a second: generate every move
    generated, cold = hybrid.functions_generated, hybrid._cold_steps
    for s, joint in _new_joint_moves(rules, 3 * _COLD_RECHECK):
        hybrid.step(s, joint)
    assert hybrid._cold_steps - cold == 2  # one cold step per _COLD_RECHECK generated
    assert hybrid.functions_generated - generated == 3 * _COLD_RECHECK - 2


def test_backgammon_grounds_but_its_per_move_code_is_too_big():
    rules = rules_of(path("backgammon.gdl"))
    ground(rules)  # within the default limits of the grounder itself
    r = make_reasoner(rules)
    assert r.info.name == "compiled" and "characters of code" in r.info.why_not_grounded


def test_chess_is_too_big_with_the_default_limits():
    r = make_reasoner(rules_of(path("chess_200.kif")))
    assert r.info.name == "compiled" and r.info.why_not_grounded


REACH = """
(role robot)
(init (on a))
(<= (legal robot (link ?x ?y)) (node ?x) (node ?y) (distinct ?x ?y) (not (true (edge ?x ?y))))
(<= (legal robot stop) (true (on a)))
(<= (next (edge ?x ?y)) (does robot (link ?x ?y)))
(<= (next (edge ?x ?y)) (true (edge ?x ?y)))
(<= (next (on a)) (true (on a)) (not (does robot stop)))
(<= (path ?x ?y) (true (edge ?x ?y)))
(<= (path ?x ?z) (true (edge ?x ?y)) (path ?y ?z))
(<= terminal (path a c))
(<= terminal (not (true (on a))))
(<= (goal robot 100) (path a c))
(<= (goal robot 0) (not (path a c)))
(node a) (node b) (node c)
"""


def test_recursion_through_the_state_falls_back_and_still_plays():
    rules = parse_kif(REACH).rules
    with pytest.raises(NotGroundable, match="recursion"):
        make_reasoner(rules, engine="grounded")
    model = load_gdl_text(REACH, name="reach")
    assert model.metadata.extra["engine"] == "compiled"
    assert "recursion" in model.metadata.extra["why_not_grounded"]
    s = model.apply(model.initial_state(), "(link a b)")
    s = model.apply(s, "(link b c)")
    assert model.is_terminal(s) and model.rewards(s) == [100.0]


def test_a_full_cache_of_joint_move_functions_is_emptied_and_rebuilt(monkeypatch):
    import ggp.gdl.grounded as grounded_module

    monkeypatch.setattr(grounded_module, "_MAX_JOINT_FUNCTIONS", 3)
    compare_walks(rules_of(path("connectFour.kif")), 60)


def test_unknown_engine_and_never_legal_moves_are_reported():
    rules = rules_of(path("ticTacToe.kif"))
    with pytest.raises(ValueError, match="unknown GDL engine"):
        make_reasoner(rules, engine="fast")
    r = make_reasoner(rules)
    joint = {"xplayer": parse_kif_term("(mark 4 4)"), "oplayer": parse_kif_term("noop")}
    with pytest.raises(ModelError, match="never a legal move"):
        r.next_state(r.initial_state(), joint)
    with pytest.raises(ModelError, match="can never be true"):
        r.encode({parse_kif_term("(cell 9 9 x)")})


# ---------------------------------------------------------------------- adapter
@pytest.mark.parametrize("name", ["ticTacToe.kif", "connectFourSimultaneous.kif",
                                  "montyhall.gdl", "kriegTTT_4x4.gdl", "mastermind2x3.kif"])
def test_adapter_on_the_grounded_engine_matches_the_compiled_engine(name):
    fast = load_gdl_model(path(name), engine="grounded")
    slow = load_gdl_model(path(name), engine="compiled")
    assert fast.metadata.extra["engine"] == "grounded"
    assert slow.metadata.extra["engine"] == "compiled"
    rng = random.Random(11)
    for _ in range(6):
        a, b = fast.initial_state(), slow.initial_state()
        while True:
            assert a == b
            assert fast.current_player(a) == slow.current_player(b)
            assert fast.observations(a) == slow.observations(b)
            assert fast.rewards(a) == slow.rewards(b)
            if fast.is_terminal(a):
                break
            actions = fast.legal_actions(a)
            assert actions == slow.legal_actions(b)
            move = rng.choice(actions)
            a, b = fast.apply(a, move), slow.apply(b, move)


def test_the_race_ends_on_a_game_that_is_over_at_once():
    """A game terminal in its initial state: the race's playouts make no move at all and
    must still stop at their CPU budget (it looped forever)."""
    rules = parse_kif("(role a) (init p) (legal a go) (<= (next p) (true p)) "
                      "(<= terminal (true p)) (goal a 100)").rules
    r = make_reasoner(rules, race_seconds=0.02)
    assert r.info.speeds and r.info.name == max(r.info.speeds, key=r.info.speeds.get)
