"""Standard RL interfaces for every world model (see docs/ppo.md).

* :mod:`ggp.env.encoding` — the schema observation encoder and the action index (numpy);
* :mod:`ggp.env.envs` — the PettingZoo AEC environment, the Gymnasium seat environment and
  the vector environment (needs the ``env`` extra: gymnasium, pettingzoo);
* :mod:`ggp.env.games`, :mod:`ggp.env.samples`, :mod:`ggp.env.worker` — pure-protocol
  pieces that also run inside the sandboxed child (standard library and ``ggp`` only);
  an untrusted CWM is a :class:`ggp.sandbox.hosted.HostedModel` whose worker is
  :class:`ggp.env.worker.EnvHost` (protocol calls and whole batch steps).

* :mod:`ggp.env.factory` — ``gymnasium.make("ggp/<game>-v0")`` (registered here, on
  import) and PettingZoo's ``env()`` / ``raw_env()`` / ``parallel_env()``.

Nothing heavy is imported here, so the sandboxed child can import the light modules:
the Gymnasium ids are registered only outside it (the child is an isolated ``python -I``
interpreter) and only where Gymnasium is installed.
"""

import importlib.util as _util
import sys as _sys

if not _sys.flags.isolated and _util.find_spec("gymnasium") is not None:
    from ggp.env.factory import register_gymnasium_ids as _register

    _register()
