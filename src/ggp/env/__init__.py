"""Standard RL interfaces for every world model (see docs/ppo.md).

* :mod:`ggp.env.encoding` — the schema observation encoder and the action index (numpy);
* :mod:`ggp.env.envs` — the PettingZoo AEC environment, the Gymnasium seat environment and
  the vector environment (needs the ``env`` extra: gymnasium, pettingzoo);
* :mod:`ggp.env.sandboxed` — untrusted CWMs in a sandboxed worker;
* :mod:`ggp.env.games`, :mod:`ggp.env.samples`, :mod:`ggp.env.worker` — pure-protocol
  pieces that also run inside the sandboxed child (standard library and ``ggp`` only).

Nothing heavy is imported here, so the sandboxed child can import the light modules.
"""
