"""Every built-in lesson loads, and each step's goal is reachable with a legal move."""

from __future__ import annotations

import json
import pathlib

import pytest

from py_engine.bridge import Bridge
from py_engine.errors import ScenarioError
from py_engine.legal import legal_moves
from py_engine.lessons import check_step, validate_lesson
from py_engine.record import load_scenario

HERE = pathlib.Path(__file__).resolve().parent
LESSON_DIR = HERE.parent / "web" / "lessons"
if not LESSON_DIR.exists():  # inside Pyodide the runner copies the lessons next to tests
    LESSON_DIR = HERE / "lessons_data"


def lesson_files():
    index = json.loads((LESSON_DIR / "index.json").read_text())
    return [LESSON_DIR / name for name in index["lessons"]]


def test_at_least_ten_lessons_covering_the_topics():
    files = lesson_files()
    assert len(files) >= 10
    kinds = set()
    for f in files:
        for st in json.loads(f.read_text())["steps"]:
            kinds |= set(st.get("accept_kinds", []))
            kinds |= {t.split()[0] for t in st.get("accept", [])}
    for needed in ("Draw", "Discard", "take", "top", "meld", "ask", "red3"):
        assert needed in kinds, needed


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_lesson_steps_are_reachable(path):
    lesson = validate_lesson(json.loads(path.read_text()))
    game = load_scenario(lesson["scenario"])
    for i, step in enumerate(lesson["steps"]):
        if game.phase not in ("draw", "meld"):
            pytest.fail(f"step {i + 1}: the game is in phase {game.phase}")
        candidates = list(step.get("accept", []))
        candidates += [
            m.text() for m in legal_moves(game) if type(m).__name__ in step.get("accept_kinds", [])
        ]
        assert candidates, f"step {i + 1}: no legal move reaches the goal"
        result = check_step(game, step, candidates[0])
        assert result["legal"] and result["matches"], (i, result)
        game.play(candidates[0])


def test_lesson_explains_wrong_and_illegal_moves():
    lesson = validate_lesson(json.loads((LESSON_DIR / "02-groups-and-wild-cards.json").read_text()))
    game = load_scenario(lesson["scenario"])
    illegal = check_step(game, lesson["steps"][0], "meld new 8S 8H 2C 2D")
    assert not illegal["legal"] and illegal["code"] == "too_many_wilds"
    wrong = check_step(game, lesson["steps"][0], "discard KS")
    assert (
        wrong["legal"] and not wrong["matches"] and wrong["message"] == lesson["steps"][0]["wrong"]
    )


def test_bridge_lesson_flow():
    lesson = json.loads((LESSON_DIR / "09-black-threes-going-out.json").read_text())
    b = Bridge()
    r = json.loads(b.handle(json.dumps({"op": "lesson", "lesson": lesson})))
    assert r["ok"] and r["step"] == 0
    bad = json.loads(b.handle(json.dumps({"op": "lesson_check", "move": "meld new 3C 3S"})))
    assert bad["ok"] and not bad["lesson"]["legal"] and bad["lesson"]["code"] == "too_few_cards"
    assert bad["version"] == r["version"]
    wrong = json.loads(b.handle(json.dumps({"op": "lesson_check", "move": "discard QS"})))
    assert wrong["lesson"]["legal"] and not wrong["lesson"]["matches"]
    assert wrong["lesson"]["message"] == lesson["steps"][0]["wrong"]
    assert wrong["version"] == r["version"] and len(wrong["view"]["hand"]) == 4
    ok1 = json.loads(b.handle(json.dumps({"op": "lesson_check", "move": "meld new 3C 3S 3C"})))
    assert ok1["lesson"]["matches"] and ok1["lesson"]["step"] == 1 and not ok1["lesson"]["done"]
    ok2 = json.loads(b.handle(json.dumps({"op": "lesson_check", "move": "discard QS"})))
    assert ok2["lesson"]["done"] and ok2["view"]["deal_result"]["went_out"] == 0


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.stem)
def test_lesson_is_translated(path):
    """fr, ru and nb: every text the English has, one entry per step (docs/lessons.md)."""
    lesson = json.loads(path.read_text(encoding="utf-8"))
    block = lesson.get("i18n", {})
    for lang in ("fr", "ru", "nb"):
        tr = block.get(lang)
        assert isinstance(tr, dict), f"no {lang!r} block"
        for key in ("title", "intro"):
            assert isinstance(tr.get(key), str) and tr[key].strip(), f"{lang}: no {key}"
            assert tr[key] != lesson[key], f"{lang}: {key} is the English text"
        assert len(tr.get("steps", [])) == len(lesson["steps"]), f"{lang}: step count"
        for i, (en, st) in enumerate(zip(lesson["steps"], tr["steps"])):
            for key in ("goal", "success", "wrong"):
                if en.get(key):
                    assert isinstance(st.get(key), str) and st[key].strip(), (
                        f"{lang} step {i + 1}: no {key}"
                    )
                    assert st[key] != en[key], f"{lang} step {i + 1}: {key} is the English text"


def test_translation_block_is_checked():
    base = json.loads((LESSON_DIR / "07-blocked-pile.json").read_text(encoding="utf-8"))
    for block, why in [
        ({"de": {"title": "x"}}, "unknown language"),
        ({"fr": {"steps": []}}, "steps"),
        ({"fr": {"title": ""}}, "title"),
        ({"fr": {"steps": [{"goal": 3}]}}, "goal"),
        ({"fr": {"steps": [{"hint": "x"}]}}, "hint"),
    ]:
        with pytest.raises(ScenarioError) as e:
            validate_lesson({**base, "i18n": block})
        assert why in str(e.value), (block, str(e.value))
    validate_lesson({**base, "i18n": {"fr": {"title": "Seul le titre"}}})


@pytest.mark.parametrize(
    "bad,why",
    [
        ({"format": "x"}, "format"),
        ({"format": "samba-lesson/1", "id": "a", "title": "t", "intro": "i", "steps": []}, "steps"),
        (
            {
                "format": "samba-lesson/1",
                "id": "a",
                "title": "t",
                "intro": "i",
                "steps": [{"goal": "g", "accept": ["zz"]}],
                "scenario": {"hands": [["9C"], ["9D"]]},
            },
            "unknown move",
        ),
    ],
)
def test_bad_lessons_are_refused(bad, why):
    with pytest.raises(ScenarioError) as e:
        validate_lesson(bad)
    assert why in str(e.value)
