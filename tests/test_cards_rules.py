import pytest

import solver
from solver.cards import deck_codes, mask_to_codes, parse_codes, to_codes
from solver.rules import rule_set


def test_notation_variants_parse_to_the_canonical_form():
    mask = solver.parse_cards("as 10d 2♣, Jk x JK", "joker")
    assert solver.format_cards(mask) == "As Td 2c Jk Jk Jk"
    assert solver.format_cards(solver.parse_cards("Q♥ 9♦", "pagat")) == "Qh 9d"


@pytest.mark.parametrize("text", [
    "A\u2660\ufe0f K\u2665\ufe0f 10\u2666\ufe0f 2\u2663\ufe0f",   # emoji, as phones paste them
    "A\u2660\ufe0e K\u2665\ufe0e T\u2666 2\u2663",                 # the text selector
    "AsKh10d2c",                                                      # treys, pokerkit
    "A\u2660\ufe0fK\u2665\ufe0f Td2c",
])
def test_pasted_emoji_suits_and_compact_notation_are_cards(text):
    assert solver.format_cards(solver.parse_cards(text, "classic")) == "As Kh Td 2c"


def test_compact_notation_reads_tens_and_jokers():
    assert solver.format_cards(parse_codes("10sJkXJcAsAs", "joker")) == "Ts Jk Jk Jc As As"
    assert solver.format_cards(parse_codes("AsKs, QsJs", "classic")) == "As Ks Qs Js"


@pytest.mark.parametrize("text, message", [
    ("AsKsZs", r"unknown card 'Zs' in 'AsKsZs'"),
    ("AsK", r"unknown card 'K' in 'AsK'"),
    ("As10", r"unknown card '10' in 'As10'"),
    ("JkS", r"unknown card 'S' in 'JkS'"),
    ("bogus", r"unknown card 'bogus': a card is"),
    ("AsAs", r"duplicate card 'As'"),                 # each card of a word is checked
])
def test_compact_words_that_do_not_split_into_cards_name_the_bad_card(text, message):
    with pytest.raises(ValueError, match=message):
        parse_codes(text, "classic")


@pytest.mark.parametrize("text, bad", [
    ("hello there 1s", "'hello'"),               # not 'er' of "there", read before it
    ("there hello", "'er' in 'there'"),
    ("As Kd Zz AsKsQx", "'Zz'"),
])
def test_the_first_bad_word_is_the_one_named(text, bad):
    with pytest.raises(ValueError, match=f"^unknown card {bad}"):
        parse_codes(text, "classic")


def test_bytes_are_read_as_utf8_text():
    assert solver.format_cards(b"As Kd") == "As Kd"
    assert solver.parse_cards("A\u2660 Kd".encode(), "pagat") == solver.parse_cards("As Kd", "pagat")
    assert to_codes(b"As Kd", "classic") == [12, 37]
    assert solver.row_value(b"As Ad Kc", "classic") == solver.row_value("As Ad Kc", "classic")
    with pytest.raises(ValueError, match="cards given as bytes must be UTF-8 text"):
        solver.format_cards(b"\xff")


def test_two_spades_are_two_physical_cards_in_the_extra_spade_decks():
    codes = parse_codes("As As", "joker")
    assert codes == [12, 64]
    assert solver.format_cards(codes) == "As As"
    assert len(mask_to_codes(solver.parse_cards("As As Ks Ks", "bonus"))) == 4


@pytest.mark.parametrize("text, rule_set, message", [
    ("Ah Ah", "joker", "duplicate card 'Ah'"),
    ("As As As", "joker", "duplicate card 'As'"),
    ("As As", "pagat", "duplicate card 'As'"),
    ("Kd Kd", "classic", "duplicate card 'Kd'"),
    ("Jk", "pagat", "joker 'Jk'"),
    ("Jk", "bonus", "joker 'Jk'"),
    ("Jk Jk Jk X", "joker", "joker 'X'"),
    ("Zz", "joker", "unknown card 'Zz'"),
    ("1s", "pagat", "unknown card '1s'"),
    ("Ax", "pagat", "unknown card 'Ax'"),
])
def test_bad_cards_raise_naming_the_card(text, rule_set, message):
    with pytest.raises(ValueError, match=message):
        solver.parse_cards(text, rule_set)


def test_unknown_rule_set_lists_the_valid_names():
    with pytest.raises(ValueError, match="unknown rule set 'poker'.*'joker'.*'pagat'"):
        solver.rule_set("poker")


def test_rule_sets_hold_the_documented_numbers():
    joker, bonus = solver.rule_set("joker"), solver.rule_set("bonus")
    assert (joker.deck_size, joker.cards_dealt, joker.discards) == (68, 17, 4)
    assert (bonus.deck_size, bonus.cards_dealt, bonus.discards) == (65, 16, 3)
    assert solver.rule_set("pagat").deck_size == solver.rule_set("classic").deck_size == 52
    assert (joker.home_run_units, bonus.home_run_units) == (3, 2)
    mid = solver.rule_set("joker").row_bonus[1]
    assert mid[solver.CATEGORIES.index("natural_five")] == 12    # not the old +7
    assert solver.rule_set("classic:mandarin").foul_penalty == 4
    assert solver.rule_set("classic").automatic_wins["dragon"] == 13
    assert len(deck_codes("joker")) == 68 and len(deck_codes("bonus")) == 65
    with pytest.raises(Exception):
        joker.jokers = 2   # immutable


def test_codes_are_checked_against_the_deck():
    with pytest.raises(ValueError, match="second 'As'"):
        to_codes([64], "pagat")
    with pytest.raises(ValueError, match="no jokers"):
        to_codes([65], "classic")
    with pytest.raises(ValueError, match="duplicate card code"):
        to_codes([3, 3], "joker")
    assert to_codes(["As", "As"], "joker") == [12, 64]


@pytest.mark.parametrize("rule_set", ["classic", "joker", "bonus"])
def test_plain_text_parses_as_the_general_path_does(rule_set):
    # parse_codes reads plain text (cards separated by whitespace) by a dict lookup a
    # card; an empty ``taken`` takes the general path, which must agree, errors included.
    import random
    rng = random.Random(3)
    words = ["As", "as", "AS", "10s", "Ts", "tS", "2h", "Kd", "9c", "A♠", "K♥", "Jk", "jk",
             "x", "X", "Zz", "1s", "As,", "AsKs", "A♠\ufe0f"]
    for _ in range(3000):
        text = rng.choice([" ", "  ", "\t", "\n"]).join(rng.choices(words, k=rng.randint(0, 6)))

        def outcome(taken):
            try:
                return parse_codes(text, rule_set, taken)
            except ValueError as e:
                return str(e)
        assert outcome(None) == outcome(set()), text


def test_each_built_in_rule_set_derives_its_own_kernel_and_variants_the_general_one():
    import dataclasses
    from solver import rules as R
    expected = {"joker": R.SCHEME_SCOOP, "bonus": R.SCHEME_SCOOP, "pagat": R.SCHEME_ROWS,
                "classic": R.SCHEME_WESTERN, "classic:eastern": R.SCHEME_EASTERN,
                "classic:mandarin": R.SCHEME_MANDARIN}
    for name, scheme in expected.items():
        assert rule_set(name).scheme == scheme, name
    # A field the specialised kernel does not compute sends the rule set to the general one.
    for name, change in (("classic", {"row_points": (1, 2, 3)}),
                         ("pagat", {"scoop_units": 3}),
                         ("joker", {"foul_penalty": 6}),
                         ("classic:eastern", {"bonus_paid": R.PAID_ROW_MADE}),
                         ("classic:mandarin", {"bonus_multiplied": True})):
        variant = dataclasses.replace(rule_set(name), name=name + "-house", **change)
        assert variant.scheme == R.SCHEME_GENERAL, (name, change)


def test_rule_sets_of_one_name_but_other_rules_are_not_equal_and_hash_apart():
    import dataclasses
    classic = rule_set("classic")
    same = dataclasses.replace(classic)
    other = dataclasses.replace(classic, foul_penalty=6)
    assert same == classic and hash(same) == hash(classic)
    assert other != classic and hash(other) != hash(classic)
    with pytest.raises(ValueError, match="scoop must be one of"):
        dataclasses.replace(classic, scoop="sometimes")
