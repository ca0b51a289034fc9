"""Cards: the 36-card deck and its notation."""

import pytest

from solver.georgian import DECK, card_str, cards_str, parse_card, parse_cards, parse_suit
from solver.georgian.cards import JOKER_IDS, NO_TRUMP, RANKS, SUITS, is_joker, rank_of, sort_cards, suit_of


def test_deck_has_36_cards_with_two_jokers_instead_of_the_black_sixes():
    assert len(DECK) == len(set(DECK)) == 36
    texts = [card_str(c) for c in DECK]
    assert texts.count("Jk") == 2
    assert "6s" not in texts and "6c" not in texts
    assert "6h" in texts and "6d" in texts
    for s in "shdc":
        for r in "789TJQKA":
            assert r + s in texts


def test_ranks_ace_high_six_low():
    assert rank_of(parse_card("Ah")) > rank_of(parse_card("Kh")) > rank_of(parse_card("Th")) > rank_of(parse_card("6h"))
    assert RANKS[0] == "6" and RANKS[-1] == "A"
    assert [suit_of(parse_card(x)) for x in ("As", "Ah", "Ad", "Ac")] == [0, 1, 2, 3]


@pytest.mark.parametrize("text,expected", [("As", "As"), ("10d", "Td"), ("td", "Td"), ("Q♥", "Qh"),
                                           ("6♦", "6d"), ("jk", "Jk"), ("JK", "Jk"), ("X", "Jk")])
def test_notation_round_trip(text, expected):
    assert card_str(parse_card(text)) == expected


def test_parse_cards_assigns_both_jokers_and_keeps_order():
    cards = parse_cards("Jk, As jk")
    assert cards_str(cards) == "Jk As Jk"
    assert sorted(c for c in cards if is_joker(c)) == list(JOKER_IDS)


@pytest.mark.parametrize("text,message", [
    ("6s", "not in the deck"), ("6c", "not in the deck"), ("1s", "not a card"), ("Az", "not a card"),
    ("As As", "repeated card: As"), ("Jk Jk X", "more than two jokers"), ("", None),
])
def test_bad_cards_raise_value_error_naming_the_problem(text, message):
    if message is None:
        assert parse_cards(text) == []
        return
    with pytest.raises(ValueError, match=message):
        parse_cards(text)


def test_bad_ids_and_suits():
    with pytest.raises(ValueError):
        card_str(0)  # the 6s id is not in the deck
    with pytest.raises(ValueError):
        parse_cards([True])
    with pytest.raises(ValueError, match="not a suit"):
        parse_suit("x")
    with pytest.raises(ValueError):
        parse_suit("none")  # no-trump only where allowed
    assert parse_suit("none", allow_no_trump=True) == NO_TRUMP
    assert [parse_suit(s) for s in "♠♥♦♣"] == [0, 1, 2, 3]
    assert SUITS == "shdc"


def test_jokers_have_no_suit_or_rank():
    with pytest.raises(ValueError):
        suit_of(36)
    with pytest.raises(ValueError):
        rank_of(37)


def test_sort_cards_for_display():
    assert cards_str(sort_cards(parse_cards("7h As Jk Ah 9s"))) == "Jk As 9s Ah 7h"
