"""Rule-set files (docs/rule-files.md): the shipped rule sets are files that load as the
Python definitions they replaced, a file and what it writes load as the same rule set,
and a bad file is one clear error."""
import dataclasses
import random
from types import MappingProxyType

import pytest

import solver
from solver import rules
from solver.rule_file import KEYS, RuleFileError
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
    if not extra_spades and not jokers and cards == 13:     # (specials' only deal)
        wins = {n: rng.randint(1, 13) for n in rng.sample(AUTOMATIC_WINS, rng.randint(0, 6))}
        if wins and rng.random() < 0.5:
            wins["strength"] = {n: rng.randint(1, 4) for n in wins}
        if rng.random() < 0.5:
            wins["declared"] = rng.random() < 0.5
        d["automatic_wins"] = wins
    for row in ROWS:
        if rng.random() < 0.6:
            makeable = (FRONT_CATEGORIES if row == "front"
                        else [c for c in CATEGORIES if c != "joker_trips"])
            d["royalties"][row] = {c: rng.randint(0, 10)
                                   for c in rng.sample(makeable, rng.randint(1, 4))}
    for section in ("scoring", "royalties"):       # some keys left to their default
        for key in list(d[section]):
            if rng.random() < 0.2:
                del d[section][key]
    scoring = d["scoring"]          # a home run, where one can happen, pays at least a shot
    shot = scoring.get("shot_multiplier", 1)
    if (scoring.get("home_run_multiplier", 1) < shot
            and scoring.get("home_run_min_seats", 2) <= max(seats)):
        scoring["home_run_multiplier"] = shot + rng.randint(0, 1)
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


# --- bad files: one line naming the file, the key, the value and the reason ------------

CLASSIC = rule_set("classic").to_toml()
BAD_FILES = [
    # (id, the file's text, the key named, the value shown, words of the reason)
    ("invalid TOML", "name = 'x'\n[deck\njokers = 1\n", "invalid TOML", None, "line 2"),
    ("unknown top-level key", "nmae = 'x'\n", "nmae", '"x"', "did you mean 'name'"),
    ("key outside its section", "jokers = 2\n", "jokers", "2", "belongs in [deck]"),
    ("unknown section", "[scorring]\nscoop_units = 1\n", "scorring", None,
     "did you mean 'scoring'"),
    ("unknown key in a section", "[scoring]\nmajority = 1\n", "scoring.majority", "1",
     "did you mean 'majority_bonus'"),
    ("unknown category", "[royalties]\nfront.trip = 3\n", "royalties.front.trip", "3",
     "did you mean 'trips'"),
    ("unknown automatic win", "[automatic_wins]\ndragons = 13\n",
     "automatic_wins.dragons", "13", "did you mean 'dragon'"),
    ("unknown choice", "[scoring]\nscoop = 'all_rows'\n", "scoring.scoop", '"all_rows"',
     "did you mean 'all_rows_won'"),
    ("string for a number", "[deck]\njokers = 'two'\n", "deck.jokers", '"two"',
     "whole number"),
    ("fraction for a number", "[deal]\ncards = 13.5\n", "deal.cards", "13.5",
     "whole number"),
    ("boolean for a number", "[scoring]\nscoop_units = true\n", "scoring.scoop_units",
     "true", "whole number"),
    ("number for a boolean", "[deck]\ncut_card = 1\n", "deck.cut_card", "1",
     "true or false"),
    ("number for a name", "name = 3\n", "name", "3", "string"),
    ("short row points", "[scoring]\nrow_points = [1, 1]\n", "scoring.row_points",
     "[1, 1]", "list of 3"),
    ("seats not a list", "[deal]\nseats = 4\n", "deal.seats", "4", "list of seat counts"),
    ("section not a table", "deck = 3\n", "deck", "3", "must be a table"),
    ("negative units", "[scoring]\nscoop_units = -1\n", "scoring.scoop_units", "-1",
     "at least 0"),
    ("negative royalty", "[royalties]\nback.quads = -2\n", "royalties.back.quads", "-2",
     "at least 0"),
    ("automatic win of no units", "[automatic_wins]\ndragon = 0\n",
     "automatic_wins.dragon", "0", "at least 1"),
    ("negative penalty", "[fouls]\nrule = 'penalty'\npenalty = -4\n", "fouls.penalty",
     "-4", "at least 0"),
    ("too few cards", "[deal]\ncards = 12\n", "deal.cards", "12", "from 13 to 17"),
    ("too many cards", "[deal]\ncards = 18\n", "deal.cards", "18", "from 13 to 17"),
    ("one seat", "[deal]\nseats = [1, 2]\n", "deal.seats", "1", "from 2 to 5"),
    ("six seats", "[deal]\nseats = [6]\n", "deal.seats", "6", "from 2 to 5"),
    ("a seat count twice", "[deal]\nseats = [2, 2]\n", "deal.seats", "[2, 2]", "twice"),
    ("four jokers", "[deck]\njokers = 4\n", "deck.jokers", "4", "from 0 to 3"),
    ("negative jokers", "[deck]\njokers = -1\n", "deck.jokers", "-1", "from 0 to 3"),
    ("no multiplier", "[scoring]\nshot_multiplier = 0\n", "scoring.shot_multiplier", "0",
     "at least 1"),
    ("deck too small for 17 cards", "[deal]\ncards = 17\nseats = [4]\n", "deal.seats",
     "[4]", "need 68 cards; the deck has 52"),
    ("five seats in 52 cards", "[deal]\nseats = [5]\n", "deal.seats", "[5]",
     "need 65 cards; the deck has 52"),
    ("the cut card does not fit", "[deck]\nextra_spades = true\ncut_card = true\n"
     "[deal]\ncards = 16\nseats = [2, 4, 5]\n", "deal.seats", "[2, 4, 5]",
     "and the cut card need 81"),
    ("penalty rule without a penalty", "[fouls]\nrule = 'penalty'\n", "fouls.penalty",
     "0", 'needs a penalty'),
    ("penalty without the penalty rule", "[fouls]\nrule = 'loses_rows'\npenalty = 4\n",
     "fouls.penalty", "4", 'only with rule = "penalty"'),
    ("a home run that never happens", "[deal]\nseats = [2, 3]\n[scoring]\n"
     "home_run_units = 3\nhome_run_min_seats = 4\n", "scoring.home_run_min_seats", "4",
     "never happens"),
    ("a home run paying less than a shot",
     "[scoring]\nshot_multiplier = 2\nhome_run_multiplier = 1\n",
     "scoring.home_run_multiplier", "1", "a home run would pay less than a shot"),
    ("a home run at four paying less than a shot", "[deal]\nseats = [2, 3, 4]\n"
     "[scoring]\nshot_multiplier = 3\nhome_run_multiplier = 2\nhome_run_min_seats = 4\n",
     "scoring.home_run_multiplier", "2", "a shot (shot_multiplier = 3"),
    ("a Front straight", "[royalties]\nfront.straight = 2\n", "royalties.front.straight",
     "2", "a Front of 3 cards is never straight"),
    ("joker trips in the Back", "[royalties]\nback.joker_trips = 2\n",
     "royalties.back.joker_trips", "2", "never joker_trips"),
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


def test_a_rule_set_that_no_file_can_say_is_refused_when_written():
    both = dataclasses.replace(rule_set("pagat"), name="both", foul_penalty=2)
    with pytest.raises(ValueError, match="says one or the other"):
        both.to_toml()


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
    # A field added to RuleSet needs a key: an entry in solver.rule_file.KEYS, a line in
    # solver.rules._rule_set_from_dict and _rule_set_to_dict, and docs/rule-files.md's
    # table (tests/test_rule_file_docs.py); then add it here.
    keyed = {"name", "spade_copies", "jokers", "cut_card", "cards_dealt", "seats",
             "deal_all_unseen", "row_points", "front_trips_points", "majority_bonus",
             "scoop", "scoop_units", "shot_multiplier", "home_run_units",
             "home_run_multiplier", "home_run_min_seats", "row_bonus", "bonus_mode",
             "bonus_paid", "bonus_multiplied", "foul_penalty", "foul_loses_rows",
             "automatic_wins", "automatic_wins_declared", "automatic_win_strength"}
    assert {f.name for f in dataclasses.fields(RuleSet)} == keyed
    # ... and each non-default value of each survives a round trip (random files above).
    base = rule_set("classic:mandarin")
    for name, value in [("deal_all_unseen", False), ("seats", (2, 4)),
                        ("bonus_paid", "row_made"), ("bonus_multiplied", True),
                        ("scoop", "no_row_lost"), ("home_run_units", 2),
                        ("automatic_wins_declared", False),
                        ("automatic_win_strength", {"dragon": 2, "six_pairs": 1,
                                                    "three_flushes": 1, "three_straights": 1})]:
        changed = dataclasses.replace(base, **{name: value})
        assert RuleSet.from_toml(changed.to_toml()) == changed, name
