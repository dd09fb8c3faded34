"""A tic-tac-toe agent from a file (so the web app runs it sandboxed) that thinks for a
while: it plays the first empty cell after ``seconds``."""

import time

from ggp.agents.base import Agent


class Slow(Agent):
    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, history):
        time.sleep(self.seconds)
        board = history[-1][0]["board"]
        mark = "xo"[self.info.seat]
        for r, row in enumerate(board):
            for c, cell in enumerate(row):
                if cell == ".":
                    return f"{mark}({r},{c})"
        raise ValueError("no empty cell")


def make_agent(model, seconds: float = 1.0):
    return Slow(seconds)
