"""Misbehaving agents for the arena tests, loaded from this file inside the sandbox.

``make_agent(model, mode=..., after=1)``: the agent plays random legal moves for its first
``after`` moves, then misbehaves in the way ``mode`` names.
"""

import os
import sys
import time

from ggp.agents.base import Agent


class EvilAgent(Agent):
    def __init__(self, model, mode, after):
        self.model = model
        self.mode = mode
        self.after = after
        self.name = f"evil-{mode}"

    def start(self, info):
        super().start(info)
        self.moves = 0
        if self.mode == "start_raise":
            raise RuntimeError("refusing to start")

    def act(self, history):
        self.moves += 1
        if self.moves > self.after:
            if self.mode == "illegal":
                return "x(9,9)"
            if self.mode == "not_string":
                return 42
            self.misbehave()
        # the test games have perfect information: the observation is the state
        return self.rng.choice(self.model.legal_actions(history[-1][0]))

    def misbehave(self):
        if self.mode == "raise":
            raise ValueError("evil agent raises on purpose")
        if self.mode == "hang":
            while True:
                time.sleep(0.01)
        if self.mode == "spin":
            while True:
                pass
        if self.mode == "allocate":
            hoard = []
            while True:
                hoard.append(bytearray(50_000_000))
        if self.mode == "print":
            while True:
                sys.stdout.write("spam " * 20_000)
        if self.mode == "crash":
            os._exit(3)
        if self.mode == "fork_and_hang":
            for _ in range(3):
                os.fork()
            time.sleep(1000)


def make_agent(model, mode="raise", after=1):
    return EvilAgent(model, mode, after)
