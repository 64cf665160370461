"""The ``medium`` bot's weights, as data (a Python dict, so that packaging needs nothing extra).

Hand-set, then checked by self-play on duplicate deals (docs/ai.md, "Tuning"):

    python -m py_engine.ai.tune --rules samba --players 4 --deals 100 --seed 9 --accept 0.57 \
        --keys draw,take_base,take_wild,top_per_size,keep_pair_pile,seq_near1,value_shed,\
top_danger,wild_keep,answer_hand_value

accepted no change (no x0.5 / x1.5 variant won more than 57 % of 100 deals); a smaller run
(``--deals 40 --seed 5 --keys danger,take_per_card,top_base,pair,out_margin,black3_per_pile``)
accepted danger 1.5 and pair 12.5, which then won 50 %, 47 % and 49 % of 60 fresh duplicate
deals (samba 4, dutch 4, crawford 6), i.e. nothing: those values were not adopted.
"""

MEDIUM_WEIGHTS: dict[str, float] = {
    # draw phase
    "draw": 18.0,              # drawing two cards from the stock
    "take_base": 15.0,         # taking the pile with a pair ...
    "take_per_card": 5.0,      # ... plus this per pile card
    "take_wild": 12.0,         # ... minus this per wild card from hand laid with it
    "top_base": 10.0,          # taking the top card onto a sequence ...
    "top_per_size": 3.0,       # ... plus this per card of the sequence after it
    "top_samba": 40.0,         # ... plus this when it makes a samba
    "onto_base": 30.0,         # crawford: taking the pile onto a meld
    # meld phase
    "open_base": 50.0,
    "open_wild": 8.0,
    "add_natural": 20.0,
    "complete": 30.0,          # an addition that makes a canasta or samba
    "new_natural": 15.0,
    "wild_complete": 25.0,     # a wild card added where the wilds in hand finish the canasta
    "wild_idle": -10.0,
    "keep_pair_pile": 6,       # keep a natural pair in hand (do not add it) when the pile has
                               # at least this many cards
    # discards (lower: discard first)
    "pair": 25.0,
    "triple": 30.0,
    "seq_near1": 8.0,
    "seq_near2": 4.0,
    "wild_keep": 70.0,
    "black3": -5.0,
    "black3_per_pile": 2.0,
    "danger": 1.0,             # expected pile gain handed to the next player
    "top_danger": 25.0,        # a card that extends the next player's sequence
    "value_shed": 0.2,         # prefer shedding high cards (they count against the hand)
    # going out and asking
    "out_margin": -300.0,      # go out when own table estimate - best other >= this ...
    "out_stock": 20,           # ... or when the stock is this small
    "ask_partner_cards": 5,    # ask the partner when it holds more than this many cards
    "answer_hand_value": 80,   # answer yes when the own hand is worth at most this ...
}


# hard's leaf estimate (leaf.py): weights of leaf.NAMES per rule set, fitted by
#     python -m py_engine.ai.fit_leaf --rules R --players N --deals 1000 --seed 1
LEAF_WEIGHTS: dict[str, list[float]] = {
    "samba": [0.0, 0.729, -1.151, 1.868, 83.294, -87.967, 128.692, -41.188, -170.704, 73.873, 185.289, 67.5, 15.547, 33.765, 274.649, 61.377, 21.788, 68.395, -3.316, 20.776, -20.581, 56.537, 81.828, 0.0],
    "dutch": [0.0, 0.955, -1.324, 0.968, 77.116, -74.219, -42.195, -94.085, -255.394, -27.471, 94.337, 13.212, -38.626, -35.936, 171.638, 97.036, 123.913, -32.993, 33.983, -7.288, -11.722, 76.542, 63.049, -62.933],
    "crawford": [0.0, 0.842, 0.011, 0.789, -10.555, 21.191, 29.029, -21.98, -138.601, 23.047, 119.266, 74.05, 28.016, -114.127, 261.65, 164.154, 62.992, -19.35, 24.034, 30.575, -19.433, 25.775, 77.17, 0.0],
}
