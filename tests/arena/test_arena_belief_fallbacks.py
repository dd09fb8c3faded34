"""Issue 31: a search agent whose belief fails plays on (no forfeit, even without
--legal-actions) and the arena counts its fallbacks in the results and the report."""

import json

from ggp.arena.report import write_report
from ggp.arena.stats import belief_fallbacks
from ggp.arena.tournament import TournamentConfig, run_tournament
from ggp.belief.sampler import GenericSampler
from ggp.core.errors import BeliefError


def test_fallbacks_are_counted_and_reported_and_nobody_forfeits(tmp_path, monkeypatch):
    def fail(self, history, player, rng):
        raise BeliefError("no consistent history (forced by the test)")

    monkeypatch.setattr(GenericSampler, "belief", fail)
    agent = "ismcts:sims=5:rollouts=1:belief=generic"
    config = TournamentConfig(games=["kuhn_poker"], agents=[agent, "random"], matches=3,
                              seed=1)
    run_tournament(config, tmp_path, workers=0)  # in this process: the patch applies
    records = [json.loads(line) for line in
               (tmp_path / "results.jsonl").read_text().splitlines()]
    assert records and all(r["forfeit"] is None for r in records)
    ours = [(r["belief_fallbacks"][r["seats"].index(agent)], r["moves"][r["seats"].index(agent)])
            for r in records]
    assert all(n == moves and n > 0 for n, moves in ours)  # every move was a fallback
    counted = belief_fallbacks(records)
    assert set(counted) == {agent}
    assert counted[agent]["fallbacks"] == sum(n for n, _ in ours)
    text = write_report(tmp_path)["markdown"].read_text()
    assert "## Belief fallbacks" in text
    assert f"{counted[agent]['fallbacks']} / {counted[agent]['moves']}" in text


def test_no_fallback_section_without_fallbacks():
    assert belief_fallbacks([{"seats": ["a", "b"], "moves": [3, 3],
                              "belief_fallbacks": [0, 0]}]) == {}
    assert belief_fallbacks([{"seats": ["a", "b"], "moves": [3, 3]}]) == {}  # old records
