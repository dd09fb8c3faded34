"""A synthesis run folder: the names of its files, its typed metadata, reading and writing.

``ggp synth`` writes one folder per run (``docs/synth.md``); value, policy-prior and agent
selection (``ggp cwm ...``), the arena, the web app and the experiments read it. This
module is the one place that knows the folder's layout::

    metadata.json        RunMetadata: game, backend, settings, seeds, accuracies, counters
    rules.txt            the rules text given to the model
    trajectories.jsonl   the training trajectories (test_trajectories.jsonl: held out)
    tests.py             every training unit test, as one readable unittest module
    exchanges.jsonl      every request sent to the model and its answer
    tree.json            every candidate program (node) with its parent and scores
    programs/node_N.py   the code of each node
    cwm.py               the best program (the model agents play with)
    report.json          the best program's failing training and held-out tests
    value_function.py    the selected value function (value_selection.json: why)
    policy_prior.py      the selected policy prior (prior_selection.json: why)

A speed refinement (``ggp synth faster``) writes a folder of the same shape with its own
``metadata.json`` format (:data:`FASTER_FORMAT`): ``original.py``, ``faster.py``,
``candidates.json``.

It imports nothing above :mod:`ggp.core`, so every layer may use it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from ggp.core.errors import GGPError
from ggp.core.files import make_folder, write_output

#: The ``format`` of a synthesis run's metadata.json (old folders without one are 1 too).
FORMAT_VERSION = 1
#: The ``format`` of a speed refinement's metadata.json.
FASTER_FORMAT = "faster-1"

# The files of a run folder.
METADATA = "metadata.json"
RULES = "rules.txt"
TRAJECTORIES = "trajectories.jsonl"
TEST_TRAJECTORIES = "test_trajectories.jsonl"
TESTS = "tests.py"
EXCHANGES = "exchanges.jsonl"
TREE = "tree.json"
PROGRAMS = "programs"
MODEL = "cwm.py"
REPORT = "report.json"
VALUE_FUNCTION = "value_function.py"
VALUE_SELECTION = "value_selection.json"
VALUE_EXCHANGES = "value_exchanges.jsonl"
VALUE_CANDIDATES = "values"
POLICY_PRIOR = "policy_prior.py"
PRIOR_SELECTION = "prior_selection.json"
PRIOR_EXCHANGES = "prior_exchanges.jsonl"
PRIOR_CANDIDATES = "priors"
AGENT_SELECTION = "agent_selection.json"
# ... and of a speed refinement's folder.
ORIGINAL = "original.py"
FASTER_MODEL = "faster.py"
CANDIDATES = "candidates.json"

#: ``status`` values of a synthesis that ended by itself (not interrupted).
FINISHED = ("solved", "budget spent")
#: The metadata's ``source`` of a run on a registered game, and of one on a GDL description.
REFERENCE_SOURCE = "reference game"
GDL_SOURCE = "GDL description"


class RunError(GGPError):
    """A run directory is missing, incomplete or in the way."""


class ModelSourceError(GGPError):
    """A model source names no usable model file."""


# --------------------------------------------------------------------------- records
R = TypeVar("R", bound="_Record")


class _Record:
    """A JSON object with typed fields, read and written without loss.

    A key absent from the file stays absent and a key written as ``null`` stays ``null``:
    a field is written when it is not None, when it came from the file, or when it was
    assigned after construction (so ``meta.best = None`` writes ``"best": null``).
    Keys this version does not know are kept in ``extra``. A record read from a file is
    written back in the file's key order (new keys after), so that rewriting a run's
    metadata moves nothing; a new record is written in field order, then ``extra``.
    Subclasses are dataclasses; ``_nested`` names fields holding records.
    """

    _nested: ClassVar[dict[str, type[_Record]]] = {}
    extra: dict[str, Any]

    def __post_init__(self) -> None:
        given = {f.name for f in fields(self)  # type: ignore[arg-type]
                 if f.name != "extra" and getattr(self, f.name) is not None}
        object.__setattr__(self, "_given", given)
        object.__setattr__(self, "_order", [])

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        given = self.__dict__.get("_given")
        if given is not None and name != "extra":
            given.add(name)

    @classmethod
    def from_dict(cls: type[R], data: Any, where: str = "metadata") -> R:
        """The record of the JSON object ``data`` (``where`` names it in errors)."""
        if not isinstance(data, dict):
            raise RunError(f"{where} is not a JSON object.")
        names = [f.name for f in fields(cls) if f.name != "extra"]  # type: ignore[arg-type]
        values: dict[str, Any] = {}
        for name in names:
            if name not in data:
                continue
            value = data[name]
            nested = cls._nested.get(name)
            if nested is not None and value is not None:
                value = nested.from_dict(value, f"{where}.{name}")
            values[name] = value
        # every subclass is a dataclass with these fields and ``extra``
        record = cls(**values,  # type: ignore[call-arg]
                     extra={k: v for k, v in data.items() if k not in names})
        record.__dict__["_given"].update(values)  # present in the file, even as null
        record.__dict__["_order"] = list(data)
        return record

    def to_dict(self) -> dict[str, Any]:
        """The JSON object (key order: see the class)."""
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name == "extra" or f.name not in self.__dict__["_given"]:
                continue
            value = getattr(self, f.name)
            out[f.name] = value.to_dict() if isinstance(value, _Record) else value
        out.update(self.extra)
        order = [key for key in self.__dict__["_order"] if key in out]
        return {key: out[key] for key in order + [k for k in out if k not in order]}


@dataclass
class Backend(_Record):
    """The LLM backend and model that answered (``replayed_from``: the run whose recorded
    answers a replay reused)."""

    name: str | None = None
    model: str | None = None
    base_url: str | None = None
    replayed_from: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Seeds(_Record):
    """The seeds of the training games, the search and the held-out set."""

    trajectories: int | None = None
    search: int | None = None
    test_set: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class GdlCopy(_Record):
    """A run on a GDL description: the run's copy (``file``, relative to the folder),
    where it came from and whether it is GDL-II."""

    file: str | None = None
    original: str | None = None
    gdl_ii: bool | None = None
    #: "own": the program keeps its own state layout and is judged on what players see
    #: (absent in runs made before that choice, which compare the reasoner's states)
    layout: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class TrainInfo(_Record):
    """The training games: how many, the deck, who played, transitions, tests by kind."""

    games: int | None = None
    deck: str | None = None
    players: list[str] | None = None
    view_player: int | None = None
    transitions: int | None = None
    tests: dict[str, int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class TestInfo(_Record):
    """The held-out set (games, players: a list of specs, or ``"from file"``) and the best
    program's accuracy on it (overall, by kind ``{kind: [passed, total]}``)."""

    __test__ = False  # not a pytest test class, despite its name

    games: int | None = None
    players: list[str] | str | None = None
    accuracy: float | None = None
    transition_accuracy: float | None = None
    inference_accuracy: float | None = None
    by_kind: dict[str, list[int]] | None = None
    tests: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Tokens(_Record):
    """Tokens spent: prompt, completion and their total."""

    prompt: int | None = None
    completion: int | None = None
    total: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Best(_Record):
    """The best program: its node, training accuracy and tests by kind."""

    node: int | None = None
    train_accuracy: float | None = None
    train_by_kind: dict[str, list[int]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunMetadata(_Record):
    """A run folder's ``metadata.json``. The fields are in the order a synthesis writes
    them; ``settings`` is the search's settings as saved (``ggp.synth.refine.Settings``,
    or a speed refinement's), kept as a dict so that this module needs no search code.
    A speed refinement's own keys (``kind``, ``kept``, ...) are in ``extra``."""

    _nested: ClassVar[dict[str, type[_Record]]] = {
        "backend": Backend, "seeds": Seeds, "gdl": GdlCopy, "test": TestInfo,
        "train": TrainInfo, "tokens": Tokens, "best": Best}

    format: int | str | None = None
    game: str | None = None
    source: str | dict[str, Any] | None = None
    backend: Backend | None = None
    settings: dict[str, Any] | None = None
    seeds: Seeds | None = None
    started: str | None = None
    gdl: GdlCopy | None = None
    test: TestInfo | None = None
    train: TrainInfo | None = None
    status: str | None = None
    calls: int | None = None
    replayed_calls: int | None = None
    scripted_answers: int | None = None
    tokens: Tokens | None = None
    nodes: int | None = None
    answers_without_code: int | None = None
    best_train_accuracy: float | None = None
    time_s: float | None = None
    stopped_by: str | None = None
    best: Best | None = None
    finished: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Any, where: str = "metadata") -> RunMetadata:
        """The metadata of the JSON object ``data``; a format newer than this version's
        is refused (its fields may mean something else)."""
        meta = super().from_dict(data, where)
        if isinstance(meta.format, int) and meta.format > FORMAT_VERSION:
            raise RunError(f"{where} has format {meta.format}, newer than this ggp reads "
                           f"({FORMAT_VERSION}); update ggp to use this run.")
        return meta

    @property
    def is_speed_refinement(self) -> bool:
        """Whether the folder holds a speed refinement (``ggp synth faster``)."""
        return self.format == FASTER_FORMAT

    @property
    def is_finished(self) -> bool:
        """Whether the synthesis ended by itself (solved, or its budget spent)."""
        return self.status in FINISHED

    def truth_spec(self, folder: str | Path) -> str | None:
        """The spec of the run's ground truth: a registered game's name, or the path of
        the run's copy of its GDL description; None for runs without a ground truth."""
        if self.source == REFERENCE_SOURCE:
            return self.game
        if self.source == GDL_SOURCE and self.gdl is not None and self.gdl.file:
            return str(Path(folder) / self.gdl.file)
        return None


# --------------------------------------------------------------------------- the folder
class RunStore:
    """Reads and writes one run directory (writes are atomic renames)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def file(self, name: str) -> Path:
        """The path of the folder's file ``name`` (one of this module's names)."""
        return self.path / name

    def write(self, name: str, text: str) -> None:
        """Write ``text`` to the file ``name``, creating its folder."""
        # a fresh temporary file renamed over the target; a symbolic link planted in
        # the run folder is refused (ggp.core.files)
        target = self.file(name)
        make_folder(target.parent)
        write_output(target, text)

    def write_json(self, name: str, data: Any) -> None:
        """Write ``data`` as indented JSON to the file ``name``."""
        self.write(name, json.dumps(data, indent=1) + "\n")

    def read_json(self, name: str) -> Any:
        """The JSON file ``name``; RunError when it is missing or damaged."""
        try:
            return json.loads(self.file(name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RunError(f"{self.path} is not a synthesis run (no {name}).") from None
        except json.JSONDecodeError as exc:
            raise RunError(f"{self.file(name)} is damaged: {exc}.") from exc

    def exists(self) -> bool:
        """Whether the folder holds a run (its metadata.json)."""
        return self.file(METADATA).is_file()

    def load_metadata(self) -> RunMetadata:
        """The folder's metadata; RunError when it is missing, damaged or not an object."""
        return RunMetadata.from_dict(self.read_json(METADATA), str(self.file(METADATA)))

    def save_metadata(self, meta: RunMetadata) -> None:
        """Write ``meta`` as the folder's metadata.json."""
        self.write_json(METADATA, meta.to_dict())


def load_metadata(folder: str | Path) -> RunMetadata:
    """The metadata of the run in ``folder`` (RunError when there is none)."""
    return RunStore(folder).load_metadata()


def metadata_if_any(folder: str | Path) -> RunMetadata | None:
    """The metadata of the run in ``folder``, or None when it has none or it is unreadable
    (for readers that only enrich what they show with it)."""
    try:
        return load_metadata(folder)
    except (RunError, OSError):
        return None


# --------------------------------------------------------------------------- playing
def model_file(source: str | Path) -> Path:
    """The absolute path of the model of ``source``: a synthesis run directory (its
    ``cwm.py``) or a ``.py`` file. Absolute because sandboxed workers run elsewhere."""
    path = Path(source).expanduser().resolve()
    if path.is_dir():
        path = path / MODEL
    if not path.is_file() or path.suffix != ".py":
        raise ModelSourceError(
            f"No code world model at {source}: give a synthesis run directory holding "
            f"{MODEL}, or a .py model file.")
    return path


def value_file(source: str | Path, value: str) -> Path | None:
    """The value-function file to play with: ``value`` is ``""`` (none), ``"auto"`` (the
    run's selected ``value_function.py`` if there is one) or a path."""
    return _selected_file(source, value, VALUE_FUNCTION, "value-function", off=())


def prior_file(source: str | Path, prior: str) -> Path | None:
    """The policy-prior file to play with: ``prior`` is ``""`` or ``"none"`` (none),
    ``"auto"`` (the run's selected ``policy_prior.py`` if there is one, else none) or a
    path. The file defines ``policy_prior(state, player) -> {action: weight}``."""
    return _selected_file(source, prior, POLICY_PRIOR, "policy-prior", off=("none",))


def _selected_file(source: str | Path, setting: str, name: str, what: str,
                   off: tuple[str, ...]) -> Path | None:
    """None for an empty setting or one in ``off``; for ``"auto"`` the run folder's file
    ``name`` (the folder of ``source``, or the one holding it) if it exists; else
    ``setting`` as a path to an existing file."""
    if not setting or setting in off:
        return None
    if setting == "auto":
        path = Path(source).expanduser().resolve()
        selected = (path if path.is_dir() else path.parent) / name
        return selected if selected.is_file() else None
    path = Path(setting).expanduser().resolve()
    if not path.is_file():
        raise ModelSourceError(f"No {what} file at {setting}.")
    return path


def model_source(model: Path, value: Path | None = None, prior: Path | None = None) -> str:
    """The program an agent loads: the model, with the value function and the policy
    prior appended."""
    text = model.read_text(encoding="utf-8")
    for label, extra in (("value function", value), ("policy prior", prior)):
        if extra is not None:
            text += f"\n\n# ---- {label} ({extra.name})\n" + extra.read_text(encoding="utf-8")
    return text
