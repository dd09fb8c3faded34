"""Issue 11's deadline check, short: our search player on connectFour under a 1 s play
clock, against the manager's own rule (a reply is late after the clock plus 1 s grace).
The full 100-move run with the strict clock is bench/ggpnet_deadline.py."""

from ggpnet_helpers import gdl_file, quick_player, running

from ggp.gdl.match import load_match_game
from ggp.ggpnet.manager import MatchConfig, run_match
from ggp.ggpnet.player import GGPPlayer


def test_search_player_answers_every_play_in_time_on_connect_four():
    game = load_match_game(gdl_file("connectFour.kif"))
    ours = GGPPlayer("ours", seed=0)  # default chooser (MCTS) and margin
    with running(ours.handle, quick_player(1).handle) as (a, b):
        record = run_match(game, {"red": a.url, "black": b.url},
                           MatchConfig(start_clock=5, play_clock=1.0, grace=1.0, seed=0,
                                       max_steps=12))
    decisions = [s for s in record["steps"] if s["moves"]["red"] != "noop"]
    assert len(decisions) >= 4  # red moves on every other step; it may win by step 7
    assert record["errors"] == []
    assert record["aborted"] or record["goals"]["red"] == 100
