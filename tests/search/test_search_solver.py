"""MCTS-solver: proven values propagate, forced wins are never missed, proven losses are
never visited again once something better is known, and the solver only helps."""

import random

import pytest

from ggp.core.model import from_functions
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.mcts import MCTS


def play(game, moves):
    model = make_game(game)
    state = model.initial_state()
    for m in moves:
        state = model.apply(state, m)
    return model, state


def wins_within(model, state, plies):
    """The mover's moves that force a win within ``plies`` plies (1 or 3), by brute force."""
    me = model.current_player(state)

    def won(s):
        return model.current_player(s) == TERMINAL and model.rewards(s)[me] == 1.0

    winning = set()
    for a in model.legal_actions(state):
        after = model.apply(state, a)
        if won(after):
            winning.add(a)
        elif plies == 3 and model.current_player(after) != TERMINAL and all(
                model.current_player(reply) != TERMINAL
                and any(won(model.apply(reply, b)) for b in model.legal_actions(reply))
                for reply in (model.apply(after, r) for r in model.legal_actions(after))):
            winning.add(a)
    return winning


# (game, moves to the position, plies, what the mover must play)
WIN_IN_1 = [
    ("tic_tac_toe", ["x(0,0)", "o(1,0)", "x(0,1)", "o(1,1)"]),
    ("connect_four", ["x0", "o0", "x1", "o1", "x2", "o2"]),
    ("generalized_tic_tac_toe", ["x(0,0)", "o(5,0)", "x(0,1)", "o(5,1)", "x(0,2)", "o(5,3)"]),
]
WIN_IN_3 = [
    ("tic_tac_toe", ["x(0,0)", "o(0,1)", "x(1,1)", "o(2,2)"]),
    ("connect_four", ["x2", "o6", "x3", "o6"]),
    ("generalized_tic_tac_toe", ["x(2,1)", "o(5,5)", "x(2,2)", "o(5,0)"]),
]
MUST_BLOCK = [
    ("tic_tac_toe", ["x(0,0)", "o(1,1)", "x(0,1)"], "o(0,2)"),
    ("connect_four", ["x0", "o6", "x1", "o6", "x2"], "o3"),
    ("generalized_tic_tac_toe", ["x(0,0)", "o(3,3)", "x(0,1)", "o(3,4)", "x(0,2)"], "o(0,3)"),
]


def search(model, state, seed, *, sims=3000, solver=True, **kw):
    mcts = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=sims, solver=solver,
                rng=random.Random(seed), **kw)
    root = mcts.search(state)
    return mcts, root, mcts.choose(root)


@pytest.mark.parametrize("game,moves", WIN_IN_1)
def test_a_win_in_one_is_taken_and_proven_at_once(game, moves):
    model, state = play(game, moves)
    winning = wins_within(model, state, 1)
    assert len(winning) == 1
    for seed in range(5):
        mcts, root, move = search(model, state, seed)
        assert move in winning and root.proven is not None
        assert root.proven[model.current_player(state)] == 1.0
        # the search stopped as soon as the root was proven: at most one expansion per move
        assert mcts.last_simulations <= len(model.legal_actions(state))


@pytest.mark.parametrize("game,moves", WIN_IN_3)
def test_a_win_in_three_plies_is_never_missed(game, moves):
    model, state = play(game, moves)
    winning = wins_within(model, state, 3)
    assert winning and wins_within(model, state, 1) == set()
    for seed in range(5):
        mcts, root, move = search(model, state, seed, sims=10_000)
        assert move in winning, (seed, move)
        assert root.proven is not None and root.proven[model.current_player(state)] == 1.0


class Recording(MCTS):
    """Records each root child's visits at the moment it was proven."""

    def _prove(self, path):
        super()._prove(path)
        root = path[0]
        for action, child in root.children.items():
            if child.proven is not None:
                self.at_proof.setdefault(action, child.visits)


@pytest.mark.parametrize("game,moves,block", MUST_BLOCK)
def test_a_must_block_is_played_and_proven_losses_get_no_more_visits(game, moves, block):
    model, state = play(game, moves)
    mover = model.current_player(state)
    for seed in range(5):
        mcts = Recording(model, RandomRolloutEvaluator(model, 1), simulations=3000,
                         rng=random.Random(seed))
        mcts.at_proof = {}
        root = mcts.search(state)
        assert mcts.choose(root) == block
        losses = [a for a, c in root.children.items()
                  if c.proven is not None and c.proven[mover] == -1.0]
        # every other move loses at once, and each was visited no more after its proof
        assert len(losses) == len(model.legal_actions(state)) - 1
        for action in losses:
            assert root.children[action].visits == mcts.at_proof[action]


def test_solver_finds_at_least_what_plain_uct_finds_at_equal_simulations():
    """Over all the tactical positions above and several seeds, at a small budget."""
    found = {True: 0, False: 0}
    for solver in (True, False):
        for game, moves in WIN_IN_1 + WIN_IN_3:
            model, state = play(game, moves)
            winning = wins_within(model, state, 3)
            for seed in range(4):
                found[solver] += search(model, state, seed, sims=400, solver=solver)[2] in winning
        for game, moves, block in MUST_BLOCK:
            model, state = play(game, moves)
            for seed in range(4):
                found[solver] += search(model, state, seed, sims=400, solver=solver)[2] == block
    assert found[True] >= found[False]
    assert found[True] >= 30  # of 36; plain UCT at 400 simulations misses more


def test_solver_on_does_not_lose_to_solver_off_at_tic_tac_toe():
    from ggp.agents import make_agent
    from ggp.arena.match import play_match

    model = make_game("tic_tac_toe")
    score = 0.0
    for seed in range(8):
        agents = [make_agent("mcts:sims=200:rollouts=2", model),
                  make_agent("mcts:sims=200:rollouts=2:solver=false", model)]
        seat = seed % 2
        if seat:
            agents.reverse()
        score += play_match(model, agents, seed=seed).returns[seat]
    assert score >= 0.0


# ---------------------------------------------------------------- chance and n players
def _dice_game():
    """P0 picks 'safe' (0.2 each) or 'gamble' (a fair coin: 1 or -1 for P0, the other two
    get the opposite halves); then the game ends. Three players, chance in the middle."""

    def current(s):
        return TERMINAL if s["done"] else (CHANCE if s["picked"] == "gamble" and
                                           s["coin"] is None else 0)

    def legal(s):
        return ["heads", "tails"] if current(s) == CHANCE else ["safe", "gamble"]

    def apply(s, a):
        s = dict(s)
        if a == "safe":
            s.update(picked="safe", done=True, paid=[0.2, 0.0, -0.2])
        elif a == "gamble":
            s.update(picked="gamble")
        else:
            s.update(coin=a, done=True,
                     paid=[1.0, -0.5, -0.5] if a == "heads" else [-1.0, 0.5, 0.5])
        return s

    return from_functions(
        "dice", INITIAL_STATE={"picked": None, "coin": None, "done": False,
                               "paid": [0.0, 0.0, 0.0]},
        get_current_player=current, get_player_name=str, get_legal_actions=legal,
        apply_action=apply, get_rewards=lambda s: list(s["paid"]),
        get_observations=lambda s: [s, s, s],
        get_chance_outcomes=lambda s: [("heads", 0.5), ("tails", 0.5)],
        METADATA=GameMetadata(num_players=3, min_utility=-1.0, max_utility=1.0,
                              zero_sum=True, outcome="payoff", chance=True))


def test_chance_nodes_are_proven_by_expectation_and_vectors_propagate():
    model = _dice_game()
    mcts = MCTS(model, simulations=200, rng=random.Random(0))
    root = mcts.search(model.initial_state())
    gamble = root.children["gamble"]
    assert gamble.proven == [0.0, 0.0, 0.0]  # the coin's expectation, every player
    assert root.proven == [0.2, 0.0, -0.2]  # the mover prefers the sure 0.2: a max^n vector
    assert mcts.choose(root) == "safe"
    assert mcts.last_simulations < 200  # the proven root ended the search


def test_wrong_metadata_bounds_switch_the_bound_rules_off():
    """A game whose metadata claims returns in [-1, 1] but pays 3: the best-possible rule
    would stop at the first child worth 1; with the bounds broken, the solver only proves
    by exhausting the children and still takes the 3."""

    def apply(s, a):
        return {"done": True, "paid": {"one": 1.0, "three": 3.0, "zero": 0.0}[a]}

    model = from_functions(
        "liar", INITIAL_STATE={"done": False, "paid": 0.0},
        get_current_player=lambda s: TERMINAL if s["done"] else 0, get_player_name=str,
        get_legal_actions=lambda s: [] if s["done"] else ["one", "three", "zero"],
        apply_action=apply, get_rewards=lambda s: [s["paid"]],
        get_observations=lambda s: [s],
        METADATA=GameMetadata(num_players=1, min_utility=-1.0, max_utility=1.0,
                              zero_sum=False, outcome="payoff"))
    state = model.initial_state()
    for seed in range(6):
        mcts = MCTS(model, simulations=50, rng=random.Random(seed), reuse=False)
        for _ in range(20):  # until a search has seen the 3 (the first one may stop at 1)
            mcts.search(state)
            if not mcts.bounds_ok:
                break
        assert not mcts.bounds_ok
        for _ in range(3):  # from then on only the exhaustive rule proves: the 3 is taken
            assert mcts.choose(mcts.search(state)) == "three"


def test_the_shallow_prover_agrees_with_brute_force():
    """ShallowProver(3 plies) finds exactly the moves the brute-force search finds."""
    from ggp.core.ops import ops_for
    from ggp.search.tactics import ShallowProver

    model, state = play("generalized_tic_tac_toe",
                        "x(2,2) o(3,3) x(2,3) o(2,4) x(4,2)".split())
    prover = ShallowProver(ops_for(model), 1.0, steps=100_000)
    for reply in ["o(3,4)", "o(1,2)", "o(5,2)", "o(1,4)", "o(3,2)"]:
        after = model.apply(state, reply)
        assert prover.forces(after, 0, 3, [0.0, 0.0]) == bool(wins_within(model, after, 3))


def test_the_move_played_is_never_a_three_ply_loss_when_another_move_is_not():
    """O to move where o(3,2) (the block) is the only move that does not lose in three
    plies to a double threat: a small search that does not prove every other move lost
    still plays a move that survives the shallow check."""
    model, state = play("generalized_tic_tac_toe",
                        "x(2,2) o(3,3) x(2,3) o(2,4) x(4,2)".split())
    for seed in range(3):
        mcts = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=300,
                    rng=random.Random(seed))
        move = mcts.choose(mcts.search(state))
        assert not wins_within(model, model.apply(state, move), 3), move


def test_a_proven_lost_position_is_played_for_practical_chances():
    """X's open three in column 2 wins by force and the solver proves it at once; the
    search without the solver then spends the rest of the budget (it would stop at the
    proof) and plays one of the legal moves."""
    model, state = play("generalized_tic_tac_toe",
                        "x(2,2) o(3,3) x(2,3) o(2,4) x(4,2) o(3,4) x(3,2)".split())
    legal = model.legal_actions(state)
    for seed in range(2):
        mcts = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=400,
                    rng=random.Random(seed))
        assert mcts.best_action(state) in legal
        assert mcts._proven_lost(mcts._tree) and mcts.last_simulations >= 400
    winning = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=400,
                   rng=random.Random(0))
    winning.best_action(model.apply(state, "o(1,2)"))  # X to move: a proven win, no swindle
    assert winning.last_simulations < 400


def test_a_lost_position_is_played_for_the_longest_resistance():
    """After x(0,0) o(0,1) x(1,0) O is lost: every move but the block o(2,0) loses at X's
    next move, the block three plies later. The proofs keep those distances and the
    move played is the block."""
    model, state = play("tic_tac_toe", ["x(0,0)", "o(0,1)", "x(1,0)"])
    for seed in range(3):
        mcts = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=3000,
                    rng=random.Random(seed))
        assert mcts.best_action(state) == "o(2,0)"
        root = mcts._tree
        assert mcts._proven_lost(root)
        assert {a: c.depth for a, c in root.children.items()} == {
            a: 3 if a == "o(2,0)" else 1 for a in model.legal_actions(state)}
        assert root.depth == 4


def test_a_won_position_is_won_by_the_quickest_proof():
    """X to move after x(0,0) o(0,1) x(1,0) o(1,1): x(2,0) wins at once; the other
    winning plans take longer and are not played."""
    model, state = play("tic_tac_toe", ["x(0,0)", "o(0,1)", "x(1,0)", "o(1,1)"])
    for seed in range(3):
        mcts = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=2000,
                    rng=random.Random(seed))
        assert mcts.best_action(state) == "x(2,0)"
