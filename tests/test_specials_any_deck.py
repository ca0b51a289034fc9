"""Special hands in any deck and deal (docs/rules.md#special-hands-with-jokers-and-longer-deals):
jokers wild or not, a second set of spades, 16 or 17 cards dealt.

The jitted search (solver.autowin's *_any kernels) against the slow reference by shapes
(naive.holds_special_in) on random hands of every kind of deck, and against the plain
pack's kernels on plain hands; the reference itself against the definition read
literally (naive.holds_special_literally) where that is affordable; the split a declared
hand keeps; settlement and solve in such rule sets against the reference, on random
deals; the worked examples of the rules page."""
import random

import numpy as np
import pytest

import naive
import solver
from solver.autowin import (KIND_NAMES, _filled, best_kind, best_kind_any, holds_kind,
                            holds_kind_any, kind_order)
from solver.cards import card_name, format_cards, to_codes
from solver.rules import ANY_DECK_SPECIALS, AUTOMATIC_WINS, RuleSet, rule_set
from test_naive_selfcheck import _random_legal
from test_specials import CONSTRUCTED, SHISANSHUI_UNITS

JOKER_DECK = rule_set("joker")          # (68 cards: its codes name every card there is)
ALL = np.array([KIND_NAMES.index(n) for n in AUTOMATIC_WINS], np.int64)
SPADES_TWICE = [(r, "s") for r in naive.RANKS]
DECK52 = [(r, s) for r in naive.RANKS for s in naive.SUITS]


def _codes(cards) -> np.ndarray:
    """A reference hand's card codes (a second spade and the jokers as the joker deck
    has them)."""
    return np.array(to_codes(naive.cards_str(cards), JOKER_DECK), np.int64)


def _agree(hands, wild):
    held = 0
    for cards in hands:
        codes = _codes(cards)
        expected = set(naive.special_hands_in(cards, wild=wild))
        found = {KIND_NAMES[k] for k in ALL if holds_kind_any(codes, k, wild)}
        assert found == expected, (naive.cards_str(cards), wild)
        held += len(found)
    return held


def test_every_special_of_the_catalogue_has_a_shape():
    assert set(ANY_DECK_SPECIALS) == set(AUTOMATIC_WINS)
    counts = np.ones(13, np.int64), np.ones(4, np.int64), np.ones(52, np.int64)
    for name in ANY_DECK_SPECIALS:
        kind = KIND_NAMES.index(name)
        if name != "three_straight_flushes":       # (its own search)
            assert _filled(kind, *counts)[0] >= 0, name


def test_on_the_plain_pack_the_shapes_find_what_the_plain_kernels_find():
    rng = np.random.default_rng(7)
    packs = [np.arange(52), [c for c in range(52) if c % 13 >= 6],
             [c for c in range(52) if c % 13 <= 6], [c for c in range(52) if c % 13 >= 9],
             [c for c in range(52) if c // 13 in (0, 1)], [c for c in range(52) if c % 13 < 5]]
    held = 0
    for pack in packs:
        for _ in range(120):
            hand = rng.permutation(np.array(pack))[:13].astype(np.int64)
            for kind in ALL:
                plain = bool(holds_kind(hand, kind))
                assert plain == bool(holds_kind_any(hand, kind, True)) \
                    == bool(holds_kind_any(hand, kind, False)), (hand, kind)
                held += plain
            assert best_kind(hand, ALL) == best_kind_any(hand, ALL, True)
    assert held > 200


def _joker_in(cards, rng, jokers=1):
    """The hand with ``jokers`` of its real cards replaced by jokers."""
    cards = list(cards)
    for i in rng.sample(range(len(cards)), jokers):
        cards[i] = naive.JOKER
    return cards


def test_built_hands_with_a_joker_for_a_card_as_the_definition_says():
    """Each special's built hands and near misses with one card made a joker, by the
    definition read literally (every card the joker could be) and by the shapes."""
    rng = random.Random(11)
    for name, (holding, near) in sorted(CONSTRUCTED.items()):
        for text in holding[:1] + near[:1]:
            cards = _joker_in(naive.parse(text), rng)
            for wild in (True, False):
                literal = naive.holds_special_literally(cards, name, wild)
                assert naive.holds_special_in(cards, name, wild) == literal, (text, wild)
                assert bool(holds_kind_any(_codes(cards), KIND_NAMES.index(name), wild)) \
                    == literal, (text, wild)
            if text in holding:              # a joker for one of its cards completes it
                assert naive.holds_special_in(cards, name, True), text


def test_fourteen_cards_hold_what_13_of_them_make_as_the_definition_says():
    rng = random.Random(12)
    for name, (holding, near) in sorted(CONSTRUCTED.items()):
        for text in holding[:1] + near[:1]:
            cards = naive.parse(text)
            cards.append(rng.choice([c for c in DECK52 if c not in cards]))
            literal = naive.holds_special_literally(cards, name)
            assert naive.holds_special_in(cards, name) == literal, text
            assert bool(holds_kind_any(_codes(cards), KIND_NAMES.index(name), True)) \
                == literal, text


@pytest.mark.parametrize("deck, sizes, wild", [
    ("jokers", (13,), True), ("jokers", (13,), False),
    ("spades twice", (13, 17), True), ("jokers and spades twice", (16, 17), True),
    ("jokers and spades twice", (17,), False), ("plain", (16, 17), True),
])
def test_random_hands_as_the_reference(deck, sizes, wild):
    """Random hands of each kind of deck, half from packs that make specials common."""
    rng = random.Random(deck + str(sizes) + str(wild))
    full = (DECK52 + (SPADES_TWICE if "spades" in deck else [])
            + ([naive.JOKER] * 3 if "jokers" in deck else []))
    common = [lambda c: c == naive.JOKER or c[0] >= 8, lambda c: c == naive.JOKER or c[0] <= 8,
              lambda c: c == naive.JOKER or c[1] in "sh", lambda c: c == naive.JOKER or c[0] >= 11,
              lambda c: c == naive.JOKER or c[0] <= 6]
    hands = []
    for i in range(24):
        pool = full if i % 2 else [c for c in full if common[i // 2 % len(common)](c)]
        hands.append(rng.sample(pool, min(rng.choice(sizes), len(pool))))
    assert _agree(hands, wild) >= (8 if max(sizes) > 13 else 1)


def test_a_declared_hand_keeps_13_cards_that_make_its_special():
    """solver.automatic_win on hands of 13 to 17 cards: the kept 13 and the discards are
    the hand's cards, and the kept 13 hold the special (by the reference)."""
    rng = random.Random(13)
    full = DECK52 + SPADES_TWICE + [naive.JOKER] * 2
    rules = {wild: RuleSet.from_dict(dict(
        name="any", deck={"extra_spades": True, "jokers": 2}, deal={"cards": 17, "seats": [2, 3]},
        automatic_wins=dict(SHISANSHUI_UNITS, wild_jokers=wild))) for wild in (True, False)}
    seen = set()
    for i in range(60):
        name = rng.choice(sorted(CONSTRUCTED))
        cards = naive.parse(rng.choice(CONSTRUCTED[name][0]))
        if i % 3 == 0:
            cards = _joker_in(cards, rng)
        extra = rng.randint(0, 4)
        rest = [c for c in full if c not in cards or c == naive.JOKER or c[1] == "s"]
        cards += rng.sample(rest, extra)
        if extra and len(cards) not in (13, 17):
            cards += rng.sample(rest, 17 - len(cards))
        cards = cards[:17]
        if cards.count(naive.JOKER) > 2 or len(cards) not in (13, 17):
            continue
        wild = i % 2 == 0
        text = naive.cards_str(cards)
        try:
            win = solver.automatic_win(text, rules[wild])
        except ValueError:              # (a card three times: not a hand of this deck)
            continue
        held = naive.special_hands_in(cards, names=SHISANSHUI_UNITS, wild=wild)
        strongest = next((n for n in rules[wild].automatic_win_order() if n in held), None)
        assert (win.name if win else None) == strongest, text
        if win is None:
            continue
        kept = naive.parse(" ".join((win.front, win.middle, win.back)))
        assert (len(win.front.split()), len(win.middle.split()), len(win.back.split())) \
            == (3, 5, 5)
        assert sorted(kept + naive.parse(win.discards)) == sorted(cards), text
        assert naive.holds_special_in(kept, win.name, wild), (text, win)
        if win.name in ("three_flushes", "three_straights", "three_straight_flushes"):
            rows = [naive.parse(r) for r in (win.front, win.middle, win.back)]
            real = [[c for c in row if c != naive.JOKER] for row in rows]
            if win.name != "three_straights":       # each row of one suit
                assert all(len({c[1] for c in row}) <= 1 for row in real), win
            if win.name != "three_flushes":         # each row of distinct ranks
                assert all(len({c[0] for c in row}) == len(row) for row in real), win
        seen.add(win.name)
    assert len(seen) >= 8


# --- settling and solving in such rule sets ------------------------------------------------
def _rules(tmp_path, name, **changes) -> "tuple":
    d = rule_set("classic").to_dict()
    d["name"] = name
    for key, value in changes.items():
        section, _, field = key.partition("__")
        d.setdefault(section, {})[field] = value
    path = tmp_path / f"{name}.toml"
    path.write_text(RuleSet.from_dict(d).to_toml())
    return path, rule_set(path)


def _deck_of(rs):
    return (DECK52 + (SPADES_TWICE if rs.spade_copies == 2 else [])
            + [naive.JOKER] * rs.jokers)


@pytest.mark.parametrize("what", ["jokers wild", "jokers not wild", "17 cards", "spades twice"])
def test_settle_scores_the_specials_of_random_deals_as_the_reference(tmp_path, what):
    """Random deals of such rule sets, each seat a hand built to hold a special (or not),
    declared where it holds one or counted automatically: solver.settle as
    naive.settle_general with the reference's specials."""
    deck = dict(jokers=2) if "jokers" in what else dict(extra_spades=True) \
        if "spades" in what else {}
    wins = dict(SHISANSHUI_UNITS, declared=what != "17 cards")    # (17: counted)
    if "jokers" in what:
        wins["wild_jokers"] = what == "jokers wild"
    path, rs = _rules(tmp_path, "settle-" + what.replace(" ", "-"),
                      **{f"deck__{k}": v for k, v in deck.items()},
                      **{f"automatic_wins__{k}": v for k, v in wins.items()},
                      deal__seats=[2, 3], deal__cards=17 if what == "17 cards" else 13)
    rng = random.Random(what)
    base = "classic" if rs.plain_deal or (not rs.jokers and rs.spade_copies == 1) else "joker"
    specials = 0
    for _ in range(25):
        n = rng.choice([2, 3])
        pool = list(_deck_of(rs))
        rng.shuffle(pool)
        arrs, hands = [], []
        for s in range(n):
            if rng.random() < 0.6:                   # a built special, jokers for cards
                played = sorted(rs.automatic_wins)       # (a special the rule set plays)
                built = naive.parse(rng.choice(CONSTRUCTED[rng.choice(played)][0]))
                if rs.jokers and rng.random() < 0.5:
                    built = _joker_in(built, rng)
                if all(pool.count(c) >= built.count(c) for c in set(built)):
                    for c in built:
                        pool.remove(c)
                    hands.append(built)
                    continue
            hands.append(pool[:13])
            pool = pool[13:]
        for hand in hands:
            arrs.append(_random_legal(rng, list(hand), base, None) if rng.random() < 0.8
                        else (hand[:3], hand[3:8], hand[8:]))
        wild = rs.automatic_wins_wild
        held = []
        for hand in hands:
            holds = naive.special_hands_in(hand, wild=wild)
            held.append(next((name for name in rs.automatic_win_order() if name in holds),
                             None))
        texts = [tuple(naive.cards_str(row) for row in arr) for arr in arrs]
        keys = [[naive.row_key(row, base) for row in arr] for arr in arrs]
        fouled = [not naive.is_legal(*arr, base) for arr in arrs]
        if rs.automatic_wins_declared:
            declaring = [s for s in range(n) if held[s] and rng.random() < 0.8]
            got = solver.settle(texts, path, declared=declaring or None)
        else:
            declaring = [s for s in range(n) if held[s]]
            got = solver.settle(texts, path)
        specials += len(declaring)
        want = naive.settle_general(keys, rs, fouled, {s: held[s] for s in declaring})
        assert got == want, (texts, held)
        for s in range(n):                  # a seat that does not hold one cannot declare
            if not held[s] and rs.automatic_wins_declared:
                with pytest.raises(ValueError, match="declared an automatic win its cards"):
                    solver.settle(texts, path, declared=[s])
    assert specials >= 10


@pytest.mark.parametrize("what, hand", [
    ("jokers wild", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Jk"),             # a dragon
    ("17 cards", "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s Ah Kc 7s 7d"),    # a dragon
])
def test_solve_declares_with_the_13_that_make_it_and_settles_its_deals(
        tmp_path, what, hand):
    """Declaring's EV is its settlement over the sampled deals (the opponents holding a
    special among them declaring it, with the 13 cards that make it), and the answer
    says which 13 cards declare."""
    changes = dict(automatic_wins__dragon=13, automatic_wins__six_pairs=3,
                   automatic_wins__three_flushes=3, automatic_wins__three_straights=3,
                   deal__seats=[2, 3])
    if what == "jokers wild":
        changes.update(deck__jokers=2, automatic_wins__wild_jokers=True)
    else:
        changes.update(deal__cards=17)
    path, rs = _rules(tmp_path, what.replace(" ", "-"), **changes)
    # (Opponents set strongest-back-first: a model would be trained first; the opponents
    # holding a special declare it whatever sets the others.)
    sol = solver.solve(hand, path, players=3, samples=40, seed=4, holdout=0, policy="sbf")
    assert sol.automatic_win == "dragon" and sol.declare and sol.action == "declare"
    kept = naive.parse(" ".join(sol.declare_rows))
    assert naive.holds_special_in(kept, "dragon", rs.automatic_wins_wild)
    assert sorted(kept + naive.parse(sol.declare_discards)) == sorted(naive.parse(hand))
    assert ("discarding" in str(sol)) == (what == "17 cards")
    deals = solver.sample_opponents(hand, path, players=3, samples=40, seed=4, policy="sbf")
    settled = []
    for deal in deals:
        for opponent in deal:
            cards = naive.parse(" ".join(opponent[:3]))
            assert len(cards) == 13
            if len(opponent) == 4:
                assert naive.special_hands_in(cards, names=rs.automatic_wins,
                                              wild=rs.automatic_wins_wild), opponent
        declared = [0] + [j + 1 for j, o in enumerate(deal) if len(o) == 4]
        settled.append(solver.settle([tuple(sol.declare_rows)] + [o[:3] for o in deal], path,
                                     declared=declared)[0])
    assert sol.ev_declare == pytest.approx(np.mean(settled))
    # The opponents who declare are those whose dealt cards hold one (by the reference).
    hands = solver.sampling.deal_unseen(solver.sampling.prepare_hand(hand, rs, None, 3), 40, 4)
    for s, deal in enumerate(deals):
        for j, opponent in enumerate(deal):
            cards = naive.parse(format_cards([int(c) for c in hands[s, j]]))
            assert (len(opponent) == 4) == bool(naive.special_hands_in(
                cards, names=rs.automatic_wins, wild=rs.automatic_wins_wild))


# --- the worked examples of the rules page -------------------------------------------------
def test_the_worked_examples(tmp_path):
    changes = dict(deck__jokers=2, deal__seats=[2, 3], automatic_wins__dragon=13,
                   automatic_wins__six_pairs=3, automatic_wins__three_flushes=3,
                   automatic_wins__three_straights=3)
    wild_path, wild = _rules(tmp_path, "wild", **changes, automatic_wins__wild_jokers=True)
    tame_path, tame = _rules(tmp_path, "tame", **changes)
    a = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Jk"
    b = "2s 2h 5c 5d 9c 9d Jc Jh Qc Qd Ac Kd Jk"
    c = ("3s 4c 4d", "6s 6h 7c 8c 8s", "Th Td Ts As Ad")
    wa, wb = solver.automatic_win(a, wild), solver.automatic_win(b, wild)
    assert (wa.name, wb.name) == ("dragon", "six_pairs")
    assert solver.settle([wa[2:5], wb[2:5], c], wild_path, declared=[0, 1]) == [26, -10, -16]
    assert solver.automatic_win(a, tame) is None and solver.automatic_win(b, tame) is None
    assert solver.automatic_win(b.replace("Kd", "Ah"), tame).name == "six_pairs"
    seventeen_path, seventeen = _rules(tmp_path, "seventeen", deal__cards=17,
                                       deal__seats=[2, 3])
    win = solver.automatic_win("As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s Ah Kc 7s 7d", seventeen)
    assert win.name == "dragon"
    assert sorted(" ".join((win.front, win.middle, win.back)).split()) == sorted(
        "2s 3h 4c 5d 6s 7s 8c 9d Ts Jh Qc Kd As".split())
    assert sorted(win.discards.split()) == sorted("Ah Kc 7h 7d".split())


def test_wild_jokers_and_surrender_are_the_same_at_every_table_size(tmp_path):
    """[at_N_seats] changes how a deal scores; whether jokers are wild in special hands,
    and the surrender, are the rule set's at every table size: one line, not ignored."""
    base = RuleSet.from_dict(dict(rule_set("two-jokers").to_dict(), name="tables",
                                  automatic_wins={"dragon": 13}))
    for extra, message in (("[at_2_seats.automatic_wins]\nwild_jokers = true\n",
                            "wild in special hands is the same at every table size"),
                           ("[at_2_seats.surrender]\ncost = 2\n",
                            "only scoring, royalties, fouls, automatic_wins can change")):
        path = tmp_path / "tables.toml"
        path.write_text(base.to_toml() + "\n" + extra)
        with pytest.raises(ValueError, match=message) as e:
            RuleSet.from_file(path)
        assert "\n" not in str(e.value)
