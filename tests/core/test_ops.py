"""WorldModel.ops: the model's functions bound once for hot loops (ggp.core.ops)."""

from ggp.core.model import load_model_source
from ggp.core.ops import ModelOps, ops_for
from ggp.core.registry import make_game


def test_a_model_builds_its_ops_once():
    model = make_game("tic_tac_toe")
    assert isinstance(model.ops, ModelOps) and model.ops is model.ops
    assert ops_for(model) is model.ops and ops_for(model.ops) is model.ops


def test_trusted_models_bind_raw_functions_and_untrusted_ones_the_guarded_wrapper():
    trusted = make_game("tic_tac_toe")
    assert trusted.ops.apply is trusted.namespace.apply_action
    source = (
        "INITIAL_STATE = {'n': 0}\n"
        "def get_current_player(s): return -4 if s['n'] else 0\n"
        "def get_player_name(p): return str(p)\n"
        "def get_legal_actions(s): return [] if s['n'] else ['go']\n"
        "def apply_action(s, a): s['n'] += 1; return s\n"  # mutates its input
        "def get_rewards(s): return [float(s['n'])]\n"
        "def get_observations(s): return [dict(s)]\n"
    )
    untrusted = load_model_source(source, name="mutating")
    state = untrusted.initial_state()
    assert untrusted.ops.apply(state, "go") == {"n": 1}
    assert state == {"n": 0}  # the guarded call copied the state first
    assert untrusted.ops.chance_outcomes == untrusted.chance_outcomes
