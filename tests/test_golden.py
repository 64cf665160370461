"""Golden replays: seeded one-deal games whose transcript is committed under tests/golden/.

Each game is ``Game.new(rules, players, seed=seed)`` played with ``simulate.random_move`` and
``random.Random(seed)`` to the end of the first deal. The transcript has one line per move
(``<move number> s<seat> <move text>``) and a final ``result`` line with the deal's reason,
who went out, and each side's score parts. A difference means the engine now plays or scores
these games differently; if that change is intended, regenerate the files with

    SAMBA_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py

and review the diff before committing it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from py_engine.record import game_record, replay
from py_engine.simulate import PARTS, random_move
from py_engine.state import Game

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES = [
    ("samba", 4, 1),
    ("samba", 4, 3),
    ("samba", 2, 4),
    ("samba", 3, 33),
    ("dutch", 4, 2),
    ("dutch", 4, 6),
    ("dutch", 6, 5),
    ("crawford", 6, 10),
    ("crawford", 6, 3),
    ("crawford", 4, 6),
]


def transcript(rules: str, players: int, seed: int) -> tuple[str, Game]:
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    lines = [f"# {rules} players={players} seed={seed} dealer={game.dealer}"]
    n = 0
    while game.phase not in ("deal_over", "game_over"):
        move = random_move(game, rng)
        seat = game.current
        game.play(move)
        n += 1
        lines.append(f"{n} s{seat} {move.text()}")
    res = game.deal_result
    parts = "; ".join(
        f"side {i}: " + " ".join(f"{p}={s[p]}" for p in PARTS) + f" total={s['total']}"
        for i, s in enumerate(res["sides"])
    )
    lines.append(f"result reason={res['reason']} went_out={res['went_out']} | {parts}")
    return "\n".join(lines) + "\n", game


def _path(rules, players, seed) -> Path:
    return GOLDEN_DIR / f"{rules}_{players}p_seed{seed}.txt"


@pytest.mark.parametrize("rules,players,seed", GAMES)
def test_golden_transcript(rules, players, seed):
    text, game = transcript(rules, players, seed)
    path = _path(rules, players, seed)
    if os.environ.get("SAMBA_REGEN_GOLDEN"):
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next(
            (i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want))
        )
        pytest.fail(
            f"{path.name} differs at line {first + 1}:\n"
            f"  golden: {want[first] if first < len(want) else '<end>'}\n"
            f"  now:    {got[first] if first < len(got) else '<end>'}\n"
            f"(set SAMBA_REGEN_GOLDEN=1 to regenerate if the change is intended)"
        )


@pytest.mark.parametrize("rules,players,seed", GAMES)
def test_golden_file_replays_as_a_record(rules, players, seed):
    """The committed moves, fed through a game record, reach the committed result."""
    lines = _path(rules, players, seed).read_text(encoding="utf-8").splitlines()
    moves = [ln.split(" ", 2)[2] for ln in lines[1:-1]]
    seats = [int(ln.split(" ", 2)[1][1:]) for ln in lines[1:-1]]
    assert len(moves) > 20
    game = replay(
        {
            "format": "samba-record/1",
            "rules": rules,
            "players": players,
            "target": 10000,
            "seed": seed,
            "moves": moves,
        }
    )
    assert game.phase in ("deal_over", "game_over")
    totals = [int(p.rsplit("total=", 1)[1]) for p in lines[-1].split(" | ", 1)[1].split("; ")]
    assert [s["total"] for s in game.deal_result["sides"]] == totals
    # the seat column agrees with the turn order the engine kept
    again = Game.new(rules, players, seed=seed)
    for seat, text in zip(seats, moves):
        assert again.current == seat
        again.play(text)
    assert game_record(again)["moves"] == moves
