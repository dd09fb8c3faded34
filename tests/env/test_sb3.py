"""The Stable-Baselines3 VecEnv over the batched seat environment (ggp.env.sb3): SB3's
conventions (terminal observations, truncation, episode infos, seeding) and sb3-contrib's
MaskablePPO training on it, in process and over a sandboxed CWM's batch worker."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from ggp.env.envs import Encoding  # noqa: E402
from ggp.env.sb3 import GameVecEnv  # noqa: E402
from ggp.env.worker import ENV_ENTRY  # noqa: E402
from ggp.load import load_model  # noqa: E402
from ggp.sandbox.hosted import HostedModel  # noqa: E402

LEDUC_CWM = Path(__file__).resolve().parents[2] / "examples" / "recorded" / "leduc_poker"


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny networks: threads only contend
    yield
    torch.set_num_threads(before)


def _random_steps(venv: GameVecEnv, steps: int, seed: int) -> tuple[list, list]:
    """Masked random actions; returns the observations and the finished games' infos."""
    rng = np.random.default_rng(seed)
    seen, ended = [venv.reset()], []
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        actions = [rng.choice(np.flatnonzero(m)) for m in masks]
        obs, reward, done, infos = venv.step(np.array(actions))
        seen.append(obs)
        ended.extend(info for info, d in zip(infos, done) if d)
    return seen, ended


def test_sb3_conventions_on_a_reference_game() -> None:
    model = load_model("tic_tac_toe")
    encoding = Encoding.for_model(model, games=20)
    venv = GameVecEnv(model, encoding, n=4, seat=1)
    assert venv.observation_space.shape == (encoding.encoder.size,)
    assert venv.action_space.n == 9
    _, ended = _random_steps(venv, 30, seed=0)
    assert ended
    for info in ended:
        assert info["terminal_observation"].shape == venv.observation_space.shape
        assert not info["TimeLimit.truncated"] and info["episode"]["l"] >= 1
        assert info["episode"]["r"] in (-1.0, 0.0, 1.0)
    # seeding takes effect at the next reset and replays the same games
    runs = []
    for _ in range(2):
        venv.seed(5)
        runs.append(_random_steps(venv, 10, seed=1)[0])
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


def test_truncation_is_reported_as_sb3_expects() -> None:
    model = load_model("connect_four")
    venv = GameVecEnv(model, Encoding.for_model(model, games=5), n=2, max_steps=4)
    _, ended = _random_steps(venv, 3, seed=0)
    assert ended and all(info["TimeLimit.truncated"] for info in ended)


def test_maskable_ppo_trains_over_a_sandboxed_cwm() -> None:
    """The recorded real-model Leduc CWM runs in its sandboxed worker, one round trip per
    batch step; MaskablePPO trains on it for a few hundred steps."""
    from sb3_contrib import MaskablePPO

    truth = load_model("leduc_poker")
    with HostedModel(LEDUC_CWM, truth.metadata, entry=ENV_ENTRY) as cwm:
        encoding = Encoding.for_model(cwm, games=30)
        venv = GameVecEnv(cwm, encoding, n=8, seat=0, seed=3)
        agent = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=2,
                            policy_kwargs={"net_arch": [32]}, seed=0, device="cpu")
        before = [p.detach().clone() for p in agent.policy.parameters()]
        agent.learn(512)
        assert agent.num_timesteps >= 512
        assert len(agent.ep_info_buffer) > 0  # finished games reached SB3's logger
        assert any(not torch.equal(a, b) for a, b in zip(before, agent.policy.parameters()))
        # the trained policy answers with legal actions under the masks
        obs = venv.reset()
        masks = venv.action_masks()
        actions, _ = agent.predict(obs, action_masks=masks, deterministic=True)
        assert all(masks[i, a] for i, a in enumerate(actions))
