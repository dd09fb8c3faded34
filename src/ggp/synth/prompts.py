"""Prompts for code world model synthesis, and extraction of code from answers.

The prompts carry the ingredients of seed 000 App. G.1 in our own words: the game's
name and rules, the API to implement, the current code (when refining), unit tests
(failing ones annotated with their errors) and a request for several alternative
versions, each in its own fenced ``python`` block.
"""

from __future__ import annotations

import ast
import re

API = '''\
from typing import Any

Action = str                 # a move written as text, e.g. "x(1,2)" or "Raise"
State = dict[str, Any]       # the complete game state; only JSON values inside
Observation = dict[str, Any] # what one player perceives of a state; JSON values only

INITIAL_STATE: State
    # The state before anything happens (before any chance move such as a deal).

def get_current_player(state: State) -> int:
    """Who acts now: 0..num_players-1, -1 for a chance move, -4 once the game is over."""

def get_player_name(player_id: int) -> str:
    """A name for the player; "chance" for -1 and "terminal" for -4."""

def get_legal_actions(state: State) -> list[Action]:
    """The actions allowed now; at a chance move, its possible outcomes; [] at the end."""

def apply_action(state: State, action: Action) -> State:
    """The state after `action`. Must return a new state and leave `state` unchanged."""

def get_rewards(state: State) -> list[float]:
    """One number per player: what each player earned by the move that led to `state`."""

def get_observations(state: State) -> list[Observation]:
    """One observation per player. When nothing is hidden, each is the full state."""

# Optional: only needed when the outcomes of a chance move are not equally likely.
def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    """At a chance move: each outcome with its probability (they sum to 1)."""
'''

INFERENCE_API = '''
# Hidden-information inference: the player sees only its own observations.
def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int{extra}) -> list[Action]:
    """A random complete list of actions, chance moves included, that could have produced
    what player_id saw: replaying it with apply_action from INITIAL_STATE must give the
    player exactly these observations at its turns, with its own actions as listed, and
    stop at its last observation (whose action is None){end}. May use the random module."""
'''

RULES_OF_THE_TASK = """\
Requirements for your code:
- Write one self-contained Python module: module-level INITIAL_STATE and functions,
  standard library only, no input/output.
- The game functions must be deterministic (chance is a player whose possible moves are
  listed by get_legal_actions) and must not change their arguments.
- States and observations must use exactly the keys and value formats that appear in the
  unit tests, because the tests compare them with ==.
"""


def _tests_block(test_code: str) -> str:
    return f"Unit tests (INITIAL_STATE and the functions come from your module):\n" \
           f"```python\n{test_code}\n```\n"


def api_text(inference: bool = False, closed_deck: bool = False) -> str:
    """The API to implement, with the inference function when it is asked for."""
    if not inference:
        return API
    if closed_deck:
        return API + INFERENCE_API.format(
            extra=",\n                     last_is_terminal: bool",
            end="; when last_is_terminal is true, that last\n    observation is the one at "
                "the end of the game")
    return API + INFERENCE_API.format(extra="", end="")


def initial_prompt(game: str, rules: str, test_code: str, versions: int,
                   api: str = API) -> str:
    """The first request: write the model from the rules and example tests."""
    return (
        f"You are an experienced Python programmer. Your job is to implement the game "
        f"{game!r} as a code world model: plain functions that compute states, legal "
        f"moves, observations and rewards.\n\n"
        f"The rules of the game:\n<rules>\n{rules.strip()}\n</rules>\n\n"
        f"Implement this API:\n```python\n{api}```\n{RULES_OF_THE_TASK}\n"
        f"{_tests_block(test_code)}\n"
        f"{_closing(versions)}"
    )


def refine_prompt(game: str, rules: str, code: str, test_code: str, versions: int,
                  api: str = API) -> str:
    """A fresh request to repair ``code`` given failing tests (tree search)."""
    return (
        f"You are an experienced Python programmer working on a code world model of the "
        f"game {game!r}: plain functions that compute states, legal moves, observations "
        f"and rewards.\n\n"
        f"The rules of the game:\n<rules>\n{rules.strip()}\n</rules>\n\n"
        f"The API to implement:\n```python\n{api}```\n{RULES_OF_THE_TASK}\n"
        f"Here is the current implementation:\n```python\n{code.rstrip()}\n```\n\n"
        f"It fails the unit tests below. The comments marked TODO above each test give "
        f"the error it produced; fix the code so that these tests (and the rules) are "
        f"satisfied.\n{_tests_block(test_code)}\n"
        f"{_closing(versions)}"
    )


def feedback_message(test_code: str, versions: int) -> str:
    """The next user turn of a conversation: the tests the last answer failed."""
    return (
        "Your code fails the unit tests below. The comments marked TODO above each test "
        "give the error it produced. Think about the cause, then write the corrected, "
        "complete module.\n"
        f"{_tests_block(test_code)}\n{_closing(versions)}"
    )


NO_CODE_MESSAGE = (
    "I could not find any code in your answer. Please answer with the complete module "
    "in a fenced block that starts with ```python."
)


def _closing(versions: int) -> str:
    plural = f"{versions} different versions of the complete module" if versions > 1 \
        else "the complete module"
    return (
        "First reason briefly about the rules, the tests and any errors. Then write "
        f"{plural}. Put each version in its own fenced block starting with ```python. "
        "Do not copy the unit tests into your code, leave no placeholders, and keep the "
        "code compact, with short comments and helper functions where they avoid "
        "repetition."
    )


# --------------------------------------------------------------------------- extraction
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


def extract_code_blocks(text: str) -> list[str]:
    """Fenced code blocks in ``text``: ``python`` blocks if any, else untagged blocks
    that parse as Python, else the whole text if it parses as Python and defines a
    function. An unterminated last block (a cut-off answer) counts."""
    blocks = [(lang.lower(), body.strip("\n")) for lang, body in _FENCE.findall(text)]
    python = [body for lang, body in blocks if lang in ("python", "py", "python3")]
    if python:
        return [b for b in python if b.strip()]
    plain = [body for lang, body in blocks if lang == "" and _parses(body)]
    if plain:
        return plain
    if "def " in text and _parses(text):
        return [text.strip("\n")]
    return []


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
        return True
    except (SyntaxError, ValueError):
        return False


def defined_names(code: str) -> set[str]:
    """Top-level function and variable names a block defines (empty if unparsable)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def candidates_from_answer(text: str, parent: str | None = None) -> list[str]:
    """The candidate programs in an answer.

    A block that defines ``apply_action`` is a whole program. Other blocks are patches:
    with a parent program they are appended to it (later definitions win); without one,
    all blocks together form one program.
    """
    blocks = extract_code_blocks(text)
    whole = [b for b in blocks if "apply_action" in defined_names(b)]
    patches = [b for b in blocks if b not in whole and defined_names(b)]
    programs = list(whole)
    if patches and parent is not None and not whole:
        programs += [parent.rstrip() + "\n\n\n" + patch for patch in patches]
    elif patches and not whole:
        programs.append("\n\n\n".join(patches))
    return programs

