"""The arena: duplicate deals accounted exactly, checked settings, reproducible results."""
import json

import pytest

import naive
import solver
from solver import arena
from solver.arena import deal_hands, exploitability, match, setter


@pytest.mark.slow
def test_a_setter_against_itself_scores_zero_on_every_deal():
    for rules, players, layout in [("classic", 2, None), ("pagat", 3, None),
                                   ("classic", 4, "two-v-two"), ("joker", 4, None)]:
        result = match("model", "model", rules, players=players, deals=3, layout=layout)
        assert result.values == (0.0, 0.0, 0.0)


def test_heads_up_results_are_antisymmetric_and_reproducible():
    ab = match("model", "sbf", "classic", players=2, deals=8, seed=5)
    ba = match("sbf", "model", "classic", players=2, deals=8, seed=5)
    assert ab.values == tuple(-v for v in ba.values)
    assert match("model", "sbf", "classic", players=2, deals=8, seed=5).values == ab.values
    assert match("model", "sbf", "classic", players=2, deals=8, seed=6).values != ab.values


@pytest.mark.slow
def test_deal_results_match_an_independent_referee():
    """Each deal's value, recomputed with the slow reference settlement."""
    for rules, players, layout in [("classic", 2, "heads-up"), ("bonus", 4, "one-v-rest"),
                                   ("classic:mandarin", 4, "two-v-two")]:
        rs = solver.rule_set(rules)
        result = match("model", "sbf", rules, players=players, deals=2, seed=3, layout=layout)
        for index, got in enumerate(result.values):
            hands, cut = deal_hands(rs, players, 3, index)
            a = [setter("model").set(h, rs, cut, players, 0) for h in hands]
            b = [setter("sbf").set(h, rs, cut, players, 0) for h in hands]
            total = plays = 0
            for seats in arena._seating(layout, players):
                table = [a[s] if s in seats else b[s] for s in range(players)]
                declared = [s for s in range(players) if len(table[s]) == 4]
                if declared:                 # the reference does not model declarations
                    pytest.skip("an automatic win in the sample")
                cut_rank = None if cut is None else naive.parse(cut)[0][0]
                scores = naive.settle([tuple(t[:3]) for t in table], rules, cut_rank)
                total += sum(scores[s] for s in seats)
                plays += len(seats)
            assert got == pytest.approx(total / plays)


@pytest.mark.slow
def test_parallel_match_equals_serial():
    serial = match("model", "field", "classic", players=2, deals=12, seed=2)
    parallel = match("model", "field", "classic", players=2, deals=12, seed=2, workers=2)
    assert parallel.values == serial.values and parallel.mean == serial.mean


def _fouler(cards, rules, cut):
    names = cards.split()
    ranks = sorted(names[:13], key=lambda c: "23456789TJQKA".index(c[0]))
    return " ".join(ranks[10:]), " ".join(ranks[5:10]), " ".join(ranks[:5])  # strongest first


def test_fouls_are_counted_where_they_are_scored_and_refused_elsewhere():
    result = match(_fouler, "model", "classic", players=2, deals=4)
    assert result.fouls["a"] > 0 and result.fouls["b"] == 0
    assert result.mean < 0
    with pytest.raises(ValueError, match="does not allow a fouled arrangement"):
        match(_fouler, "model", "joker", deals=1)


def test_settings_must_be_the_hands_own_cards():
    with pytest.raises(ValueError, match="not in the hand"):
        match(lambda c, r, k: ("As Ks Qs", "Jh Th 9h 8h 7h", "2c 3c 4c 5c 6c"), "model",
              "classic", players=2, deals=1)
    with pytest.raises(ValueError, match="a setting is"):
        match(lambda c, r, k: None, "model", "classic", players=2, deals=1)


def _one_argument(cards):                  # not the setter signature
    return None


def _raises(cards, rules, cut):
    return {}["x"]


def test_a_setter_function_that_fails_is_a_value_error_naming_it_and_the_hand():
    with pytest.raises(ValueError, match=r"^deal 0: setter '<lambda>' returned 5 for '.*': a "
                                         r"setting is \(front, middle, back\)"):
        match(lambda c, r, k: 5, "model", "classic", players=2, deals=1)
    with pytest.raises(ValueError, match=r"^deal 0: setter '_raises' failed on the hand "
                                         r"'(\w\w ){12}\w\w': KeyError: 'x'") as raised:
        match(_raises, "model", "classic", players=2, deals=1)
    causes, cause = [], raised.value
    while cause is not None:
        causes.append(cause)
        cause = cause.__cause__
    assert isinstance(causes[-1], KeyError)                                   # still chained
    with pytest.raises(ValueError, match=r"setter '_one_argument' must take \(cards, rules, "
                                         r"cut\), but its signature is \(cards\)"):
        match(_one_argument, "model", "classic", players=2, deals=1)
    with pytest.raises(ValueError, match=r"setter 'no_such_module:f': cannot import"):
        setter("no_such_module:f")


def test_result_as_json_and_text():
    result = match("model", "random", "pagat", players=2, deals=5, seed=1)
    data = json.loads(result.to_json())
    assert data["deals"] == 5 and data["a"] == "model" and len(data["values"]) == 5
    lo, hi = data["ci95"]
    assert lo <= data["mean"] <= hi
    assert isinstance(data["seconds_per_hand"]["a"]["median"], float)
    assert "units a hand, 95% CI" in str(result)


def test_setter_specs():
    assert setter("solve:samples=200,model=field").model == "field"
    assert setter("model:name=sbf").model == "sbf"
    assert setter("solver.quickset:quick_set").function is solver.quick_set
    for bad, message in [("solve:samples=0", "at least 1"), ("solve:samples=x", "positive integer"),
                         ("nonsense", "unknown setter"),
                         ("solve:depth=2", "unknown options"), (3, "a setter is")]:
        with pytest.raises(ValueError, match=message):
            setter(bad)
    with pytest.raises(ValueError, match="layout 'two-v-two' does not fit 2 seats"):
        match("model", "sbf", "classic", players=2, layout="two-v-two", deals=1)
    with pytest.raises(ValueError, match="players"):
        match("model", "sbf", "joker", players=2, deals=1)


@pytest.mark.slow
def test_exploitability_is_a_match_of_the_best_response_against_the_policy():
    result = exploitability("sbf", "classic", 2, deals=4, samples=60, seed=1)
    assert result.a.startswith("best response") and result.b == "model:sbf"
    assert result.deals == 4 and result.mean > 0       # strongest-back-first is easy prey


@pytest.mark.slow
def test_exploitability_seats_two_where_the_rule_set_can():
    assert exploitability("sbf", "pagat", deals=1, samples=30).players == 2
    assert exploitability("sbf", "joker", deals=1, samples=30).players == 4


def test_command_line_defaults_are_those_of_python_m_solver(capsys):
    assert arena.main(["match", "model", "sbf", "--deals", "1", "--quiet"]) == 0
    assert "model vs sbf: joker, 4 seats" in capsys.readouterr().out
    for command in ("match", "exploitability"):
        assert arena.main([command, "--help"]) == 0
        help_text = " ".join(capsys.readouterr().out.split())
        assert "(default: joker)" in help_text
        # One default an option: none of argparse's "(default: None)" after the text's own.
        assert "(default: None)" not in help_text and "(default: False)" not in help_text
        players = help_text[help_text.index("--players PLAYERS seats"):help_text.index("--deals DEALS dup")]
        assert players.count("default") == 1, players


@pytest.mark.parametrize("argv, message", [
    (["match", "tests_no_such_module:f", "sbf"], "setter 'tests_no_such_module:f': cannot import"),
    (["match", "test_arena:_one_argument", "sbf", "--rules", "pagat", "--players", "2"],
     "must take (cards, rules, cut)"),
    (["match", "test_arena:_raises", "sbf", "--rules", "pagat", "--players", "2", "--deals", "1"],
     "deal 0: setter 'test_arena:_raises' failed on the hand"),
    (["match", "model", "sbf", "--players", "5"], "--players 5: joker plays with 4 players"),
    (["match", "model", "sbf", "--deals", "0"], "--deals must be at least 1, not 0"),
    (["match", "model", "sbf", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_command_line_errors_are_one_line_and_exit_code_2(capsys, argv, message):
    assert arena.main(argv + ["--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err
    assert err.startswith("python3 -m solver.arena: error: ")


def test_command_line(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert arena.main(["match", "model", "sbf", "--rules", "pagat", "--players", "2",
                       "--deals", "3", "--json", str(out), "--quiet"]) == 0
    assert "model vs sbf" in capsys.readouterr().out
    assert json.loads(out.read_text())["deals"] == 3
    assert arena.main(["match", "model", "sbf", "--rules", "poker", "--quiet"]) == 2
    assert "unknown rule set" in capsys.readouterr().err


def test_saved_settings_replay_what_was_saved(tmp_path):
    """A setter's settings saved hand by hand (as benchmarks/save_settings.py does) and
    replayed as ``saved:FILE`` play exactly as the setter itself did."""
    import json

    from solver.arena import _setter_seed, deal_hands
    rs = solver.rule_set("classic")
    saved = []
    for index in range(4):
        hands, cut = deal_hands(rs, 2, 3, index)
        for h, hand in enumerate(hands):
            seed = _setter_seed(3, index, h, 1)                # side B's seeds
            rows = setter("model").set(hand, rs, cut, 2, seed)
            saved.append({"cards": hand, "seed": seed, "rows": list(rows)})
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"meta": {"rules": "classic"}, "settings": saved}))
    replay = match("sbf", f"saved:{path}", "classic", players=2, deals=4, seed=3)
    direct = match("sbf", "model", "classic", players=2, deals=4, seed=3)
    assert replay.values == direct.values and direct.mean != 0
    with pytest.raises(ValueError, match="holds no setting"):
        match("sbf", f"saved:{path}", "classic", players=2, deals=5, seed=3)


def test_ctrl_c_stops_a_match():
    """Ctrl+C (SIGINT to the process group, as a terminal sends it) during a long match:
    the line ``interrupted``, exit code 130, no traceback, within a generous bound (the
    match would take minutes)."""
    from test_cli import INTERRUPT_BOUND, interrupted
    code, err, took = interrupted(["match", "solve:samples=3000", "model", "--rules", "classic",
                                   "--deals", "2000", "--quiet"], module="solver.arena")
    assert (code, err) == (130, "interrupted\n") and took < INTERRUPT_BOUND


def test_the_front_ends_import_nothing_above_them():
    """``python3 -m solver``, ``python3 -m solver.arena`` and the study page share their
    command-line helpers (``solver._cli``) and the deal (``solver.sampling.deal_hands``)
    from below: the arena and the web layer never import the command line, the web layer
    never imports the arena, and ``solver._cli`` imports nothing of the solver but
    ``solver._checks``."""
    import ast
    from pathlib import Path

    package = Path(solver.__file__).parent

    def imported(path: Path) -> set[str]:
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names.add("." * node.level + (node.module or ""))
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        return names

    arena = imported(package / "arena.py")
    web = set().union(*(imported(p) for p in (package / "web").glob("*.py")))
    assert not {".__main__", "solver.__main__"} & arena
    assert not {"..__main__", "solver.__main__", "..arena", "solver.arena"} & web
    assert {name for name in imported(package / "_cli.py")
            if name.startswith(".") or name.startswith("solver")} == {"._checks"}
