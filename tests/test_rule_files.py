"""Rule-set files (docs/rule-files.md): the shipped rule sets are files that load as the
Python definitions they replaced, a file and what it writes load as the same rule set,
and a bad file is one clear error."""
import dataclasses
import random
from types import MappingProxyType

import pytest

import solver
from solver import rules
from solver.rule_file import KEYS, RuleFileError, write as write_toml
from solver.rules import (AUTOMATIC_WINS, CATEGORIES, FRONT_CATEGORIES, ROWS, RULE_SET_NAMES, RuleSet,
                          _bonus_table, builtin_name, cache_name, rule_set)


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
    assert RULE_SET_NAMES == ('bonus', 'capsa-susun', 'classic', 'classic-1-6',
                              'classic:eastern', 'classic:mandarin', 'classic:western', 'joker',
                              'mau-binh', 'pagat', 'pusoy', 'shisanshui', 'two-jokers')
    assert rule_set("classic:western") is rule_set("classic")
    assert rule_set(" Classic ") is rule_set("classic")        # as before: case, spaces
    assert sorted(p.stem for p in rules.RULES_DIR.glob("*.toml")) == sorted(
        n.replace(":", "-") for n in [*PYTHON_DEFINITIONS, *HOUSE_RULE_SETS, *REGIONAL_GAMES])


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
         "automatic_wins": {}}
    wins = {n: rng.randint(1, 13) for n in rng.sample(AUTOMATIC_WINS, rng.randint(0, 6))}
    if wins and rng.random() < 0.5:
        wins["strength"] = {n: rng.randint(1, 4) for n in wins}
    if rng.random() < 0.5:
        wins["declared"] = rng.random() < 0.5
    if set(wins) & set(AUTOMATIC_WINS) and jokers and rng.random() < 0.5:
        wins["wild_jokers"] = rng.random() < 0.5
    d["automatic_wins"] = wins
    if rng.random() < 0.5:
        d["surrender"] = {"cost": rng.randint(0, 4)}
    d["scoring"].update(majority_multiplied=rng.random() < 0.5,
                        scoop_multiplied=rng.random() < 0.5,
                        loss_cap_per_pair=rng.choice([0, 0, rng.randint(1, 12)]),
                        loss_cap_per_deal=rng.choice([0, 0, rng.randint(1, 20)]))
    if rng.random() < 0.3:
        d["fouls"] = {"rule": "loses_rows", "penalty": rng.randint(0, 4)}
    for row in ROWS:
        if rng.random() < 0.6:
            makeable = (FRONT_CATEGORIES if row == "front"
                        else [c for c in CATEGORIES if c != "joker_trips"])
            d["royalties"][row] = {c: rng.randint(1, 10) if row == "front" else
                                   random_royalty(rng, c)
                                   for c in rng.sample(makeable, rng.randint(1, 4))}
    if rng.random() < 0.4:                   # royalties by rank on the Front, as 1-6 tables
        d["royalties"]["front"] = rising_front_royalties(rng)
        d["scoring"]["front_trips_points"] = 0
    for section in ("scoring", "royalties"):       # some keys left to their default
        for key in list(d[section]):
            if rng.random() < 0.2:
                del d[section][key]
    scoring = d["scoring"]          # a home run, where one can happen, pays at least a shot
    shot = scoring.get("shot_multiplier", 1)
    if (scoring.get("home_run_multiplier", 1) < shot
            and scoring.get("home_run_min_seats", 2) <= max(seats)):
        scoring["home_run_multiplier"] = shot + rng.randint(0, 1)
    if d["royalties"].get("mode") == "replace":
        d["royalties"]["mode"] = "add"     # (a royalty by rank replacing fewer points is refused)
    if d["scoring"].get("loss_cap_per_deal") and d["royalties"].get("paid") == "row_made":
        d["royalties"]["paid"] = "row_won"   # (with home runs, refused: see the bad files)
    for n in rng.sample(seats, rng.randint(0, len(seats))):     # scoring at one table size
        table = {"scoring": {key: d["scoring"][key] + rng.randint(0, 2) for key in
                             rng.sample(["scoop_units", "majority_bonus", "home_run_units",
                                         "loss_cap_per_pair", "loss_cap_per_deal"],
                                        rng.randint(1, 3)) if key in d["scoring"]}}
        if rng.random() < 0.5:
            table["royalties"] = {"back": {"quads": rng.choice([0, 4, {"A": 9, "2": 1}])}}
        d[f"at_{n}_seats"] = table
    return d


def random_royalty(rng: random.Random, category: str):
    """A royalty by category, or (one time in three, but for joker trips) by rank: a few
    ranks, in any order of size."""
    if category == "joker_trips" or rng.random() < 0.67:
        return rng.randint(1, 10)
    ranks = rng.sample(["2", "5", "9", rng.choice(["10", "T"]), "J", "q", "K", "A"],
                       rng.randint(1, 4))
    return {rank: rng.randint(1, 30) for rank in ranks}


def rising_front_royalties(rng: random.Random) -> dict:
    """Front royalties that never fall as the Front gets stronger: high cards, pairs and
    trips by rank, one rising sequence (the 1-6 tables' pairs of sixes 1 to aces 9, trips
    10 to 22, are one such); bonus and joker trips above them all."""
    units, table = 0, {}
    for category in ("high_card", "pair", "trips"):
        ranks = {}
        for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"):
            units += rng.choice([0, 0, 1, 2])
            if units:
                ranks[rank] = units
        table[category] = ranks
    table["bonus_trips"] = table["joker_trips"] = units + rng.randint(0, 5)
    return table


def solvable_rule_dict(rng: random.Random) -> dict:
    """A random file that loads: random_rule_dict's, drawn again while the solver could
    not search it (a stronger row earning less: tests/test_rule_bounds.py); a table of
    one seat count that makes it invalid, left out."""
    for _ in range(200):
        d = random_rule_dict(rng)
        while True:
            try:
                RuleSet.from_dict(d)
                return d
            except RuleFileError as e:
                table = e.key.split(".")[0]
                if table.startswith("at_") and table in d:
                    del d[table]
                    continue
                assert "the solver" in e.reason, e       # (the only refusal of such a file)
                break
    raise AssertionError("no random file loads")


def random_rule_set(seed) -> RuleSet:
    """The rule set of a random file that loads (:func:`solvable_rule_dict`)."""
    return RuleSet.from_dict(solvable_rule_dict(random.Random(seed)))


@pytest.mark.parametrize("seed", range(40))
def test_random_valid_files_round_trip(seed, tmp_path):
    rs = random_rule_set(seed)
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


# --- bad files: one line naming the file, the key, the value and the reason ------------

CLASSIC = rule_set("classic").to_toml()
BAD_FILES = [
    # (id, the file's text, the key named, the value shown, words of the reason)
    ("invalid TOML", "name = 'x'\n[deck\njokers = 1\n", "invalid TOML", None, "line 2"),
    ("unknown top-level key", "nmae = 'x'\n", "nmae", '"x"', "did you mean 'name'"),
    ("key outside its section", "jokers = 2\n", "jokers", "2", "belongs in [deck]"),
    ("unknown section", "[scorring]\nscoop_units = 1\n", "[scorring]", None,
     "unknown section (did you mean 'scoring'"),
    ("unknown key in a section", "[scoring]\nmajority = 1\n", "[scoring] majority", "1",
     "did you mean 'majority_bonus'"),
    ("unknown category", "[royalties]\nfront.trip = 3\n", "[royalties] front.trip", "3",
     "did you mean 'trips'"),
    ("unknown automatic win", "[automatic_wins]\ndragons = 13\n",
     "[automatic_wins] dragons", "13", "did you mean 'dragon'"),
    ("unknown choice", "[scoring]\nscoop = 'all_rows'\n", "[scoring] scoop", '"all_rows"',
     "did you mean 'all_rows_won'"),
    ("string for a number", "[deck]\njokers = 'two'\n", "[deck] jokers", '"two"',
     "whole number"),
    ("fraction for a number", "[deal]\ncards = 13.5\n", "[deal] cards", "13.5",
     "whole number"),
    ("boolean for a number", "[scoring]\nscoop_units = true\n", "[scoring] scoop_units",
     "true", "whole number"),
    ("number for a boolean", "[deck]\ncut_card = 1\n", "[deck] cut_card", "1",
     "true or false"),
    ("number for a name", "name = 3\n", "name", "3", "string"),
    ("a line break in a name", 'name = "a\\nb"\n', "name", '"a\\u000ab"',
     "none of them a control character"),
    ("a name too long", 'name = "' + "n" * 101 + '"\n', "name", "", "1 to 100 characters"),
    ("a date for a number", "[deck]\njokers = 1979-05-27\n", "[deck] jokers", "1979-05-27",
     "whole number"),
    ("a quoted unknown key", '[scoring]\n"row points" = 1\n', '[scoring] "row points"', "1",
     "did you mean 'row_points'"),
    ("a line break in a key", '[automatic_wins]\n"dra\\ngon" = 1\n',
     '[automatic_wins] "dra\\u000agon"', "1", "did you mean 'dragon'"),
    ("short row points", "[scoring]\nrow_points = [1, 1]\n", "[scoring] row_points",
     "[1, 1]", "list of 3"),
    ("seats not a list", "[deal]\nseats = 4\n", "[deal] seats", "4", "list of seat counts"),
    ("section not a table", "deck = 3\n", "deck", "3", "must be a table"),
    ("negative units", "[scoring]\nscoop_units = -1\n", "[scoring] scoop_units", "-1",
     "must be from 0 to 1000"),
    ("negative royalty", "[royalties]\nback.quads = -2\n", "[royalties] back.quads", "-2",
     "must be from 1 to 1000"),
    ("automatic win of no units", "[automatic_wins]\ndragon = 0\n",
     "[automatic_wins] dragon", "0", "must be from 1 to 1000"),
    ("negative penalty", "[fouls]\nrule = 'penalty'\npenalty = -4\n", "[fouls] penalty",
     "-4", "must be from 0 to 1000"),
    ("too few cards", "[deal]\ncards = 12\n", "[deal] cards", "12", "from 13 to 17"),
    ("too many cards", "[deal]\ncards = 18\n", "[deal] cards", "18", "from 13 to 17"),
    ("one seat", "[deal]\nseats = [1, 2]\n", "[deal] seats", "[1, 2]",
     "a seat count must be from 2 to 5, not 1"),
    ("six seats", "[deal]\nseats = [6]\n", "[deal] seats", "[6]",
     "a seat count must be from 2 to 5, not 6"),
    ("a seat count twice", "[deal]\nseats = [2, 2]\n", "[deal] seats", "[2, 2]", "twice"),
    ("four jokers", "[deck]\njokers = 4\n", "[deck] jokers", "4", "from 0 to 3"),
    ("negative jokers", "[deck]\njokers = -1\n", "[deck] jokers", "-1", "from 0 to 3"),
    ("no multiplier", "[scoring]\nshot_multiplier = 0\n", "[scoring] shot_multiplier", "0",
     "must be from 1 to 10"),
    ("deck too small for 17 cards", "[deal]\ncards = 17\nseats = [4]\n", "[deal] seats",
     "[4]", "need 68 cards; the deck has 52"),
    ("five seats in 52 cards", "[deal]\nseats = [5]\n", "[deal] seats", "[5]",
     "need 65 cards; the deck has 52"),
    ("the cut card does not fit", "[deck]\nextra_spades = true\ncut_card = true\n"
     "[deal]\ncards = 16\nseats = [2, 4, 5]\n", "[deal] seats", "[2, 4, 5]",
     "and the cut card need 81"),
    ("penalty rule without a penalty", "[fouls]\nrule = 'penalty'\n", "[fouls] penalty",
     "0", 'needs a penalty'),
    ("penalty where a foul cannot be played", "[fouls]\nrule = 'not_allowed'\npenalty = 4\n",
     "[fouls] penalty", "4", "cannot be played pays no penalty"),
    ("a home run that never happens", "[deal]\nseats = [2, 3]\n[scoring]\n"
     "home_run_units = 3\nhome_run_min_seats = 4\n", "[scoring] home_run_min_seats", "4",
     "never happens"),
    ("a home run paying less than a shot",
     "[scoring]\nshot_multiplier = 2\nhome_run_multiplier = 1\n",
     "[scoring] home_run_multiplier", "1", "a home run would pay less than a shot"),
    ("a home run at four paying less than a shot", "[deal]\nseats = [2, 3, 4]\n"
     "[scoring]\nshot_multiplier = 3\nhome_run_multiplier = 2\nhome_run_min_seats = 4\n",
     "[scoring] home_run_multiplier", "2", "a shot (shot_multiplier = 3"),
    ("a Front straight", "[royalties]\nfront.straight = 2\n", "[royalties] front.straight",
     "2", "a Front of 3 cards is never straight"),
    ("joker trips in the Back", "[royalties]\nback.joker_trips = 2\n",
     "[royalties] back.joker_trips", "2", "never joker_trips"),
    # Royalties by rank (docs/rules.md#royalties-by-rank).
    ("an unknown rank", "[royalties]\nfront.pair = { 6 = 1, X = 2 }\n",
     "[royalties] front.pair.X", "2", "unknown rank"),
    ("a rank twice", "[royalties]\nfront.pair = { T = 5, 10 = 5 }\n",
     "[royalties] front.pair.10", "5", "rank T given twice"),
    ("a negative royalty by rank", "[royalties]\nmiddle.trips = { A = -1 }\n",
     "[royalties] middle.trips.A", "-1", "must be from 1 to 1000"),
    ("a fraction by rank", "[royalties]\nmiddle.trips = { A = 1.5 }\n",
     "[royalties] middle.trips.A", "1.5", "whole number"),
    ("joker trips by rank", "[deck]\njokers = 3\nextra_spades = true\n[royalties]\n"
     "front.joker_trips = { A = 5 }\n", "[royalties] front.joker_trips", None, "no rank"),
    ("a Front straight by rank", "[royalties]\nfront.straight = { A = 5 }\n",
     "[royalties] front.straight", None, "never straight"),
    ("a Front falling by rank", "[royalties]\nfront.pair = { 6 = 1, 7 = 2, 8 = 1 }\n",
     "[royalties] front.pair", "{6 = 1, 7 = 2, 8 = 1}",
     "a stronger Front would earn less: a pair of 8s 2, a pair of 7s 3"),
    ("Front trips by rank below the pairs", "[royalties]\nfront.pair = { A = 9 }\n"
     "front.trips = { 2 = 3, A = 22 }\n", "[royalties] front.trips", None,
     "a stronger Front would earn less: trips of 2s 4, a pair of aces 10"),
    ("a royalty by rank below the points it replaces",
     "[scoring]\nrow_points = [1, 2, 1]\n[royalties]\nmode = 'replace'\n"
     "middle.straight_flush = { 5 = 1, A = 4 }\n", "[royalties] middle.straight_flush", None,
     "worth less than the row points it replaces: 1, where the row scores 2"),
    # A table of one seat count (docs/rule-files.md#scoring-by-table-size).
    ("a table size the rule set does not deal", "[deal]\nseats = [2, 3]\n"
     "[at_4_seats.scoring]\nscoop_units = 3\n", "at_4_seats", None,
     "deals to 2 or 3 seats, not 4"),
    ("a deck at one table size", "[at_4_seats.deck]\njokers = 2\n", "[at_4_seats.deck]",
     None, "only scoring, royalties, fouls, automatic_wins can change"),
    ("a misspelt key at one table size", "[at_4_seats.scoring]\nscoop_unit = 3\n",
     "[at_4_seats.scoring] scoop_unit", "3", "did you mean 'scoop_units'"),
    ("a bad value at one table size", "[at_2_seats.scoring]\nshot_multiplier = 0\n",
     "[at_2_seats.scoring] shot_multiplier", "0", "must be from 1 to 10"),
    ("a bad combination at one table size", "[at_3_seats.fouls]\nrule = 'penalty'\n",
     "[at_3_seats.fouls] penalty", "0", "needs a penalty"),
    ("a home run paying less than a shot at one table size",
     "[at_4_seats.scoring]\nshot_multiplier = 2\nhome_run_multiplier = 1\n",
     "[at_4_seats.scoring] home_run_multiplier", "1", "a home run would pay less than a shot"),
    ("an automatic win at one table size only", "[automatic_wins]\ndragon = 13\n"
     "[at_2_seats.automatic_wins]\nsix_pairs = 3\n", "[at_2_seats.automatic_wins]", None,
     "the same at every table size"),
    ("a negative loss cap", "[scoring]\nloss_cap_per_deal = -5\n",
     "[scoring] loss_cap_per_deal", "-5", "must be from 0 to 1000"),
    ("a loss cap too large", "[scoring]\nloss_cap_per_pair = 1001\n",
     "[scoring] loss_cap_per_pair", "1001", "must be from 0 to 1000"),
    ("a royalty of 0 by rank", "[royalties]\nfront.pair = { 6 = 0, 7 = 2 }\n",
     "[royalties] front.pair.6", "0", "must be from 1 to 1000; a rank left out has no royalty"),
    ("a loss cap per deal that the search cannot prune by",
     "[scoring]\nloss_cap_per_deal = 30\nhome_run_units = 3\n[royalties]\npaid = 'row_made'\n"
     "back.quads = 4\n", "[scoring] loss_cap_per_deal", "30",
     "royalties paid whenever made and home runs that change the units"),
]


@pytest.mark.parametrize("text, key, value, reason", [b[1:] for b in BAD_FILES],
                         ids=[b[0] for b in BAD_FILES])
def test_a_bad_file_is_one_line_naming_file_key_value_and_reason(text, key, value, reason,
                                                                 tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as caught:
        rule_set(str(path))
    message = str(caught.value)
    assert isinstance(caught.value, RuleFileError) and "\n" not in message
    assert message.startswith(f"{path}: {key}" + (f" = {value}" if value else "")), message
    assert reason in message
    # The same tables (where the text is valid TOML) fail alike.
    if key != "invalid TOML":
        import tomllib
        with pytest.raises(RuleFileError, match=reason.replace("[", r"\[")
                           .replace("(", r"\(").replace("?", r"\?")):
            RuleSet.from_dict({"name": "house", **tomllib.loads(text)})


def test_a_missing_or_unreadable_file_is_one_line(tmp_path):
    with pytest.raises(ValueError, match=r"nowhere\.toml: no such rule-set file"):
        rule_set(str(tmp_path / "nowhere.toml"))
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="cannot read the rule-set file"):
        rule_set(tmp_path / "binary.toml")


def test_a_bad_file_leaves_nothing_loaded(tmp_path):
    path = tmp_path / "classic.toml"
    path.write_text(CLASSIC.replace("penalty = 4", "penalty = 0"))
    before = dict(rules._REGISTRY)
    with pytest.raises(ValueError, match="needs a penalty"):
        rule_set(path)
    assert rules._REGISTRY == before and rule_set("classic").foul_penalty == 4


def test_a_foul_that_loses_every_row_and_pays_is_written_as_both():
    both = dataclasses.replace(rule_set("pagat"), name="both", foul_penalty=2)
    text = both.to_toml()
    assert 'rule = "loses_rows"\npenalty = 2\n' in text
    assert RuleSet.from_toml(text) == both


def test_a_rule_set_that_no_file_can_say_is_refused_when_written():
    # A table size without the strengths the file gives: an [at_N_seats] table can
    # change a strength, not take them all away.
    ranked = rule_set("shisanshui")
    dropped = dataclasses.replace(ranked, name="dropped",
                                  seat_scoring={2: {"automatic_win_strength": {}}})
    assert dropped.at_seats(2).automatic_win_strength == {}
    with pytest.raises(ValueError, match="other automatic-win strengths at 2 seats"):
        dropped.to_toml()


def test_a_home_run_multiplies_as_a_shot_unless_the_file_says_more(tmp_path):
    """Unsaid, a home run multiplies as a shot does; the file refuses one paying less (the
    table of bad files).  A RuleSet made in Python may hold it (it settles as its fields
    say), but no file can say it and the solver refuses it."""
    path = tmp_path / "house.toml"
    path.write_text("[deal]\nseats = [2, 3]\n[scoring]\nshot_multiplier = 2\n")
    assert rule_set(path).home_run_multiplier == 2      # (unsaid, as a shot)
    shrinking = dataclasses.replace(rule_set(path), home_run_multiplier=1)
    with pytest.raises(ValueError, match="multiplying less than a shot; a rule-set file"):
        shrinking.to_toml()
    with pytest.raises(ValueError, match="a home run multiplies less than a shot"):
        solver.solve("As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c", shrinking, players=2,
                     samples=10)


# --- the three house rule sets, shipped beside the six (docs/rules.md#house-rule-sets) ---

# The regional games, shipped beside them (their fields: tests/test_regional_games.py).
REGIONAL_GAMES = ("mau-binh", "capsa-susun", "pusoy")
HOUSE_COMMON = dict(spade_copies=1, cut_card=False, cards_dealt=13, seats=(2, 3, 4),
                    deal_all_unseen=True, row_points=(1, 1, 1), scoop="all_rows_won",
                    front_trips_points=0, majority_bonus=0, home_run_units=0,
                    foul_loses_rows=True, foul_penalty=0)
# shisanshui's special hands: the units of the common 十三水 table, and strengths in its
# order, strongest first (docs/rules.md#special-hands), so three flushes beat three
# straights though both are worth 3.
SHISANSHUI_TABLE = (("suited_dragon", 108), ("dragon", 36), ("twelve_royals", 24),
                    ("three_straight_flushes", 22), ("three_quads", 20), ("all_big", 15),
                    ("all_small", 12), ("all_one_colour", 10), ("four_trips", 6),
                    ("five_pairs_and_trips", 5), ("six_pairs", 4), ("three_flushes", 3),
                    ("three_straights", 3))
HOUSE_RULE_SETS = {
    "classic-1-6": RuleSet(name="classic-1-6", jokers=0, scoop_units=3, **HOUSE_COMMON),
    "two-jokers": RuleSet(
        name="two-jokers", jokers=2, scoop_units=3, bonus_mode="add", bonus_paid="row_won",
        row_bonus=_bonus_table({
            ("front", "trips"): 3, ("front", "joker_trips"): 3,
            ("middle", "full_house"): 2, ("middle", "quads"): 8,
            ("middle", "straight_flush"): 10, ("middle", "joker_five"): 15,
            ("back", "quads"): 4, ("back", "straight_flush"): 5, ("back", "joker_five"): 7,
        }), **HOUSE_COMMON),
    "shisanshui": RuleSet(
        name="shisanshui", jokers=0, scoop_units=0, shot_multiplier=2,
        home_run_multiplier=4, home_run_min_seats=4, bonus_mode="replace",
        bonus_paid="row_won", bonus_multiplied=True,
        row_bonus=_bonus_table({
            ("front", "trips"): 3, ("middle", "full_house"): 2, ("middle", "quads"): 8,
            ("middle", "straight_flush"): 10, ("back", "quads"): 4,
            ("back", "straight_flush"): 5,
        }),
        automatic_wins=MappingProxyType(dict(SHISANSHUI_TABLE)),
        automatic_wins_declared=True,
        automatic_win_strength=MappingProxyType(
            {name: len(SHISANSHUI_TABLE) - i for i, (name, _) in enumerate(SHISANSHUI_TABLE)}),
        **HOUSE_COMMON),
}


@pytest.mark.parametrize("name", sorted(HOUSE_RULE_SETS))
def test_the_house_rule_sets_are_shipped_files_with_their_fields(name):
    path = rules.RULES_DIR / f"{name}.toml"
    loaded = rule_set(path)
    assert fields(loaded) == fields(HOUSE_RULE_SETS[name])
    assert rule_set(name) == loaded and builtin_name(loaded) == name
    assert cache_name(loaded) == name
    assert loaded.scheme == rules.SCHEME_GENERAL
    assert path.read_text(encoding="utf-8").startswith(f"# {name}")     # says what it is


def test_shisanshui_plays_every_special_hand_declared_by_the_tables_order():
    rs = rule_set("shisanshui")
    # Every special of the catalogue but the regional games' (Mậu Binh's twelve of one
    # colour is no 十三水 hand).
    assert set(rs.automatic_wins) == set(AUTOMATIC_WINS) - {"twelve_one_colour"}
    assert rs.automatic_wins_declared
    assert rs.automatic_win_order() == tuple(name for name, _ in SHISANSHUI_TABLE)
    strength = rs.automatic_win_strengths()
    assert strength["three_flushes"] > strength["three_straights"]
    assert rs.automatic_wins["three_flushes"] == rs.automatic_wins["three_straights"] == 3


def test_every_field_of_a_rule_set_has_its_key_in_the_file_format():
    # A field added to RuleSet needs a key: an entry in solver.rule_file.KEYS (with its
    # range, for a number) and in solver.rules.FIELD_KEYS, a line in
    # solver.rules._rule_set_from_dict and _rule_set_to_dict, and docs/rule-files.md's
    # tables (tests/test_rule_file_docs.py); then add it here.
    keyed = {"name", "spade_copies", "jokers", "cut_card", "cards_dealt", "seats",
             "deal_all_unseen", "row_points", "front_trips_points", "majority_bonus",
             "scoop", "scoop_units", "shot_multiplier", "home_run_units",
             "home_run_multiplier", "home_run_min_seats", "row_bonus", "bonus_mode",
             "bonus_paid", "bonus_multiplied", "foul_penalty", "foul_loses_rows",
             "automatic_wins", "automatic_wins_declared", "automatic_win_strength",
             "automatic_wins_wild", "surrender_cost",
             "majority_multiplied", "scoop_multiplied", "loss_cap_per_pair",
             "loss_cap_per_deal", "row_bonus_by_rank", "seat_scoring"}
    assert {f.name for f in dataclasses.fields(RuleSet)} == keyed
    # ... and each non-default value of each survives a round trip (random files above).
    base = rule_set("classic:mandarin")
    for name, value in [("deal_all_unseen", False), ("seats", (2, 4)),
                        ("bonus_paid", "row_made"), ("bonus_multiplied", True),
                        ("scoop", "no_row_lost"), ("home_run_units", 2),
                        ("automatic_wins_declared", False), ("surrender_cost", 2),
                        ("automatic_win_strength", {"dragon": 2, "six_pairs": 1,
                                                    "three_flushes": 1, "three_straights": 1}),
                        ("majority_multiplied", True), ("scoop_multiplied", True),
                        ("loss_cap_per_pair", 12), ("loss_cap_per_deal", 30),
                        ("row_bonus_by_rank", {"back.straight": (0,) * 12 + (6,)}),
                        ("seat_scoring", {4: {"shot_multiplier": 4, "home_run_multiplier": 6},
                                          2: {"row_bonus_by_rank": {
                                              "back.flush": (0,) * 4 + tuple(range(1, 10))}}})]:
        changed = dataclasses.replace(base, **{name: value})
        assert RuleSet.from_toml(changed.to_toml()) == changed, name


# --- every key: its section, its range, the file's names ------------------------------------
def _example(key) -> object:
    """A value of the key's type, for putting it where it does not belong."""
    return {"boolean": True, "string": "x"}.get(key.type, 1 if key.bounds else "add")


WRONG_PLACES = [(k, elsewhere) for k in KEYS if not k.name.isupper() and "." not in k.name
                for elsewhere in ["", *rules.SECTIONS] if elsewhere != k.section]


@pytest.mark.parametrize("key, elsewhere", WRONG_PLACES,
                         ids=[f"{k.path}-in-{e or 'top'}" for k, e in WRONG_PLACES])
def test_a_key_in_the_wrong_section_is_refused_with_the_section_it_belongs_in(key, elsewhere):
    value = _example(key)
    data = {"name": "x", key.name: value} if not elsewhere else \
        {"name": "x", elsewhere: {key.name: value}}
    with pytest.raises(RuleFileError) as caught:
        RuleSet.from_dict(data)
    home = f"in [{key.section}]" if key.section else "at the top of the file"
    where = f"[{elsewhere}] {key.name}" if elsewhere else key.name
    assert str(caught.value).startswith(f"{where} = ") and home in str(caught.value)


@pytest.mark.parametrize("tables, where, home", [
    ({"deck": {"front": {"trips": 3}}}, "[deck] front", "[royalties]"),
    ({"scoring": {"dragon": 13}}, "[scoring] dragon", "[automatic_wins]"),
    ({"fouls": {"strength": {"dragon": 1}}}, "[fouls] strength", "[automatic_wins]"),
    ({"automatic_wins": {"mode": "add"}}, "[automatic_wins] mode", "[royalties]"),
    ({"royalties": {"trips": 3}}, "[royalties] trips", "front.trips, middle.trips"),
    ({"deal": {"scoring": {"scoop_units": 1}}}, "[deal] scoring", "[scoring] is a section"),
])
def test_tables_of_names_in_the_wrong_section_are_refused_with_their_home(tables, where, home):
    with pytest.raises(RuleFileError) as caught:
        RuleSet.from_dict({"name": "x", **tables})
    assert str(caught.value).startswith(where) and home in str(caught.value)


def _set(data: dict, key, value) -> dict:
    """``data`` with ``key`` (a KEYS entry; a table's entry: its first name) at ``value``."""
    data = {s: dict(t) if isinstance(t, dict) else t for s, t in data.items()}
    table = data.setdefault(key.section, {})
    if key.name == "ROW.CATEGORY":
        table["back"] = {"quads": value}
    elif key.name == "ROW.CATEGORY.RANK":
        table["back"] = {"quads": {"A": value}}
    elif key.name == "NAME":
        table["dragon"] = value
    elif key.name == "strength.NAME":
        table.update(dragon=13, strength={"dragon": value})
    elif key.name in ("row_points", "seats"):
        table[key.name] = [value] * (3 if key.name == "row_points" else 1)
    else:
        table[key.name] = value
    if key.path == "fouls.penalty" and value:
        table["rule"] = "penalty"
    if key.path == "scoring.home_run_min_seats":
        data["deal"] = {"seats": [2, 3, 4, 5]}
    if key.section == "automatic_wins":          # (the plain pack only)
        data["deck"] = {}
    return data


RANGED = [k for k in KEYS if k.bounds]


@pytest.mark.parametrize("key", RANGED, ids=lambda k: k.path)
def test_every_number_outside_its_range_is_one_line_naming_file_key_value_and_range(
        key, tmp_path):
    """The range is the layout's (KEYS: one place, the reference page's value column);
    each end loads where the rest of the file allows it, one past it never does, nor a
    number far beyond (3,000,000,000, which once overflowed) or beyond 64 bits."""
    low, high = key.bounds
    base = {"name": "x", "deck": {"extra_spades": True}, "deal": {"seats": [2, 3]},
            "scoring": {"home_run_multiplier": 10}}
    for end in (low, high):
        RuleSet.from_dict(_set(base, key, end))
    path = tmp_path / "house.toml"
    for value in (low - 1, high + 1, 3_000_000_000, 2 ** 64):
        path.write_text(write_toml((), _set(base, key, value)))
        with pytest.raises(RuleFileError) as caught:
            rule_set(path)
        message = str(caught.value)
        assert "\n" not in message and message.startswith(f"{path}: [{key.section}] ")
        assert f"from {low} to {high}" in message and str(value) in message


@pytest.mark.parametrize("mode", ["add", "replace"])
def test_a_royalty_of_0_is_refused_not_dropped(mode):
    """Kept, a royalty of 0 would be the same as none where royalties add, and where they
    replace the row's points a won row scoring 0, less than a weaker row: a file the
    solver could not search (docs/rule-files.md#a-royalty-of-0).  So it is refused, and
    a file's royalties come back from rules show as they were written."""
    tables = {"name": "x", "royalties": {"mode": mode, "middle": {"pair": 0, "trips": 2}}}
    with pytest.raises(RuleFileError, match=r"^\[royalties\] middle\.pair = 0: must be from 1 "
                                            r"to 1000; a category left out has no royalty"):
        RuleSet.from_dict(tables)
    del tables["royalties"]["middle"]["pair"]
    rs = RuleSet.from_dict(tables)
    assert RuleSet.from_toml(rs.to_toml()).to_dict()["royalties"]["middle"] == {"trips": 2}


# The RuleSet's field names that are not the file's: never in a message about a file.
INTERNAL_NAMES = ("spade_copies", "cards_dealt", "row_bonus", "bonus_mode", "bonus_paid",
                  "bonus_multiplied", "foul_penalty", "foul_loses_rows",
                  "automatic_wins_declared", "automatic_win_strength", "deal.", "deck.",
                  "scoring.", "royalties.", "fouls.", "automatic_wins.")
BAD_VALUES = [None, -1, 0, 1, 5, 18, 10 ** 20, 2.5, True, "x", "", [], [6], [1, 2, 3, 4],
              [[1]], {}, {"a": 1}, {"trips": 0}, {"dragon": 1}]


@pytest.mark.parametrize("seed", range(6))
def test_any_bad_value_anywhere_is_one_rule_file_error_in_the_files_words(seed):
    """Random files with one key (or a table's name) set to a random wrong value: a
    RuleFileError (no other exception) whose line names keys as the file does, never a
    RuleSet field; the RuleSet's own checks, after the loader's, are never what speaks."""
    rng = random.Random(seed)
    places = ([(k.section, k.name) for k in KEYS if not k.name.isupper() and "." not in k.name]
              + [("royalties", "front"), ("royalties", "back"), ("automatic_wins", "dragon"),
                 ("automatic_wins", "strength"), ("", "deck"), ("", "automatic_wins")])
    for _ in range(150):
        d = solvable_rule_dict(rng)
        section, name = rng.choice(places)
        value = rng.choice(BAD_VALUES)
        if section:
            if not isinstance(d.get(section), dict):
                d[section] = {}
            d[section][name] = value
        else:
            d[name] = value
        try:
            RuleSet.from_dict(d)
        except RuleFileError as e:
            assert "\n" not in str(e) and not any(n in str(e) for n in INTERNAL_NAMES), str(e)


def test_a_key_name_is_in_one_section_only():
    """A key's name tells its section (a key in the wrong one is told its home): a name
    in two sections would need another message."""
    names = [k.name for k in KEYS if not k.name.isupper() and "." not in k.name]
    assert len(names) == len(set(names))


def test_every_field_has_the_file_key_that_sets_it():
    """rules.FIELD_KEYS, the map messages use to say a field in the file's words, names
    every RuleSet field and, for each, a key of the layout (or the table of names)."""
    assert set(rules.FIELD_KEYS) == {f.name for f in dataclasses.fields(RuleSet)}
    paths = {k.path for k in KEYS} | {"royalties", "automatic_wins", "automatic_wins.strength"}
    assert set(rules.FIELD_KEYS.values()) <= paths


@pytest.mark.parametrize("tables, said", [
    ({"deck": {"jokers": 5}}, "jokers must be 0..3, not 5"),        # (the file's name)
    ({"deal": {"cards": 12}}, "[deal] cards must be 13..17, not 12"),
    ({"deal": {"seats": [9]}}, "seats must be counts out of (2, 3, 4, 5), not (9,)"),
])
def test_a_check_left_to_rule_set_still_speaks_in_the_files_words(tables, said, monkeypatch):
    """Every rule RuleSet checks, the loader checks first in the file's words; were one
    left to RuleSet (the loader's checks of ranges and seats skipped here), the one line
    still names the file's keys, never RuleSet's fields (cards_dealt)."""
    monkeypatch.setattr(rules._FileReader, "_in_range", lambda *a: None)
    monkeypatch.setattr(rules, "bounds", lambda section, key: (-10 ** 9, 10 ** 9))
    monkeypatch.setattr(rules._FileReader, "seats", lambda self, *a: tuple(
        self.raw("deal", "seats", [2, 3, 4])))
    with pytest.raises(RuleFileError) as caught:
        RuleSet.from_dict({"name": "x", **tables})
    assert str(caught.value) == said
