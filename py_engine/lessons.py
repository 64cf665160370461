"""Lessons: a scenario, a goal per step, short explanations (format in docs/lessons.md).

A lesson checks the reader's move with the engine: an illegal move is explained by the
engine's reason, a legal move that is not the goal by the lesson's ``wrong`` text.
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalMove, InvalidMove, ScenarioError
from .moves import parse_move
from .record import load_scenario
from .state import Game

LESSON_FORMAT = "samba-lesson/1"
MOVE_KINDS = (
    "Draw",
    "TakePile",
    "TakePileOnto",
    "TakeTop",
    "Meld",
    "Merge",
    "Discard",
    "Pass",
    "LayRedThree",
    "Ask",
    "Answer",
    "EndDeal",
    "NextDeal",
)
LESSON_LANGS = ("en", "fr", "ru", "nb")
STEP_TEXTS = ("goal", "success", "wrong")


def validate_lesson(d) -> dict:
    """Check a lesson's shape; returns it, or raises ScenarioError naming the problem."""
    if not isinstance(d, dict) or d.get("format") != LESSON_FORMAT:
        raise ScenarioError(f"a lesson is an object with format {LESSON_FORMAT!r}")
    for key in ("id", "title", "intro"):
        if not isinstance(d.get(key), str) or not d[key]:
            raise ScenarioError(f"lesson field {key!r} must be a non-empty text")
    steps = d.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ScenarioError("a lesson needs a list of steps")
    for i, st in enumerate(steps):
        if not isinstance(st, dict) or not isinstance(st.get("goal"), str):
            raise ScenarioError(f"step {i + 1} needs a 'goal' text")
        accept, kinds = st.get("accept", []), st.get("accept_kinds", [])
        if not isinstance(accept, list) or not isinstance(kinds, list) or not (accept or kinds):
            raise ScenarioError(f"step {i + 1} needs 'accept' moves or 'accept_kinds'")
        for k in kinds:
            if k not in MOVE_KINDS:
                raise ScenarioError(f"step {i + 1}: unknown move kind {k!r}")
        for t in accept:
            try:
                parse_move(t)
            except InvalidMove as e:
                raise ScenarioError(f"step {i + 1}: {e}") from None
    validate_translations(d.get("i18n"), len(steps))
    load_scenario(d.get("scenario"))
    return d


def validate_translations(block, n_steps: int) -> None:
    """The optional ``i18n`` block: {lang: {title, intro, steps: [{goal, success, wrong}]}}.

    Every text is optional (the English one at the top level is the fallback), but a
    language's ``steps`` list, when given, has one entry per step."""
    if block is None:
        return
    if not isinstance(block, dict):
        raise ScenarioError("lesson field 'i18n' must be an object of languages")
    for lang, tr in block.items():
        if lang not in LESSON_LANGS:
            raise ScenarioError(
                f"i18n: unknown language {lang!r} (one of {', '.join(LESSON_LANGS)})"
            )
        if not isinstance(tr, dict):
            raise ScenarioError(f"i18n.{lang} must be an object")
        for key in ("title", "intro"):
            if key in tr and (not isinstance(tr[key], str) or not tr[key]):
                raise ScenarioError(f"i18n.{lang}.{key} must be a non-empty text")
        steps = tr.get("steps", [])
        if not isinstance(steps, list) or ("steps" in tr and len(steps) != n_steps):
            raise ScenarioError(f"i18n.{lang}.steps must list {n_steps} step(s)")
        for i, st in enumerate(steps):
            if not isinstance(st, dict):
                raise ScenarioError(f"i18n.{lang} step {i + 1} must be an object")
            for key, text in st.items():
                if key not in STEP_TEXTS or not isinstance(text, str) or not text:
                    raise ScenarioError(
                        f"i18n.{lang} step {i + 1}: {key!r} must be one of "
                        f"{', '.join(STEP_TEXTS)}, a non-empty text"
                    )


def check_step(game: Game, step: dict, text: str) -> dict:
    """Is ``text`` legal now, and is it what the step asks for? Changes nothing."""
    out: dict[str, Any] = {
        "legal": False,
        "matches": False,
        "code": None,
        "message": None,
        "normalized": None,
    }
    try:
        move = parse_move(text)
    except InvalidMove as e:
        out.update(code="bad_move_text", message=str(e))
        return out
    out["normalized"] = move.text()
    try:
        game.verify(move)
    except IllegalMove as e:
        out.update(code=e.code, message=str(e))
        return out
    out["legal"] = True
    accepted = {parse_move(t) for t in step.get("accept", [])}  # equal whatever the card order
    out["matches"] = move in accepted or type(move).__name__ in step.get("accept_kinds", [])
    if not out["matches"]:
        out["message"] = step.get("wrong") or "That is legal, but not what this lesson asks."
    return out
