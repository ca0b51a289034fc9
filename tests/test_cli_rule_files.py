"""Rule-set files through the front ends: ``--rules FILE`` wherever ``--rules NAME``
works, ``python3 -m solver rules list|show``, and the caches of what is derived from a
rule set (pool, shipped model and field), which a file shares with a built-in exactly
when its rules are the built-in's."""
import tomllib

import pytest

import solver
from solver import __main__ as cli
from solver import _cli, arena
from solver.model import model_file
from solver.policy import field_name
from solver.pool import pool_dir
from solver.rules import RULE_SET_NAMES, RuleSet, rule_set


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def restated(tmp_path):
    """classic's rules in a file under another name."""
    path = tmp_path / "our-table.toml"
    path.write_text(rule_set("classic").to_toml().replace('name = "classic"',
                                                          'name = "our table"'))
    return path


@pytest.fixture
def changed(tmp_path):
    """A file called classic whose rules are not classic's."""
    path = tmp_path / "classic.toml"
    path.write_text(rule_set("classic").to_toml().replace("majority_bonus = 1",
                                                          "majority_bonus = 2"))
    return path


def test_rules_list_names_every_rule_set_with_its_summary(capsys):
    code, out, err = run(capsys, "rules", "list")
    assert code == 0 and not err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(RULE_SET_NAMES)
    for name, line in zip(RULE_SET_NAMES, lines):
        assert rule_set(name).summary() in line
    assert "classic:western" in out and "(the same as classic)" in out


@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_rules_show_prints_a_file_that_loads_as_the_rule_set(capsys, name):
    code, out, err = run(capsys, "rules", "show", name)
    assert code == 0 and not err and out.startswith("# ")
    assert RuleSet.from_dict(tomllib.loads(out)) == rule_set(name)


def test_rules_show_of_a_file_fills_in_its_defaults(capsys, tmp_path):
    path = tmp_path / "short.toml"
    path.write_text("[scoring]\nscoop_units = 3\n")
    code, out, _ = run(capsys, "rules", "show", path)
    assert code == 0
    assert 'name = "short"' in out and "scoop_units = 3" in out and "cards = 13" in out
    assert RuleSet.from_dict(tomllib.loads(out)) == rule_set(path)


@pytest.mark.parametrize("argv, message", [
    (["rules", "show"], "rules show needs a rule set"),
    (["rules", "list", "classic"], "rules list takes no rule set"),
    (["rules", "show", "nowhere.toml"], "nowhere.toml: no such rule-set file"),
    (["rules", "show", "poker"], "unknown rule set 'poker'"),
])
def test_rules_command_errors_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_bad_rules_file_is_one_line_in_every_command(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[scoring]\nmajority = 1\n")
    for argv in (["eval", "As Ks Qs", "--rules", path],
                 ["settle", "2s 2h Ad / 7c 7d 9s 5h 3d / Tc Jc Qc Kc Ac",
                  "3s 3h 4d / 6c 6d 8s 5c 2d / 9c 9d Th Ts As", "--rules", path],
                 ["deal", "--rules", path],
                 ["solve", "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d", "--rules", path],
                 ["review", "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d", "--setting",
                  "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "--rules", path]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and not out, argv
        assert err == (f"python3 -m solver: error: {path}: [scoring] majority = 1: unknown key "
                       "(did you mean 'majority_bonus'?)\n"), argv


def test_eval_and_deal_take_a_rules_file(capsys, restated):
    code, out, _ = run(capsys, "eval", "As Ks Qs", "--rules", restated, "--json")
    assert code == 0 and '"category": "high_card"' in out
    code, out, _ = run(capsys, "deal", "--rules", restated, "--seed", "3")
    assert code == 0 and out.startswith("our table deal, seed 3: 4 players, 13 cards each")
    assert f"--rules {restated}" in out          # the command to solve it names the file
    assert out.replace("our table", "classic").replace(str(restated), "classic") == run(
        capsys, "deal", "--rules", "classic", "--seed", "3")[1]


def test_settle_takes_a_rules_file(capsys, restated):
    seats = ["2s 2h Ad / 7c 7d 9s 5h 3d / Tc Jc Qc Kc Ac",
             "3s 3h 4d / 6c 6d 8s 5c 2d / 9c 9d Th Ts As"]
    code, out, _ = run(capsys, "settle", *seats, "--rules", restated, "--json")
    assert code == 0 and out == run(capsys, "settle", *seats, "--rules", "classic", "--json")[1]


def test_every_rules_option_says_it_takes_a_file(capsys):
    helps = []
    for parser in list(_cli.subparsers(cli._parser()).values()):
        helps += [a.help for a in parser._actions if "--rules" in a.option_strings]
    assert len(helps) == 7 and all("rule-set file" in h for h in helps)
    for command in ("match", "exploitability"):
        assert arena.main([command, "--help"]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "--rules NAME|FILE rule set: a name or a rule-set file" in out


def test_the_arena_plays_a_file_that_no_registry_holds(restated):
    # Each chunk of deals is handed the rule set itself (a file's name is in no registry).
    result = arena.match("sbf", "sbf", restated, players=2, deals=2)
    assert result.rules == "our table" and result.mean == 0


def test_caches_follow_the_rules_not_the_name(restated, changed):
    classic, ours, other = rule_set("classic"), rule_set(restated), rule_set(changed)
    assert ours.name == "our table" and other.name == "classic"
    # The same rules under another name: the built-in's shipped model, field and pool.
    from solver.model import shipped_twin
    assert shipped_twin(ours, 0) == classic and shipped_twin(classic, 0) == classic
    assert model_file(classic, 0).name == "model-classic-any-seats.npz"
    assert field_name(ours, 4) == field_name(classic, 4) == "field-classic-4seats.npy"
    assert pool_dir(ours, 4) == pool_dir(classic, 4)
    # Other rules under a built-in's name: none of the built-in's.
    assert shipped_twin(other, 0) is None
    assert field_name(other, 4) != field_name(classic, 4)
    assert pool_dir(other, 4) != pool_dir(classic, 4)
    assert other.digest in pool_dir(other, 4).name


def test_review_explains_under_a_rules_file(capsys, restated):
    argv = ["review", "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d", "--setting",
            "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "--samples", "40", "--quiet"]
    code, ours, _ = run(capsys, *argv, "--rules", restated)
    assert code == 0 and "our table" in ours
    assert ours.replace("our table", "classic") == run(capsys, *argv, "--rules", "classic")[1]
