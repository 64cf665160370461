"""The playing out of a sampled game for ``hard`` (``hard.HardBot.rollout`` runs the loop): what
each seat's ``medium`` policy reads of the sampled game (``_rollout_info``: an ``Info`` of the
game's own lists, never more than the seat may know), the policy's move (``rollout_move``), the cheap stand-in for a meld phase (``fast_meld_move``, ``best_discard``:
from the game's own lists, the natural discards scored in the order of their bound), and the
estimate of a position a rollout stops at (``evaluate``).
"""

from __future__ import annotations

from ..cards import (
    IS_NATURAL,
    IS_RED3,
    IS_WILD,
    KIND_BY_TEXT,
    KIND_OF_ID,
    KIND_TEXT,
    RANK_OF,
    SUIT_OF,
    VALUE_OF_KIND,
    counts_of,
)
from ..legal import ActingSide, first_natural_new_meld, legal_moves, single_addition
from ..melds import GROUP, SEQUENCE, cards_needed
from ..moves import Discard
from ..observation import LOG_LAST, meld_seen
from ..scoring import score_side, side_canastas
from ..state import Game
from .info import Info, entry_facts, fold_next_facts, rule_facts
from .leaf import predict
from .medium import MediumBot


def evaluate(
    game: Game, side: int, skip: int | None = None, weights: list[float] | None = None
) -> float:
    """Own side's estimated deal score minus the best other side's (or the real deal scores).

    ``skip``: a seat whose hand is left out of the estimate (the searching player's own hand,
    the same for every discard it compares but for the one card)."""
    sc: list[float]
    if game.phase in ("deal_over", "game_over") and game.history:
        sc = list(game.history[-1])
    elif weights is not None:
        sc = [predict(game, s, weights) for s in range(game.n_sides)]
    else:
        sc = [_estimate(game, s, skip) for s in range(game.n_sides)]
    others = [v for s, v in enumerate(sc) if s != side]
    return sc[side] - (max(others) if others else 0)


def evaluate_side(game: Game, side: int) -> float:
    """The hand-set estimate of one side's deal score (before the fitted leaf estimate)."""
    return _estimate(game, side)


def _estimate(game: Game, side: int, skip: int | None = None) -> float:
    r = game.rules
    seats = [s for s in game.seats_of(side) if s != skip]
    base = score_side(
        r, game.players, game.melds[side], game.red3[side], [game.hands[s] for s in seats], False
    )["total"]
    # Progress: melds close to a canasta or samba, and cards in hand while the stock lasts.
    prog = 0.0
    for m in game.melds[side]:
        need = cards_needed(m.type, len(m.cards), r)
        if need:
            prog += {1: 120, 2: 60, 3: 25}.get(need, 0) * (3 if m.type == "sequence" else 1)
    f = min(1.0, len(game.stock) / 80)
    for s in seats:
        for c in game.hands[s]:
            k = KIND_OF_ID[c]
            prog += f * (VALUE_OF_KIND[k] + (25 if IS_WILD[k] else 6))
    return base + prog


def _rollout_info(g: Game, seat: int, cache: dict) -> Info:
    """What ``Info.from_observation`` digests of the seat's observation, from the game's own
    lists (a test compares the two; no game totals, no legal moves)."""
    r = g.rules
    st = cache.get("facts")
    if st is None:
        st = cache["facts"] = (
            [g.side_of(s) for s in range(g.players)],
            r.canastas_needed(g.players),
            rule_facts(r, g.players),
        )
    # (a meld's observation is kept while it holds the same cards: ``cache["seen"]``, which
    # ``hard`` shares between the rollouts of a search, whose worlds show the same table; the
    # next player's log entries are read from the game's log when first needed: ``_next_log``)
    kept = cache.get("seen")
    if kept is None:
        kept = cache["seen"] = {}
    melds = []
    for side in g.melds:
        seen = []
        for m in side:
            got = kept.get(m.id)
            if got is None or got[0] != m.cards:
                got = kept[m.id] = (list(m.cards), meld_seen(m, r))
            seen.append(got[1])
        melds.append(seen)
    kinds, ranks = _pile_facts(g, cache)
    return Info.of_facts(
        seat,
        g.players,
        st[0],
        list(map(KIND_OF_ID.__getitem__, g.hands[seat])),
        kinds,
        melds,
        st[1],
        [side_canastas(m, r)[0] for m in g.melds],
        st[2],
        [len(h) for h in g.hands],
        len(g.stock),
        g.phase,
        g.deal_no,
        list(map(len, g.red3)),
        ranks,
        lambda: _next_log(g, (seat + 1) % g.players),
    )


def _pile_facts(g: Game, cache: dict) -> tuple[list[int], list[int]]:
    """The pile's kinds and its natural cards of each rank, kept in the rollout's ``cache`` from
    one decision to the next while the pile only grows (new lists each time: read-only)."""
    pile = g.pile
    got = cache.get("pile")
    if got is not None:
        ids, kinds, ranks = got
        n = len(ids)
        if len(pile) >= n and pile[:n] == ids:
            if len(pile) == n:
                return kinds, ranks
            new = list(map(KIND_OF_ID.__getitem__, pile[n:]))
            kinds = kinds + new
            ranks = list(ranks)
            for k in new:
                if IS_NATURAL[k]:
                    ranks[RANK_OF[k]] += 1
            cache["pile"] = (list(pile), kinds, ranks)
            return kinds, ranks
    kinds = list(map(KIND_OF_ID.__getitem__, pile))
    ranks = [0] * 15
    for k in kinds:
        if IS_NATURAL[k]:
            ranks[RANK_OF[k]] += 1
    cache["pile"] = (list(pile), kinds, ranks)
    return kinds, ranks


def rollout_move(g: Game, policy: MediumBot, cache: dict):
    """The move ``policy`` chooses for the seat to play (a ``Move``, ``decide``'s choice on the
    seat's observation), or None where there is none."""
    moves = legal_moves(g)
    if len(moves) <= 1:
        return moves[0] if moves else None  # (a draw, mostly: nothing to weigh)
    if g.phase == "draw":  # scored from a few counts, without an ``Info``
        seat = g.current
        sizes = {m.id: len(m.cards) for m in g.melds[g.side_of(seat)]}
        n_hand, n_pile, smax = len(g.hands[seat]), len(g.pile), g.rules.sequence_max
        best = None
        for mv in moves:
            sc = policy.draw_move_score(mv, n_hand, n_pile, sizes, smax)
            if sc is None:
                break
            t = mv.text()
            if best is None or sc > best[0] or (sc == best[0] and t < best[1]):
                best = (sc, t, mv)
        else:
            assert best is not None
            return best[2]
    return policy.best_move(_rollout_info(g, g.current, cache), moves)


# The natural kinds of each rank, suits in order, and the natural kind of a rank and suit (or
# None), for ranks 0..15 (a sequence's neighbours may lie off the ends).
_NATURALS_OF_RANK = [
    [k for k in range(len(IS_NATURAL)) if IS_NATURAL[k] and RANK_OF[k] == r] for r in range(16)
]
_NATURAL_OF = [
    [next((k for k in _NATURALS_OF_RANK[r] if SUIT_OF[k] == s), None) for s in range(4)]
    for r in range(16)
]


def fast_meld_move(g: Game, policy: MediumBot, cache: dict):
    """A cheap stand-in for ``medium`` in a rollout's meld phase, working on the sampled game
    (a ``Move``).

    While the side has opened but cannot go out yet (no going-out question, no asking), it adds
    naturals to its side's melds, lays new natural melds (never going below two cards in hand)
    and then discards ``medium``'s discard; ``None`` where ``medium`` itself should decide."""
    if g.phase != "meld" or g.turn.pending or g.turn.asked:
        return None
    seat = g.current
    side = g.side_of(seat)
    melds = g.melds[side]
    if not melds:
        return None
    hand = g.hand_kinds(seat)
    n = len(hand)
    if n <= 3:
        return None
    acting = ActingSide(g)
    if g.requirement_met_counts(acting.finished, acting.sequences):
        return None
    counts = counts_of(hand)
    distinct = sorted(set(hand))  # the kinds in hand, in kind order
    keep_pile = len(g.pile) >= policy.w["keep_pair_pile"]
    own = [0] * 15  # natural cards of each rank in hand
    for k in distinct:
        if IS_NATURAL[k]:
            own[RANK_OF[k]] += counts[k]
    # The natural kinds in hand that may join a meld alone, each with those melds in the side's
    # order: a group's rank (kept back while the pair may take a rich pile), a sequence's suit
    # at the ranks just below and above it (``legal.quick_fit``); tried kind by kind.
    fit: dict[int, list] = {}
    rules = g.rules
    for m in melds:
        t = m.type
        if t == GROUP:
            r = m.rank
            if own[r] == 2 and keep_pile and cards_needed(GROUP, len(m.cards), rules) != 1:
                continue
            for k in _NATURALS_OF_RANK[r]:
                if counts[k]:
                    got = fit.get(k)
                    if got is None:
                        fit[k] = [m]
                    else:
                        got.append(m)
        elif t == SEQUENCE:
            su = m.suit
            for r in (RANK_OF[KIND_OF_ID[m.cards[0]]] - 1, RANK_OF[KIND_OF_ID[m.cards[-1]]] + 1):
                nk = _NATURAL_OF[r][su]
                if nk is not None and counts[nk]:
                    got = fit.get(nk)
                    if got is None:
                        fit[nk] = [m]
                    else:
                        got.append(m)
    if fit:
        for k in sorted(fit):
            for m in fit[k]:
                mv = single_addition(g, acting, m, k)
                if mv is not None:
                    return mv
    # natural melds only: groups without wild cards and sequences (never threes), the first
    # of ``candidate_shapes`` that keeps two cards in hand and is legal
    mv = first_natural_new_meld(g, acting, counts, n - 2, own)
    if mv is not None:
        return mv
    kind = best_discard(g, seat, policy, hand, distinct, own, cache)
    return None if kind is None else Discard(kind)


def best_discard(
    g: Game,
    seat: int,
    policy: MediumBot,
    hand: list[int],
    distinct: list[int],
    own: list[int],
    cache: dict,
) -> int | None:
    """The kind ``max`` of (``policy.discard_scores(_rollout_info(g, seat, cache), distinct)``,
    text, kind) picks (the best score, a tie to the higher card text), worked out from the
    game's own lists and without scoring every kind: ``hand`` is the seat's kinds, ``distinct``
    ``sorted(set(hand))``, ``own`` its natural cards per rank (with more than one card in hand).

    With more than three cards in the meld phase any card may be discarded but a red three
    where the rules keep them (``actions.verify_discard``); None if none may. A natural card's
    score has a bound (``MediumBot.natural_discard_bound``): the kinds are scored in the order
    of their bounds (the other kinds' scores are exact), and the rest is skipped once the best so
    far beats the next bound. A test compares it with ``discard_scores``."""
    n_pile = len(g.pile)
    red_ok = g.rules.red_three_discardable
    best = None
    bounded = policy.discard_ceiling_holds()
    bound = policy.natural_discard_bound
    naturals = []
    for k in distinct:
        if IS_NATURAL[k]:
            naturals.append((bound(k, own[RANK_OF[k]]), KIND_TEXT[k], k))
        elif red_ok or not IS_RED3[k]:  # (red threes, wild cards, black threes: exact)
            x = (policy.special_discard_score(k, n_pile), KIND_TEXT[k], k)
            if best is None or x > best:
                best = x
    if not naturals:
        return None if best is None else best[2]
    naturals.sort(reverse=True)
    score = None
    for top in naturals:
        if bounded and best is not None and best > top:
            break  # (this kind and every later one score below the best)
        if score is None:
            score = policy.natural_discard_scorer(own, *_discard_facts(g, seat, hand, own, cache))
        k = top[2]
        x = (score(k), top[1], k)
        if best is None or x > best:
            best = x
    assert best is not None
    return best[2]


def _discard_facts(g: Game, seat: int, hand: list[int], own: list[int], cache: dict) -> tuple:
    """What ``MediumBot.natural_discard_scorer`` reads besides the hand's rank counts: of
    ``_rollout_info(g, seat, cache)``, its ``_discard_facts``, ``seen_rank``, the next
    player's cards, ``unseen_total`` and ``_read_next_log`` (the same values), from the game's
    own lists."""
    rules = g.rules
    by_suit: list[list[int]] = [[], [], [], []]
    for x in set(hand):
        if IS_NATURAL[x]:
            by_suit[SUIT_OF[x]].append(RANK_OF[x])
    kinds, pile_ranks = _pile_facts(g, cache)
    seen = list(pile_ranks)
    for r in range(15):
        seen[r] += own[r]
    side = g.side_of(seat)
    csize = rules.canasta_size
    groups = [0] * 15
    for i, melds in enumerate(g.melds):
        for m in melds:
            t = m.type
            if t == GROUP:
                r = m.rank if m.rank >= 2 else 0
                seen[r] += len(m.cards) - m.wilds
                if i == side and len(m.cards) < csize:
                    groups[r] += 1
            elif t == SEQUENCE:
                for c in m.cards:
                    seen[RANK_OF[KIND_OF_ID[c]]] += 1
    pile_gain = 20 + 5 * (len(kinds) + 1) + sum(map(VALUE_OF_KIND.__getitem__, kinds))
    onto = rules.take_pile_onto_meld
    nxt = (seat + 1) % g.players
    smax = rules.sequence_max
    feeds = []  # (suit, low - 1, high + 1, samba next) or (-1, rank, 0, False)
    for m in g.melds[g.side_of(nxt)]:
        t = m.type
        n = len(m.cards)
        if t == SEQUENCE and n < smax:
            ranks = [RANK_OF[KIND_OF_ID[c]] for c in m.cards]
            feeds.append((m.suit, min(ranks) - 1, max(ranks) + 1, n + 1 >= smax))
        elif onto and t == GROUP and n < csize:
            feeds.append((-1, m.rank if m.rank >= 2 else 0, 0, False))
    hands = g.hands
    unseen = max(1, len(g.stock) + sum(len(h) for s, h in enumerate(hands) if s != seat))
    return (
        by_suit,
        groups,
        pile_gain,
        onto,
        feeds,
        seen,
        len(hands[nxt]),
        unseen,
        _next_log(g, nxt),
    )


def _next_log(g: Game, nxt: int) -> tuple[set[int], set[int], list[int]]:
    """``Info._read_next_log`` of the seat before ``nxt`` (its log: the game's last entries, as
    many as an observation holds)."""
    deal = g.deal_no
    facts = []
    for e in g.log[-LOG_LAST:]:
        if e["seat"] != nxt or e["deal"] != deal:
            continue
        kind = e["kind"]
        pub = e["public"]
        if kind == "discard":
            facts.append(entry_facts(kind, KIND_OF_ID[pub["card"]], None, ()))
        elif kind == "take_pile":
            laid = [KIND_OF_ID[c] for p in pub.get("parts", ()) for c in p["cards"]]
            pile = pub.get("pile")
            facts.append(entry_facts(kind, None, None if pile is None else _kinds_of(pile), laid))
        elif kind == "meld":
            facts.append(entry_facts(kind, None, None, map(KIND_OF_ID.__getitem__, pub["laid"])))
    return fold_next_facts(facts)


def _kinds_of(texts: list[str]) -> list[int]:
    """The kinds of card texts (a pile take's log names the pile's cards by their texts)."""
    return [KIND_BY_TEXT[t] for t in texts]
