"""Text for people: rows in reading order, labelled, whatever the rule set."""
import pytest

import solver
from solver.cards import FIRST_JOKER
from solver.display import arrangement_text, label, row_line, sort_row


@pytest.mark.parametrize("cards, category, shown", [
    ("9s Kh 9d Kd Kc", "full_house", "Kh Kd Kc 9s 9d"),          # trips, then the pair
    ("Kh Kd 9s 9d 9c", "full_house", "9s 9d 9c Kh Kd"),          # nines full of kings
    ("3d 9c 3c Qh 5d", "pair", "3d 3c Qh 9c 5d"),                # the pair, then kickers
    ("4s Ah 4h Kd Kc", "two_pair", "Kd Kc 4s 4h Ah"),            # higher pair first
    ("Ks Qh Jd Td 9c", "straight", "Ks Qh Jd Td 9c"),
    ("As 2h 3d 4c 5s", "straight", "5s 4c 3d 2h As"),            # the wheel: ace low
    ("As Ks Qs Js Ts", "straight_flush", "As Ks Qs Js Ts"),      # broadway: ace high
    ("As 2h 3d Jk 5s", "straight", "5s 3d 2h As Jk"),            # jokers last
    ("Jk As As", "trips", "As As Jk"),
    ("2h 9h Ah 5h Kh", "flush", "Ah Kh 9h 5h 2h"),
    ("7c 7d 7h 7s 2d", "quads", "7s 7h 7d 7c 2d"),               # suits s h d c
])
def test_rows_read_as_a_player_reads_them(cards, category, shown):
    assert sort_row(cards, category) == shown


def test_every_category_has_a_label():
    assert [label(c) for c in solver.CATEGORIES][:3] == ["high card", "pair", "two pair"]
    assert all("_" not in label(c) for c in solver.CATEGORIES)


def test_a_whole_hand_is_sorted_by_rank_only():
    assert sort_row("2d 9s 9c Kd Jk 5s", group=False) == "Kd 9s 9c 5s 2d Jk"


def test_row_lines_and_arrangements():
    assert row_line("back", "9s Kh 9d Kd Kc", "full_house") == "back    Kh Kd Kc 9s 9d   full house"
    assert row_line("discard", "2c 3c") == "discard 3c 2c"
    assert arrangement_text(("Jk As As", "5s 4c 3d 2h As", "Kh Kd 9s 9d 9c"),
                            ("trips", "straight", "full_house")) == \
        "As As Jk | 5s 4c 3d 2h As | 9s 9d 9c Kh Kd"


def test_a_solution_in_each_scheme_shows_what_the_rule_set_has():
    hand13 = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
    for rules, hand, cut, scoops in [
            ("joker", "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc", None, "scoop "),
            ("bonus", "Ah Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 5h 4d 3c 2s", "9c", "scoop "),
            ("classic:mandarin", hand13, None, "shot "),
            ("classic", hand13, None, None), ("pagat", hand13, None, None)]:
        text = str(solver.solve(hand, rules, cut, samples=20, top=1))
        lines = text.splitlines()
        assert lines[0].startswith(rules)
        assert ("scoop" in text or "shot" in text) == (scoops is not None), rules
        if scoops:
            assert any(line.startswith(scoops) for line in lines)
        assert ("bonus units" in text) == (rules not in ("classic", "pagat")), rules
        assert "units: your net score in one deal" in text


def _strong_rows(rng, deck_codes, size, count):
    """Rows of real cards, most of them made to hold a hand (a few ranks, one suit, a
    run of ranks) so that every category turns up, some of them drawn at random."""
    from solver.cards import code_rank, code_suit
    deck = [c for c in deck_codes if c < FIRST_JOKER]
    rows = []
    while len(rows) < count:
        way = len(rows) % 4
        if way == 0:
            keep = set(rng.choice(13, size=int(rng.integers(1, 4)), replace=False).tolist())
        elif way == 1:
            keep = {int(rng.integers(4))}
        else:
            top = int(rng.integers(4, 14))
            keep = {r % 13 for r in range(top - 5, top)} if way == 2 else set()
        pool = [c for c in deck if way == 3
                or (code_suit(c) if way == 1 else code_rank(c)) in keep]
        if len(pool) >= size:
            rows.append([int(c) for c in rng.choice(pool, size=size, replace=False)])
    return rows


@pytest.mark.parametrize("rules, cut, own_categories", [
    ("pagat", None, set()), ("classic", None, set()),
    ("bonus", "7c", {"natural_five", "paired_flush", "bonus_trips", "bonus_full_house",
                     "bonus_quads"}),
    ("joker", None, {"natural_five", "paired_flush"})])
def test_rows_without_jokers_read_as_the_general_way_reads_them(rules, cut, own_categories):
    """The quick order of a row of real cards (each rank's place, then the suit) is the
    general one's (each counted rank takes its first card left), category by category."""
    import numpy as np
    from solver.cards import deck_codes, format_cards, parse_codes
    from solver.display import _as_counted, _as_counted_with_jokers
    rng = np.random.default_rng(11)
    deck = [c for c in deck_codes(rules) if cut is None or c not in parse_codes(cut, rules)]
    seen = set()
    for size in (3, 5):
        for codes in _strong_rows(rng, deck, size, 3000):
            value = solver.row_value(format_cards(codes), rules, cut=cut)
            seen.add(value.category)
            assert _as_counted(codes, value.value) == _as_counted_with_jokers(codes, value.value)
    assert {"high_card", "pair", "two_pair", "trips", "straight", "flush", "full_house",
            "quads", "straight_flush"} | own_categories <= seen
