"""Rule-set files (docs/rule-files.md): the shipped rule sets are files that load as the
Python definitions they replaced, a file and what it writes load as the same rule set,
and a bad file is one clear error."""
import dataclasses
import random
from pathlib import Path
from types import MappingProxyType

import pytest

import solver
from solver import rules
from solver.rule_file import KEYS, RuleFileError
from solver.rules import (AUTOMATIC_WINS, CATEGORIES, ROWS, RULE_SET_NAMES, RuleSet,
                          _bonus_table, builtin_name, cache_name, rule_set)

ROOT = Path(__file__).resolve().parent.parent

# The built-in rule sets as they were written in Python before they became files: the
# files must load as exactly these (every field, so every answer stays the same).
_SCOOP_COMMON = dict(deal_all_unseen=True, seats=(4,), row_points=(0, 0, 0),
                     scoop="no_row_lost", scoop_units=1)
_CLASSIC_COMMON = dict(
    spade_copies=1, jokers=0, cut_card=False, cards_dealt=13, seats=(2, 3, 4),
    deal_all_unseen=True, foul_penalty=4,
    automatic_wins=MappingProxyType(
        {"dragon": 13, "six_pairs": 3, "three_flushes": 3, "three_straights": 3}))
_CLASSIC_BONUS_HANDS = {
    ("middle", "full_house"): 2, ("middle", "quads"): 8, ("middle", "straight_flush"): 10,
    ("back", "quads"): 4, ("back", "straight_flush"): 5,
}
PYTHON_DEFINITIONS = {
    "joker": RuleSet(
        name="joker", spade_copies=2, jokers=3, cut_card=False, cards_dealt=17,
        home_run_units=3, **_SCOOP_COMMON,
        row_bonus=_bonus_table({
            ("front", "trips"): 1, ("front", "joker_trips"): 5,
            ("middle", "quads"): 2, ("middle", "straight_flush"): 2,
            ("middle", "joker_five"): 3, ("middle", "natural_five"): 12,
            ("back", "quads"): 1, ("back", "straight_flush"): 1,
            ("back", "joker_five"): 2, ("back", "natural_five"): 5,
        })),
    "bonus": RuleSet(
        name="bonus", spade_copies=2, jokers=0, cut_card=True, cards_dealt=16,
        home_run_units=2, **_SCOOP_COMMON,
        row_bonus=_bonus_table({
            ("front", "trips"): 1, ("front", "bonus_trips"): 2,
            ("middle", "bonus_trips"): 1, ("middle", "bonus_full_house"): 2,
            ("middle", "quads"): 2, ("middle", "straight_flush"): 2,
            ("middle", "bonus_quads"): 5, ("middle", "natural_five"): 10,
            ("back", "bonus_trips"): 1, ("back", "bonus_full_house"): 1,
            ("back", "quads"): 1, ("back", "straight_flush"): 1,
            ("back", "bonus_quads"): 5, ("back", "natural_five"): 5,
        })),
    "pagat": RuleSet(
        name="pagat", spade_copies=1, jokers=0, cut_card=False, cards_dealt=13,
        seats=(2, 3, 4), deal_all_unseen=False, foul_loses_rows=True),
    "classic": RuleSet(name="classic", majority_bonus=1, **_CLASSIC_COMMON),
    "classic:eastern": RuleSet(
        name="classic:eastern", bonus_mode="replace", **_CLASSIC_COMMON,
        row_bonus=_bonus_table({("front", "trips"): 3, **_CLASSIC_BONUS_HANDS})),
    "classic:mandarin": RuleSet(
        name="classic:mandarin", front_trips_points=3, shot_multiplier=2,
        home_run_multiplier=3, home_run_min_seats=4, **_CLASSIC_COMMON,
        row_bonus=_bonus_table(_CLASSIC_BONUS_HANDS)),
}
# Their digests before they became files: caches keyed on them stay valid.
DIGESTS = {"joker": "2df9ab29dd816978", "bonus": "8e6aef703503fa5c",
           "pagat": "3a73894987f74fca", "classic": "f1759f27aa65e75e",
           "classic:eastern": "71faf8de2d43b155", "classic:mandarin": "c530f2a3c5660788"}


def fields(rs):
    return {f.name: getattr(rs, f.name) for f in dataclasses.fields(rs)}


@pytest.mark.parametrize("name", sorted(PYTHON_DEFINITIONS))
def test_each_builtin_is_a_shipped_file_that_loads_as_its_python_definition(name):
    path = rules.RULES_DIR / f"{name.replace(':', '-')}.toml"
    loaded = RuleSet.from_file(path)
    expected = PYTHON_DEFINITIONS[name]
    assert fields(loaded) == fields(expected)
    assert loaded == expected and hash(loaded) == hash(expected)
    assert loaded.scheme == expected.scheme
    assert loaded.digest == expected.digest == DIGESTS[name]
    assert rule_set(name) == expected and rule_set(str(path)) == expected


def test_the_registry_is_the_shipped_files_and_its_aliases():
    assert RULE_SET_NAMES == ('bonus', 'classic', 'classic:eastern', 'classic:mandarin',
                              'classic:western', 'joker', 'pagat')
    assert rule_set("classic:western") is rule_set("classic")
    assert rule_set(" Classic ") is rule_set("classic")        # as before: case, spaces
    assert sorted(p.stem for p in rules.RULES_DIR.glob("*.toml")) == sorted(
        n.replace(":", "-") for n in PYTHON_DEFINITIONS)


@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_what_a_rule_set_writes_loads_as_the_same_rule_set(name, tmp_path):
    rs = rule_set(name)
    text = rs.to_toml(header=("a comment",))
    assert text.startswith("# a comment\n")
    path = tmp_path / "written.toml"
    path.write_text(text)
    again = rule_set(path)
    assert fields(again) == fields(rs) and again.digest == rs.digest
    assert RuleSet.from_dict(rs.to_dict()) == rs


def random_rule_dict(rng: random.Random) -> dict:
    """A random valid file, keys drawn independently (some left to their default)."""
    extra_spades, jokers, cut = rng.random() < 0.5, rng.randint(0, 3), rng.random() < 0.3
    deck = 52 + 13 * extra_spades + jokers
    cards = rng.randint(13, 17)
    fitting = [n for n in (2, 3, 4, 5) if n * cards + cut <= deck]
    seats = sorted(rng.sample(fitting, rng.randint(1, len(fitting))))
    d = {"name": rng.choice(["mine", "house rules", "ca:sa", "t\u00e9"]),
         "deck": {"extra_spades": extra_spades, "jokers": jokers, "cut_card": cut},
         "deal": {"cards": cards, "seats": seats, "deal_all_unseen": rng.random() < 0.5},
         "scoring": {"row_points": [rng.randint(0, 3) for _ in range(3)],
                     "front_trips_points": rng.randint(0, 3),
                     "majority_bonus": rng.randint(0, 2),
                     "scoop": rng.choice(["all_rows_won", "no_row_lost"]),
                     "scoop_units": rng.randint(0, 3), "shot_multiplier": rng.randint(1, 3),
                     "home_run_units": rng.randint(0, 3),
                     "home_run_multiplier": rng.randint(1, 4),
                     "home_run_min_seats": rng.randint(2, max(seats))},
         "royalties": {"mode": rng.choice(["add", "replace"]),
                       "paid": rng.choice(["row_won", "row_made"]),
                       "multiplied": rng.random() < 0.5},
         "fouls": rng.choice([{"rule": "penalty", "penalty": rng.randint(1, 6)},
                              {"rule": "loses_rows"}, {"rule": "not_allowed"}, {}]),
         "automatic_wins": {n: rng.randint(1, 13)
                            for n in rng.sample(AUTOMATIC_WINS, rng.randint(0, 4))}}
    for row in ROWS:
        if rng.random() < 0.6:
            d["royalties"][row] = {c: rng.randint(0, 10)
                                   for c in rng.sample(CATEGORIES, rng.randint(1, 4))}
    for section in ("scoring", "royalties"):       # some keys left to their default
        for key in list(d[section]):
            if rng.random() < 0.2:
                del d[section][key]
    return d


@pytest.mark.parametrize("seed", range(40))
def test_random_valid_files_round_trip(seed, tmp_path):
    rs = RuleSet.from_dict(random_rule_dict(random.Random(seed)))
    path = tmp_path / "r.toml"
    path.write_text(rs.to_toml(), encoding="utf-8")
    again = RuleSet.from_file(path)
    assert fields(again) == fields(rs) and again == rs and again.digest == rs.digest
    assert RuleSet.from_dict(again.to_dict()) == rs


def test_a_missing_key_takes_its_default_and_the_name_defaults_to_the_files(tmp_path):
    path = tmp_path / "my-table.toml"
    path.write_text("[scoring]\nmajority_bonus = 1\n[fouls]\nrule = 'penalty'\npenalty = 4\n")
    rs = rule_set(str(path))
    assert rs.name == "my-table"
    assert (rs.spade_copies, rs.jokers, rs.cut_card, rs.cards_dealt, rs.seats,
            rs.deal_all_unseen) == (1, 0, False, 13, (2, 3, 4), True)
    assert rs.row_points == (1, 1, 1) and rs.scoop == "all_rows_won"
    # Its rules are classic's without the automatic wins: not the built-in.
    assert builtin_name(rs) is None and cache_name(rs) == f"my-table-{rs.digest}"


def test_a_file_restating_a_builtin_under_any_name_is_the_builtin_for_its_caches():
    d = rule_set("classic:eastern").to_dict()
    d["name"] = "our table"
    rs = RuleSet.from_dict(d)
    assert rs.name == "our table" and rs.digest == rule_set("classic:eastern").digest
    assert builtin_name(rs) == "classic:eastern" and cache_name(rs) == "classic-eastern"
    # A built-in's name on other rules is not the built-in.
    d = rule_set("classic").to_dict()
    d["scoring"]["majority_bonus"] = 2
    changed = RuleSet.from_dict(d)
    assert changed.name == "classic" and builtin_name(changed) is None
    assert cache_name(changed) == f"classic-{changed.digest}"


def test_the_layout_lists_every_field():
    # Every RuleSet field is set by some key (the reference page lists KEYS).
    d = rule_set("classic:mandarin").to_dict()
    written = {k.path.split(".")[0] if k.section in ("royalties", "automatic_wins")
               and k.name.isupper() else k.path for k in KEYS}
    assert written >= {"name"} | {f"{s}.{k}" for s, t in d.items() if isinstance(t, dict)
                                  for k in t if not isinstance(t[k], dict)
                                  and s != "automatic_wins"}
