"""Writes the blunder positions (``*.json`` beside this file) from compact descriptions.

    python tests/blunders/make_cases.py          # rewrite the JSON files, print medium's choices

The JSON files are what the tests read; this script only saves typing (forced draw/discard turns
in ``before``, the going-out moves of a hand). Format: ``py_engine/ai/judge.py``.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Iterator

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from py_engine.ai.judge import check, position, split_moves  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.cards import parse_kind  # noqa: E402
from py_engine.legal import legal_moves  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JUNK = [
    "4C",
    "5D",
    "6S",
    "7C",
    "8D",
    "4H",
    "5S",
    "6C",
    "7D",
    "8S",
    "4S",
    "5C",
    "6D",
    "7S",
    "8C",
    "4D",
    "5H",
    "6H",
    "7H",
    "8H",
    "9C",
    "TD",
    "9H",
    "TS",
]
CASES: dict[str, list] = {}


def forced_turns(case: dict, upto_seat: int, rounds: int, junk=JUNK, draws=None) -> None:
    """Append draw/discard turns (each seat discards the first card it drew) until ``upto_seat``
    has drawn in its ``rounds``-th turn; the stock's first cards are ``junk``."""
    g = position(case)
    # count the draws first: (turns until upto_seat's last draw) * 2 cards
    n = g.players
    turns, s, r = [], g.current, 0
    if g.phase == "meld":
        s = (s + 1) % n
    while True:
        turns.append(s)
        if s == upto_seat:
            r += 1
            if r == rounds:
                break
        s = (s + 1) % n
    case["stock_top"] = junk_for(case["scenario"], 2 * len(turns), junk, draws or [])
    if draws:  # the cards upto_seat draws, two per turn (the first is discarded)
        own = [i for i, s in enumerate(turns) if s == upto_seat]
        for j, i in enumerate(own):
            case["stock_top"][2 * i : 2 * i + 2] = draws[2 * j : 2 * j + 2]
    g = position(case)
    before = list(case.get("before", []))
    i = 0
    for t, s in enumerate(turns):
        assert g.current == s and g.phase == "draw", (g.current, s, g.phase)
        g.play("draw")
        before.append("draw")
        if t == len(turns) - 1:
            break
        d = "discard " + case["stock_top"][2 * t]
        g.play(d)
        before.append(d)
    case["before"] = before


def used_kinds(sc: dict, extra=()) -> dict[int, int]:
    """How many copies of each kind the scenario places (the hands given as lists, the pile, the
    melds) and ``extra``."""
    used: dict[int, int] = {}
    for t in (
        [t for h in sc["hands"] if isinstance(h, list) for t in h]
        + sc.get("pile", [])
        + [t for side in sc.get("melds", []) for m in side for t in m]
        + list(extra)
    ):
        used[parse_kind(t)] = used.get(parse_kind(t), 0) + 1
    return used


def spare(cycle, used: dict[int, int]) -> Iterator[str]:
    """The ``cycle``'s cards round and round, each while the deck has a copy of its kind left
    (three), counted in ``used``."""
    while True:
        for t in cycle:
            k = parse_kind(t)
            if used.get(k, 0) < 3:
                used[k] = used.get(k, 0) + 1
                yield t


def junk_for(sc: dict, n: int, prefer, extra=()) -> list[str]:
    """``n`` low cards for forced draws, as many copies as the deck still has."""
    low = spare(prefer, used_kinds(sc, extra))
    return [next(low) for _ in range(n)]


FILL = [
    "4C",
    "6D",
    "7S",
    "TD",
    "KC",
    "5H",
    "9S",
    "QH",
    "8C",
    "JD",
    "AS",
    "4H",
    "6S",
    "7D",
    "TS",
    "KH",
    "5C",
    "9D",
    "QC",
    "8H",
    "JS",
    "AD",
]


def fill(sc: dict) -> None:
    """Hands given as a number of cards are dealt from FILL, the deck's copies respected."""
    deal = spare(FILL, used_kinds(sc))
    for j, h in enumerate(sc["hands"]):
        if isinstance(h, int):
            sc["hands"][j] = [next(deal) for _ in range(h)]


def add(kind: str, **case) -> dict:
    """Files the case (a copy: the tables above share lists) under its kind."""
    case = copy.deepcopy({"id": case.pop("id"), "kind": kind, **case})
    fill(case["scenario"])
    CASES.setdefault(kind, []).append(case)
    return case


def finish() -> None:
    med = MediumBot(seed=1)
    bad_total = 0
    for kind, cases in CASES.items():
        for c in cases:
            bad, good = split_moves(c, legal_moves(position(c)))
            assert good and (bad or c.get("after")), (c["id"], bad, good)
            ok, mv = check(c, med)
            flag = "ok" if ok else "BLUNDER"
            bad_total += not ok
            print(f"{flag:8} {c['id']:34} medium: {mv:28} blunders: {[m.text() for m in bad[:4]]}")
        with open(os.path.join(HERE, kind + ".json"), "w", encoding="utf-8") as f:
            json.dump(cases, f, indent=1, ensure_ascii=False)
            f.write("\n")
    print(sum(len(c) for c in CASES.values()), "cases;", bad_total, "medium blunders")


def cards(text: str) -> list[str]:
    return text.split()


def scenario(
    tbl: dict, seed: int, phase: str, hands: list, melds: list, pile: list, current=0, **extra
) -> dict:
    """A case's position (``record.load_scenario``), its keys in the JSON files' order."""
    return {
        **tbl,
        "seed": seed,
        "current": current,
        "phase": phase,
        **extra,
        "hands": hands,
        "melds": melds,
        "pile": pile,
    }


def judged(cid: str) -> str:
    return "Judged by self-play: python -m py_engine.ai.judge tests/blunders --id " + cid


# ---------------------------------------------------------------------------------------------
S2 = {"rules": "samba", "players": 2}
S4 = {"rules": "samba", "players": 4}
D4 = {"rules": "dutch", "players": 4}
D6 = {"rules": "dutch", "players": 6}
C6 = {"rules": "crawford", "players": 6}
ISSUE = "issue 15 (observed in play)"
CLUB = "club play: the standard advice of Canasta/Samba strategy guides"
SIDES = {2: 2, 4: 2, 6: 3}  # players: sides (partnerships) at the table
SEVENS_EIGHTS = [cards("7C 7C 7D 7D 7S 7H 7H"), cards("8D 8D 8H 8H 8C 2C 2D")]  # two canastas
ACES_JACKS = [cards("AC AC AD AD AS AH AH"), cards("JC JD JH JS JS JC JD")]  # two canastas
OPEN_PILE = cards("9C 4D 8D 6C")


def known_pair() -> None:
    why = (
        "the next opponent took the pile with {p} in it (the log shows the whole pile) and "
        "has neither melded nor discarded them: it holds a pair of {r}, so discarding a {r1} "
        "hands it a pile of {n}+ cards"
    )
    specs = [  # id, table, pile, the next opponent's take, the card it holds a pair of, hand
        ("known-pair-jacks-s4", S4, "JD JH 9C", "take 9S 9D", "JC", "JC KD QH TC TC AS", 3),
        ("known-pair-queens-s4", S4, "QS QC 8C", "take 8S 8H", "QD", "QD KH 9S 9S TD AC", 3),
        ("known-pair-kings-s2", S2, "KS KH TC", "take TS TH", "KD", "KD QS JH JH 9D AD", 5),
        ("known-pair-nines-d4", D4, "9H 9C JC", "take JS JD", "9S", "9S KC QD QD TH AH", 3),
        ("known-pair-aces-s4", S4, "AH AC TC", "take TS TD", "AD", "AD KD QH JS 9C 9C", 3),
        ("known-pair-tens-c6", C6, "TH TC QC", "take QS QD", "TS", "TS KD JH 9S 9S AC", 2),
    ]
    for cid, tbl, pile, take, bad, hand0, rounds in specs:
        n = tbl["players"]
        two = take.split()[1:]
        hands = [cards(hand0), two + ["KS", "5H", "9H", "JS"]] + [5] * (n - 2)
        melds = [[["KC", "KC", "KH"]], [["8H", "8C", "8D"]]] + [[] for _ in range(SIDES[n] - 2)]
        if tbl["rules"] == "crawford":
            melds = [[["KC", "KC", "KH"]], [["8H", "8C", "8D"]], [["6H", "6C", "6S"]]]
        c = add(
            "known_pair",
            id=cid,
            reason=why.format(p=" ".join(cards(pile)[:2]), r=bad[0], r1=bad[0], n=3 * rounds),
            source=ISSUE + ": 'the next opponent took 19 cards with J♦ J♥'",
            scenario=scenario(tbl, 3, "draw", hands, melds, cards(pile), current=1),
            before=[take, "discard 5H"],
            blunders=["discard " + bad],
        )
        forced_turns(c, 0, rounds)


def block() -> None:
    rich = cards("9C KD 6H QS 8D TC JH AS 7C 5D 4S KH 9D QC TD 8S 6C JS AD 7H")
    reasons = {
        "block-black3-s4": "a black three on top blocks the pile for the next player; any other "
        "card here lets the next opponent (11 cards) take 20 cards with a pair",
        "block-black3-s2": "a black three blocks the 16-card pile; every other discard is a rank "
        "the opponent may hold a pair of",
        "block-black3-c6": "crawford: a black three on top blocks the pile; the pile of 17 would "
        "be taken with any natural pair",
    }
    specs = [  # id, table, the pile's size, hand, the blocking card
        ("block-black3-s4", S4, 20, "3C KS QH 9S 7D 5C TH JD", "3C"),
        ("block-black3-s2", S2, 16, "3S KS QH 9S 7D AC TH", "3S"),
        ("block-black3-c6", C6, 17, "3S KS QH 9S 7D 5C TH", "3S"),
    ]
    for cid, tbl, n_pile, hand0, good in specs:
        n = tbl["players"]
        hands = [cards(hand0), cards("4C 4D 5S 6D 8C 8H 9H TS JC QD KC")] + [3] * (n - 2)
        melds = [[["AH", "AC", "AD"]], [["7H", "7D", "7C"]], [["6H", "6D", "6C"]]][: SIDES[n]]
        add(
            "block",
            id=cid,
            reason=reasons[cid],
            source=ISSUE if "joker-s4" in cid else CLUB,
            scenario=scenario(tbl, 4, "meld", hands, melds, rich[:n_pile]),
            good=["discard " + good, "meld*"],
        )


def block_known() -> None:
    """The wild-card blocks: every other card in hand is a rank the next opponent is known
    to hold a pair of (it took them with the pile)."""
    for cid, tbl in [("block-joker-known-s4", S4), ("block-joker-known-d4", D4)]:
        hands = [cards("JK KS QS JS 9S"), cards("TS TD KS 5H 6H 4S"), 5, 5]
        c = add(
            "block",
            id=cid,
            reason="the next opponent took the pile with K♥ K♣ Q♥ Q♣ J♥ J♣ 9♦ 9♥ in it "
            "(the log shows it) and has melded none of them; every natural card in "
            "this hand is one of those ranks, so only the joker keeps it from "
            "taking the pile. " + judged(cid),
            source=ISSUE + ": the partner discarded J♣ onto an 18-card pile instead of "
            "the joker; self-play (py_engine.ai.judge)",
            scenario=scenario(
                tbl,
                12,
                "draw",
                hands,
                [[["AC", "AC", "AH"]], [["8H", "8C", "8D"]]],
                cards("KH KC QH QC JH JC 9D 9H TC"),
                current=1,
            ),
            before=["take TS TD", "discard 5H"],
            good=["discard JK", "meld*"],
        )
        forced_turns(c, 0, 4, draws=cards("4C KD 5D QD 6S JD 9C KC"))


def feed_top() -> None:
    reasons = {
        "feed-seq5-s4": "T♥ lets the next opponent take the top card onto its 5-card heart "
        "sequence for free (no pair needed), leaving it two ends (4♥, J♥) for a samba. Self-play "
        "(python -m py_engine.ai.judge tests/blunders --id feed-seq5-s4, 150 samples): T♥ "
        "−1,598, Q♦ −874, 4♥ −915 (4♥ leaves one end only and was not clearly worse than the "
        "other cards: it is not listed)",
        "feed-seq6-s4": "Q♦ or 5♦ on top lets the next opponent make a samba (1,500) by taking "
        "the top card",
        "feed-seq4-s2": "K♠ or 8♠ extends the opponent's spade sequence by the top-card take",
        "feed-seq5-d4": "dutch: K♣ or 7♣ goes straight onto the next opponent's club sequence",
        "feed-seq6-s2": "K♣ or 6♣ gives the opponent a samba with the top card",
    }
    specs = [  # id, table, the next opponent's sequence, the cards that feed it, hand
        ("feed-seq5-s4", S4, "5H 6H 7H 8H 9H", "TH", "TH 4H KC QD 7S JC 5C"),
        ("feed-seq6-s4", S4, "6D 7D 8D 9D TD JD", "QD 5D", "QD 5D KC 9S 7S JC AC"),
        ("feed-seq4-s2", S2, "9S TS JS QS", "KS 8S", "KS 8S 4C 5D 7H 6C"),
        ("feed-seq5-d4", D4, "8C 9C TC JC QC", "KC 7C", "KC 7C 4D 5S 9H 6D AS"),
        ("feed-seq6-s2", S2, "7C 8C 9C TC JC QC", "KC 6C", "KC 6C 4D 5S 9H 8D AS"),
    ]
    for cid, tbl, seq, bad, hand0 in specs:
        n = tbl["players"]
        hands = [cards(hand0), cards("4S 5S 6S 9D TH KH AD QS")] + [3] * (n - 2)
        melds = [[["AH", "AC", "AD"]], [cards(seq)]]
        add(
            "feed_top",
            id=cid,
            reason=reasons[cid],
            source=CLUB,
            scenario=scenario(tbl, 5, "meld", hands, melds, cards("9S 4D TD 8H")),
            blunders=["discard " + b for b in cards(bad)],
        )
    # crawford: an unfrozen pile is taken by laying its top card on one of the side's melds
    hands = [cards("QC KD 9S 7D 5C AS 4H"), cards("4C 4D 5S 6D 8C 8H"), 3, 3, 3, 3]
    melds = [[["AH", "AC", "AD"]], [["QS", "QH", "QD", "QS"]], [["6H", "6C", "6D"]]]
    add(
        "feed_top",
        id="feed-group-c6",
        reason="crawford: the next opponent's side has a group of queens; a queen on an unfrozen "
        "12-card pile lets it take the whole pile onto that group",
        source=CLUB,
        scenario=scenario(
            C6, 5, "meld", hands, melds, cards("9C KH 6S TS 8D TC JH 9H 7C 5D 4S KS")
        ),
        blunders=["discard QC"],
    )


def top_samba() -> None:
    specs = [  # id, table, the side's sequence, the top card that makes it a samba, hand
        ("top-samba-high-s4", S4, "5S 6S 7S 8S 9S TS", "JS", "4C 9D KH QC 7D AC 8H"),
        ("top-samba-low-s4", S4, "5C 6C 7C 8C 9C TC", "4C", "KD 9D KH QS 7D AC 8H"),
        ("top-samba-d4", D4, "8H 9H TH JH QH KH", "AH", "4C 9D KS QC 7D AC 5S"),
        ("top-samba-s2", S2, "6D 7D 8D 9D TD JD", "QD", "4C 9S KH QC 7H AC 5S"),
    ]
    opponents = [cards("AH AS AD AH AS AD AC"), cards("KH KS KD KH KS KD KC")]
    for cid, tbl, seq, top, hand0 in specs:
        n = tbl["players"]
        hands = [cards(hand0)] + [3] + [8] * (n - 2)
        melds = [[cards(seq)], opponents]
        add(
            "top_samba",
            id=cid,
            reason=f"taking the top card {top} onto the side's 6-card sequence makes a samba "
            "(1,500) at once; drawing leaves it to the next player to cover, and the "
            "opponents (two canastas, three cards in the next hand) may go out before "
            "another chance comes",
            source=CLUB,
            scenario=scenario(tbl, 6, "draw", hands, melds, ["9S", "4D", "8D", top]),
            blunders=["draw"],
        )


def last_samba_card() -> None:
    specs = [
        # opponent sequence, the card(s) that complete it, the pile (with the other copies),
        # the side's melds (the rest of them)
        ("last-card-s4", S4, "8D 9D TD JD QD KD", "AD 7D", "7D 7D 5C 9S", ["AD AD AS"]),
        ("last-card-low-s4", S4, "4H 5H 6H 7H 8H 9H", "TH", "TH 6C 9S", ["TH TC TS"]),
        ("last-card-d4", D4, "9S TS JS QS KS AS", "8S", "8S 8S 4C TD", ["AH AC AD"]),
        ("last-card-s2", S2, "5C 6C 7C 8C 9C TC", "JC 4C", "4C JC 8D", ["JC JH JS", "4C 4D 4S"]),
    ]
    for cid, tbl, seq, bad, pile, own in specs:
        n = tbl["players"]
        hand0 = cards(bad) + ["KH", "QS", "9H", "6D", "5S"]
        hands = [hand0] + [8] * (n - 1)
        melds = [[cards(m) for m in own], [cards(seq)]]
        add(
            "last_samba_card",
            id=cid,
            reason=f"{' or '.join(cards(bad))} is the last card that can make the opponents' "
            "6-card sequence a samba (the other copies are in the pile and on the table): kept, "
            "the samba can never be made; discarded, the next player takes it as the "
            "top card",
            source=CLUB,
            scenario=scenario(tbl, 7, "meld", hands, melds, cards(pile)),
            blunders=["discard " + b for b in cards(bad)],
        )


def out_loses_game() -> None:
    own = [
        cards("KC KC KD KD KS KH KH"),
        cards("QC QC QD QD QS 2C 2D"),
        cards("5C 6C 7C 8C 9C TC"),
    ]
    opponents = [
        cards("AC AC AD AD AS AH AH"),
        cards("JC JD JH JS JS"),
        cards("TH TD TS TS"),
        cards("9H 9D 9S"),
    ]
    specs = [  # id, table, game totals
        ("out-loses-game-s4", S4, [8400, 9500]),
        ("out-loses-game-s2", S2, [8300, 9400]),
        ("out-loses-game-d4", D4, [8400, 9800]),
        ("out-loses-game-c6", C6, [8400, 9500, 7000]),
    ]
    for cid, tbl, scores in specs:
        n = tbl["players"]
        # this hand, then 8 cards a hand but the partner's
        hands = ([cards("KH KS 8S"), 8, cards("9C 5D 4S")] + [8] * (n - 3))[:n]
        melds = [own, opponents] + [[["6H", "6D", "6S"]]] * (SIDES[n] - 2)
        c = add(
            "out_loses_game",
            id=cid,
            reason=(
                f"game totals {scores}: going out now scores about +1,500 for the side "
                "and about +1,100 for the opponents, who then pass 10,000 ahead: the "
                "game is lost at once; playing on keeps the 6-card club sequence's samba "
                "(1,500) in reach while the opponents cannot go out (one canasta). " + judged(cid)
            ),
            source="self-play (py_engine.ai.judge), game totals",
            scenario=scenario(tbl, 8, "meld", hands, melds, cards("9S 4D 8D 6C"), scores=scores),
        )
        if tbl["rules"] == "dutch":  # every red three laid already, as players do
            c["scenario"]["red_threes"] = [["3H", "3D", "3H"], ["3D", "3H", "3D"]]
        c["after"] = {"not_out": True}


def answer_yes() -> None:
    specs = [  # id, table, the partner's seat, the partner's hand
        ("answer-yes-fits-s4", S4, 2, "KS KH QD QC AH AD JS JD JK"),
        ("answer-yes-fits-d4", D4, 2, "KS KH QD QC AH AD JS JD 2S"),
        ("answer-yes-fits-c6", C6, 3, "KS KH QD QC AH AD JS JD JK"),
        ("answer-yes-ahead-s4", S4, 2, "KS KH KD QD QC AH AD AS JS JD"),
    ]
    for cid, tbl, partner, hand_p in specs:
        n = tbl["players"]
        hands = [cards("9S 9H 9D 5C")] + [11] * (n - 1)
        hands[partner] = cards(hand_p)
        kings = "KC KC KS JK" if cid.endswith("ahead-s4") else "KC KC KD KD 2H"
        own = SEVENS_EIGHTS + [cards(m) for m in (kings, "QS QH QH JK", "AC AS AC", "JC JH JH")]
        melds = [own, [cards("4D 4S 4S")], [cards("5H 5S 5S")]]
        c = add(
            "answer_yes",
            id=cid,
            reason="the partner asks to go out; this hand holds 150+ points that all fit "
            "the side's melds (kings and queens become canastas) and no opponent is "
            "near going out (no canasta, stock full): saying yes throws away "
            "several hundred points",
            source=ISSUE + " goal 3",
            scenario=scenario(tbl, 9, "meld", hands, melds[: SIDES[n]], OPEN_PILE),
        )
        c["before"] = ["ask new 9S 9H 9D; discard 5C"]
        c["blunders"] = ["answer yes"]


HELD = ["JK", "JK", "2S", "2H", "2D", "AS", "AH", "AD", "AC"]


def answer_held() -> None:
    """Issue 39 part 3: the asked partner holds two jokers, three twos and four aces (240
    points, more than the going-out bonus) while the side leads and no opponent is near going
    out; the asker going out without asking leaves the same hand to count."""
    melds = [SEVENS_EIGHTS + [cards("KC KC KD")], [cards("4D 4S 4S"), cards("QS QH QD QC")]]
    specs = [  # id, table, the move asked about, blunders, good moves
        ("answer-no-held-s4", S4, "answer", ["answer yes"], None),
        ("answer-no-held-d4", D4, "answer", ["answer yes"], None),
        ("answer-yes-small-s4", S4, "answer", None, ["answer yes"]),
        ("ask-first-held-s4", S4, "meld", ["meld new 9D 9H 9S"], None),
    ]
    for cid, tbl, kind, blunders, good in specs:
        held = ["6S", "7D", "4C"] if good else list(HELD)
        hands = [cards("9S 9H 9D 5C"), cards("6H 8S TC"), held, cards("6D 8C TH")]
        if kind == "answer" and good:
            reason = (
                "the partner asks to go out while the side leads (two canastas to none) "
                "and this hand holds three low cards (15 points): going out now gains "
                "the bonus and ends the deal ahead; saying no only gives the opponents "
                "more turns. " + judged(cid)
            )
        elif kind == "answer":
            reason = (
                "the partner asks to go out; this hand holds two jokers, three twos and "
                "four aces (240 points, more than going out's bonus) and no opponent can "
                "go out (no canasta): yes makes them count against the side instead of "
                "onto its melds next turn (issue 39: 'the cards left in hand scored "
                "-280'). " + judged(cid)
            )
        else:
            reason = (
                "going out without asking while the partner holds nine cards and no "
                "opponent can go out: the partner's hand counts against the side; asking "
                "first (or keeping the meld for next turn) lets the partner say no. " + judged(cid)
            )
        c = add(
            "answer_yes" if kind == "answer" else "ask_first",
            id=cid,
            reason=reason,
            source="issue 39 (observed in play) part 3",
            scenario=scenario(tbl, 9, "meld", hands, melds, OPEN_PILE),
        )
        if tbl["rules"] == "dutch":
            c["scenario"]["red_threes"] = [["3H", "3D"], ["3D", "3H"]]
        if kind == "answer":
            c["before"] = ["ask new 9S 9H 9D; discard 5C"]
        if blunders:
            c["blunders"] = blunders
        if good:
            c["good"] = good


def dutch_red3() -> None:
    specs = [
        ("red3-lay-d4", D4, "3H 7C 9D KS QH 5C", "meld"),
        ("red3-lay-two-d4", D4, "3D 8C", "meld"),
        ("red3-lay-d6", D6, "3H 3D 7C 9D KS", "meld"),
        ("red3-answer-d4", D4, "9S 9H 9D 5C", "answer"),
    ]
    for cid, tbl, hand0, kind in specs:
        n = tbl["players"]
        hands = [cards(hand0), cards("6H 8S")] + [5] * (n - 2)
        melds = [[["KC", "KC", "KD"]], ACES_JACKS] + [[] for _ in range(SIDES[n] - 2)]
        reason = (
            "dutch: a red three still in hand at the end of the deal costs the side 750; "
            "the opponents can go out (two canastas, two cards in the next hand), so "
            "ending the turn without laying it risks 750 for nothing"
        )
        c = {
            "id": cid,
            "reason": reason,
            "source": "docs/rules.md section 9 (dutch)",
            "scenario": scenario(tbl, 10, "meld", hands, melds, OPEN_PILE),
        }
        if kind == "answer":
            partner = 2
            c["scenario"]["hands"][partner] = ["3D", "6D", "7S"]
            c["scenario"]["melds"][0] = SEVENS_EIGHTS
            c["reason"] = (
                "dutch: the partner asks to go out while this hand holds a red "
                "three (it cannot be laid while answering): yes costs the side 750"
            )
            c["before"] = ["ask new 9S 9H 9D; discard 5C"]
            c["blunders"] = ["answer yes"]
        else:
            c["after"] = {"not_held": ["3H", "3D"]}
        add("dutch_red3", **c)


def hoard_wild() -> None:
    own = [cards("QC QC QD QD QS 2H 2D"), cards("KC KD KS KD"), cards("8H 8D 8C")]
    specs = [  # id, table, hand
        ("hoard-wild-s4", S4, "JK JK 2C 8S 9D KH 5C"),
        ("hoard-wild-s2", S2, "JK 2S 2C 9D KH 5C"),
        ("hoard-wild-d4", D4, "JK JK 2C 9D KH 5C"),
        ("hoard-wild-c6", C6, "JK JK 2C 9D KH 5C"),
    ]
    for cid, tbl, hand0 in specs:
        n = tbl["players"]
        hands = [cards(hand0), cards("6H 8S")] + [5] * (n - 2)
        melds = [own, ACES_JACKS] + [[]] * (SIDES[n] - 2)
        c = add(
            "hoard_wild",
            id=cid,
            reason="the next opponent holds two cards and its side can go out: the deal is "
            "about to end, and every wild card still in hand then counts 20 or 50 "
            "against the side; they fit the side's melds now",
            source=ISSUE + ": 'a computer player ended a deal holding 2♦ 2♥ 2♠ and a joker (−120)'",
            scenario=scenario(tbl, 11, "meld", hands, melds, OPEN_PILE),
        )
        c["after"] = {"not_held": ["JK", "2C", "2D", "2H", "2S"]}


def build() -> None:
    known_pair()
    block()
    block_known()
    feed_top()
    top_samba()
    last_samba_card()
    out_loses_game()
    answer_yes()
    answer_held()
    dutch_red3()
    hoard_wild()


if __name__ == "__main__":
    build()
    finish()
