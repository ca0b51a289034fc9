"""Text for people: rows in reading order, labelled, whatever the rule set."""
import pytest

import solver
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
