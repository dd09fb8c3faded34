"""Refinement of candidate world models against unit tests: conversation and REx tree search.

Both modes start from a request to write the model from the rules and a sample of the
tests (``tests_on_init`` of each kind), score every program extracted from an answer by
its pass rate on *all* training tests (the heuristic ``h``), and stop at 100 % or when the
call budget is spent.

* **conversation**: one chat. After each answer, the failures of its best program (one
  failing test of each kind, annotated with the error) are appended as the next turn.
* **tree** (REx, Tang et al. 2024): every program is a node. Each step picks the node
  maximizing a Thompson sample θ ~ Beta(1 + C·h, 1 + C·(1−h) + N), N = times the node
  was already refined, and sends a fresh prompt with its code and one failing test of each
  kind. A new node may be refined only if its ``h`` beats its parent's by
  ``min_gain`` (a first-generation node needs ``h ≥ min_init``); with no such node the
  next call is a fresh initial request. Several nodes can be refined in parallel.

Everything random (test samples, Thompson draws) comes from one seeded generator and
answers are processed in request order, so a run replays exactly from its log.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

from ggp.synth import prompts
from ggp.synth.llm import Answer, RecordingLLM
from ggp.synth.runner import RunReport, run_tests
from ggp.synth.unit_tests import UnitTest, render_module, sample_tests


@dataclass(frozen=True)
class Settings:
    """Refinement settings (defaults from seed 000 App. C.1.3 where it gives them)."""

    mode: str = "tree"  # "tree" or "conversation"
    max_calls: int = 500
    max_tokens: int | None = None  # stop once this many tokens were used (None: no cap)
    versions: int = 1  # programs requested per call
    heuristic_weight: float = 5.0  # C
    tests_on_init: int = 5
    tests_on_error: int = 1
    min_init: float = 0.01
    min_gain: float = 0.01
    parallel: int = 1  # concurrent requests (tree search only)
    seed: int = 0
    test_seconds: float = 5.0
    window: int = 0  # conversation: keep only the last `window` exchanges (0 = all)
    inference: bool = False  # also synthesize an inference function (hidden information)
    inference_kind: str = "history"  # "history" (resample_history) or "state" (resample_state)

    def __post_init__(self) -> None:
        if self.mode not in ("tree", "conversation"):
            raise ValueError(f"mode must be 'tree' or 'conversation', not {self.mode!r}")
        if self.inference_kind not in ("history", "state"):
            raise ValueError(f"inference_kind must be 'history' or 'state', not "
                             f"{self.inference_kind!r}")


@dataclass
class Node:
    """One candidate program and its score."""

    id: int
    parent: int | None
    call: int  # the LLM call that produced it
    code: str
    h: float  # pass rate on the training tests
    by_kind: dict[str, tuple[int, int]]
    load_error: str | None = None
    refined: int = 0  # N: times this node was sent for refinement
    expandable: bool = True

    def to_dict(self) -> dict:
        return {"id": self.id, "parent": self.parent, "call": self.call, "h": self.h,
                "by_kind": {k: list(v) for k, v in self.by_kind.items()},
                "load_error": self.load_error, "refined": self.refined,
                "expandable": self.expandable}


@dataclass
class Progress:
    """Counters reported after every answer."""

    calls: int = 0
    replayed: int = 0
    scripted: int = 0  # answers from a scripted fake, never a model's work
    prompt_tokens: int = 0
    completion_tokens: int = 0
    best_h: float = 0.0
    nodes: int = 0
    empty_answers: int = 0  # answers in which no code was found

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Refiner:
    """Runs one refinement search. ``on_node`` and ``on_progress`` let the caller save
    artifacts and show progress as the search goes."""

    def __init__(
        self,
        game: str,
        rules: str,
        tests: list[UnitTest],
        llm: RecordingLLM,
        settings: Settings,
        *,
        api: str = prompts.API,
        on_node: Callable[[Node], None] | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> None:
        self.game, self.rules, self.tests = game, rules, tests
        self.llm, self.settings, self.api = llm, settings, api
        self.rng = random.Random(settings.seed)
        self.nodes: list[Node] = []
        self.reports: dict[int, RunReport] = {}
        self._scores: dict[str, RunReport] = {}
        self.progress = Progress()
        self.on_node = on_node or (lambda node: None)
        self.on_progress = on_progress or (lambda progress: None)

    # ------------------------------------------------------------------ common
    @property
    def best(self) -> Node | None:
        return max(self.nodes, key=lambda n: (n.h, -n.id), default=None)

    @property
    def solved(self) -> bool:
        return self.best is not None and self.best.h >= 1.0

    def _budget_left(self) -> int:
        s = self.settings
        if s.max_tokens is not None and self.progress.tokens >= s.max_tokens:
            return 0
        return s.max_calls - self.progress.calls

    def run(self) -> Node | None:
        """Search until a program passes every training test or the budget is spent."""
        if self.settings.mode == "tree":
            self._tree_search()
        else:
            self._conversation()
        return self.best

    def _ask(self, requests: list[tuple[list[dict], str]]) -> list[Answer]:
        """Send requests (concurrently if several); answers in request order."""
        if len(requests) == 1:
            answers = [self.llm.complete(requests[0][0], purpose=requests[0][1])]
        else:
            with ThreadPoolExecutor(max_workers=len(requests)) as pool:
                futures = [pool.submit(self.llm.complete, m, purpose=p) for m, p in requests]
                answers = [f.result() for f in futures]
        for answer in answers:
            self.progress.calls += 1
            self.progress.replayed += answer.replayed
            self.progress.scripted += answer.scripted
            self.progress.prompt_tokens += answer.prompt_tokens
            self.progress.completion_tokens += answer.completion_tokens
        return answers

    def _add_programs(self, answer: Answer, parent: Node | None, call: int) -> list[Node]:
        """Score every program of ``answer`` (the ``call``-th) as a new node."""
        programs = prompts.candidates_from_answer(answer.text, parent.code if parent else None)
        added = []
        for code in programs:
            if code not in self._scores:  # the same program is not run twice
                self._scores[code] = run_tests(code, self.tests,
                                               test_seconds=self.settings.test_seconds)
            report = self._scores[code]
            node = Node(len(self.nodes), parent.id if parent else None, call,
                        code, report.pass_rate, report.by_kind(), report.load_error)
            threshold = self.settings.min_init if parent is None else \
                parent.h + self.settings.min_gain
            node.expandable = node.h >= threshold and node.h < 1.0
            self.nodes.append(node)
            self.reports[node.id] = report
            self.on_node(node)
            added.append(node)
        self.progress.nodes = len(self.nodes)
        self.progress.best_h = self.best.h if self.best else 0.0
        self.progress.empty_answers += not programs
        self.on_progress(self.progress)
        return added

    def _initial_tests(self) -> str:
        sample = sample_tests(self.tests, self.settings.tests_on_init, self.rng)
        return render_module(sample)

    def _failing_tests(self, node: Node) -> str:
        report = self.reports[node.id]
        failing = {r.id for r in report.failed()}
        sample = sample_tests(self.tests, self.settings.tests_on_error, self.rng, only=failing)
        results = report.as_dict()
        return render_module(sample, results)

    # ------------------------------------------------------------------ tree search
    def _thompson_pick(self, frontier: list[Node]) -> Node:
        c = self.settings.heuristic_weight

        def draw(node: Node) -> float:
            return self.rng.betavariate(1 + c * node.h, 1 + c * (1 - node.h) + node.refined)

        return max(frontier, key=draw)

    def _tree_search(self) -> None:
        s = self.settings
        while not self.solved and self._budget_left() > 0:
            batch: list[Node | None] = []
            for _ in range(min(s.parallel, self._budget_left())):
                frontier = [n for n in self.nodes if n.expandable]
                if not frontier:
                    batch.append(None)
                    break  # an initial request; its answers decide what comes next
                node = self._thompson_pick(frontier)
                node.refined += 1
                batch.append(node)
            requests = []
            for node in batch:
                if node is None:
                    text = prompts.initial_prompt(self.game, self.rules, self._initial_tests(),
                                                  s.versions, self.api)
                    requests.append(([{"role": "user", "content": text}], "initial"))
                else:
                    text = prompts.refine_prompt(self.game, self.rules, node.code,
                                                 self._failing_tests(node), s.versions,
                                                 self.api)
                    requests.append(([{"role": "user", "content": text}],
                                     f"refine node {node.id}"))
            first_call = self.progress.calls + 1
            for i, (node, answer) in enumerate(zip(batch, self._ask(requests))):
                self._add_programs(answer, node, first_call + i)
                if node is not None:
                    self.on_node(node)  # its refinement count changed

    # ------------------------------------------------------------------ conversation
    def _conversation(self) -> None:
        s = self.settings
        first = {"role": "user", "content": prompts.initial_prompt(
            self.game, self.rules, self._initial_tests(), s.versions, self.api)}
        turns: list[dict] = []
        current: Node | None = None
        while not self.solved and self._budget_left() > 0:
            # Turns come in (assistant, user) pairs, so a window keeps the alternation.
            kept = turns[-2 * s.window:] if s.window else turns
            (answer,) = self._ask([([first, *kept], "conversation")])
            added = self._add_programs(answer, current, self.progress.calls)
            if added:
                current = max(added, key=lambda n: (n.h, -n.id))
            if self.solved:
                break
            turns.append({"role": "assistant", "content": answer.text})
            if current is None:
                turns.append({"role": "user", "content": prompts.NO_CODE_MESSAGE})
            else:
                feedback = prompts.feedback_message(self._failing_tests(current), s.versions)
                if not added:
                    feedback = prompts.NO_CODE_MESSAGE + "\n\n" + feedback
                turns.append({"role": "user", "content": feedback})

