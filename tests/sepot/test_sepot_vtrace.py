"""V-trace estimators against hand-computed examples."""

import math

import pytest

torch = pytest.importorskip("torch")

from ggp.sepot.vtrace import critic_vtrace, rnad_vtrace  # noqa: E402


def _col(values):
    return torch.tensor(values, dtype=torch.float64).reshape(-1, 1, 1)


def test_critic_vtrace_hand_example():
    # v = [0.5, 0.2, -0.1], reward 1 after the last step, ratios 2, 0.5, 1.
    # t=2: -0.1 + 1*(1 + 0.1)                         = 1.0
    # t=1: 0.2 + 0.5*(0 - 0.1 - 0.2) + 0.5*(1.0 + 0.1) = 0.6
    # t=0: 0.5 + 2*(0 + 0.2 - 0.5) + 1*(0.6 - 0.2)     = 0.3  (rho_bar = inf, c_bar = 1)
    values = _col([0.5, 0.2, -0.1])
    rewards = torch.tensor([[0.0], [0.0], [1.0]], dtype=torch.float64)
    ratios = _col([2.0, 0.5, 1.0])
    valid = torch.ones(3, 1, dtype=torch.bool)
    out = critic_vtrace(values, rewards, ratios, valid)
    assert out.reshape(-1).tolist() == pytest.approx([0.3, 0.6, 1.0])
    # rho_bar = 1 clips the first step: 0.5 + 1*(-0.3) + 0.4 = 0.6
    out = critic_vtrace(values, rewards, ratios, valid, rho_bar=1.0)
    assert out.reshape(-1).tolist() == pytest.approx([0.6, 0.6, 1.0])


def test_critic_vtrace_ignores_steps_after_the_end():
    values = _col([0.5, 7.0])
    rewards = torch.tensor([[1.0], [5.0]], dtype=torch.float64)
    valid = torch.tensor([[True], [False]])
    out = critic_vtrace(values, rewards, _col([1.0, 1.0]), valid)
    assert out.reshape(-1).tolist() == pytest.approx([1.0, 0.0])


def _two_step_inputs():
    # Player 0 acts (pi = [.5, .5], log pi/pi_reg = [log 2, 0], plays 0), then player 1
    # (pi = [.25, .75], log pi/pi_reg = [0, log 3], plays 1); player 0 then gets +1.
    d = torch.float64
    return dict(
        v=torch.tensor([[0.1], [0.3]], dtype=d),
        valid=torch.ones(2, 1, dtype=torch.bool),
        player_id=torch.tensor([[0], [1]]),
        mu_taken=torch.tensor([[0.5], [0.75]], dtype=d),
        pi=torch.tensor([[[0.5, 0.5]], [[0.25, 0.75]]], dtype=d),
        log_pi_reg=torch.tensor([[[math.log(2), 0.0]], [[0.0, math.log(3)]]], dtype=d),
        actions_oh=torch.tensor([[[1.0, 0.0]], [[0.0, 1.0]]], dtype=d),
        eta=0.5,
    )


def test_rnad_vtrace_hand_example_player0():
    x = _two_step_inputs()
    targets, own, q = rnad_vtrace(**x, reward=torch.tensor([[0.0], [1.0]], dtype=torch.float64),
                                  player=0)
    ent0 = -0.5 * 0.5 * math.log(2)          # player 0's own regulariser
    ent1 = +0.5 * 0.75 * math.log(3)         # the opponent's, with the opposite sign
    assert own.reshape(-1).tolist() == [True, False]
    assert targets[0, 0].item() == pytest.approx(0.1 + (1 + ent1 + ent0 - 0.1))
    assert targets[1, 0].item() == 0.0
    carried = 1 + ent1                       # reward carried back through the opponent step
    assert q[0, 0].tolist() == pytest.approx(
        [0.1 - 0.5 * math.log(2) + (carried - 0.1) / 0.5, 0.1])
    assert q[1, 0].tolist() == [0.0, 0.0]


def test_rnad_vtrace_hand_example_player1():
    x = _two_step_inputs()
    targets, own, q = rnad_vtrace(**x, reward=torch.tensor([[0.0], [-1.0]], dtype=torch.float64),
                                  player=1)
    ent1 = -0.5 * 0.75 * math.log(3)
    assert own.reshape(-1).tolist() == [False, True]
    assert targets[1, 0].item() == pytest.approx(-1 + ent1)
    assert q[1, 0].tolist() == pytest.approx(
        [0.3, 0.3 - 0.5 * math.log(3) + (-1 - 0.3) / 0.75])


def test_rnad_vtrace_without_regularisation_is_monte_carlo():
    x = _two_step_inputs()
    x["eta"] = 0.0
    targets, _, _ = rnad_vtrace(**x, reward=torch.tensor([[0.0], [1.0]], dtype=torch.float64),
                                player=0)
    assert targets[0, 0].item() == pytest.approx(1.0)
