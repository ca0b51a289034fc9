"""The command line: every subcommand's text and JSON, and bad input as one line on
stderr with exit code 2."""
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from pathlib import Path

import solver
from solver import __main__ as cli
from solver import _cli
from solver.arena import deal_hands

HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"             # classic / pagat
DRAGON = "As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h"
README_DEAL = ["2s 2d Ac / 9s 9h 9d 9c 2h / As Ks Qs Js Ts",
               "2s 2c Kc / 6s 6h 6d 5h 5d / As Ks Qs Js Ts",
               "Qc Jc 4d / 4s 4h 3s 3h 7s / Ah Kh Qh Jh Th",
               "Tc 8c 3c | 8s 8h Jk 7h 7d | Ad Kd Qd Jd Td"]


def run(capsys, *argv):
    """(exit code, stdout, stderr) of ``python -m solver ARGV``."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _without_timing(text):
    return "\n".join(line for line in text.splitlines() if not re.fullmatch(r"\(.* s\)", line))


# --- solve ----------------------------------------------------------------------------------
def test_no_arguments_solve_the_sample_hand(capsys):
    code, out, err = run(capsys, "--samples", "40", "--top", "2")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "hand: " + solver.display.sort_row(cli.SAMPLE_HAND, group=False)
    assert lines[1] == "joker, 4 players: the best setting" or "tied" in lines[1]
    assert [line.split()[0] for line in lines[2:6]] == ["front", "middle", "back", "discard"]
    assert any(line.startswith("EV ") and "units a deal" in line for line in lines)
    assert any(line.strip().startswith("units:") for line in lines)
    assert any(line.strip().startswith("±: one standard error; measured on 10 new deals")
               for line in lines)
    assert any(line.startswith("scoop ") and "home run" in line for line in lines)


def test_the_output_matches_the_solution(capsys):
    code, out, _ = run(capsys, HAND, "--rules", "classic", "--samples", "30", "--top", "3")
    sol = solver.solve(HAND, "classic", samples=30, top=3)
    assert code == 0
    assert _without_timing(out) == f"hand: {solver.display.sort_row(HAND, group=False)}\n{sol}"
    for name, cards, category in zip(("front", "middle", "back"),
                                     (sol.front, sol.middle, sol.back), sol.categories):
        row = f"  {name:7s} {solver.display.sort_row(cards, category)}"
        assert any(line.startswith(row) and solver.display.label(category) in line
                   for line in out.splitlines())
    assert f"EV {sol.ev:+.3f} ± {sol.stderr:.3f} units a deal" in out
    assert "scoop" not in out and "home run" not in out            # classic: no scoops


def test_cards_as_words_or_one_string(capsys):
    one = run(capsys, HAND, "--rules", "pagat", "--samples", "20", "--players", "2")
    words = run(capsys, *HAND.split(), "--rules", "pagat", "--samples", "20", "--players", "2")
    explicit = run(capsys, "solve", "--rules", "pagat", *HAND.split(), "--samples", "20",
                   "--players", "2")
    assert one[0] == words[0] == explicit[0] == 0
    assert _without_timing(one[1]) == _without_timing(words[1]) == _without_timing(explicit[1])
    assert "pagat, 2 players" in one[1]


def test_json_is_the_whole_solution(capsys):
    code, out, err = run(capsys, HAND, "--rules", "classic", "--samples", "30", "--seed", "4",
                         "--holdout", "12", "--top", "2", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    want = solver.solve(HAND, "classic", samples=30, seed=4, holdout=12, top=2)
    assert data == json.loads(want.to_json())
    assert solver.Solution.from_dict(data) == want and data["holdout"] == 12


def test_declaring_comes_first(capsys):
    code, out, _ = run(capsys, DRAGON, "--rules", "classic", "--samples", "30")
    assert code == 0
    assert "DECLARE the automatic win (dragon)" in out.splitlines()[1]


@pytest.mark.slow
def test_ties_are_said(capsys):
    # Two settings that score the same in every sample (the 2h and 6h kickers swapped).
    code, out, _ = run(capsys, "As Ad Kh Kd 9d 9c 8h 8c 6h 6s 4d 4c 2h", "--rules",
                       "classic:mandarin", "--samples", "100", "--top", "2")
    assert code == 0
    assert "tied: alternative" in out and "   tied" in out
    assert "shot " in out and "scoop" not in out


def test_bonus_sample_hand_has_its_cut(capsys):
    code, out, _ = run(capsys, "--rules", "bonus", "--samples", "20", "--top", "0")
    assert code == 0 and f"bonus (cut {cli.SAMPLE_CUT}), 4 players" in out


def test_holdout_zero_says_the_ev_is_in_sample(capsys):
    code, out, _ = run(capsys, HAND, "--rules", "classic", "--samples", "20", "--holdout", "0")
    assert code == 0 and "an in-sample mean, biased upward" in out


def test_batch(capsys, tmp_path, monkeypatch):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"# two hands\n{HAND}\n\n{DRAGON}   # a dragon\n")
    seen = {}
    solve_many = solver.solve_many

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return solve_many(*args, **kwargs)

    monkeypatch.setattr(solver, "solve_many", spy)
    code, out, err = run(capsys, "--rules", "classic", "--batch", str(hands), "--samples", "20",
                         "--workers", "1", "--json", "--quiet")
    assert code == 0 and err == "" and seen["progress"] is False
    want = [solver.solve(h, "classic", samples=20) for h in (HAND, DRAGON)]
    assert [solver.Solution.from_dict(d) for d in json.loads(out)] == want
    assert [d["line"] for d in json.loads(out)] == [2, 4]
    code, out, _ = run(capsys, "--rules", "classic", "--batch", str(hands), "--samples", "20",
                       "--workers", "1")
    assert code == 0 and seen["progress"] is False          # stderr is not a terminal
    assert "hand (line 2):" in out and "hand (line 4):" in out and "(2 hands solved," in out
    monkeypatch.setattr("sys.stderr", _Terminal())
    monkeypatch.delenv("SOLVER_QUIET", raising=False)        # (the tests' conftest sets it)
    assert cli.main(["--rules", "classic", "--batch", str(hands), "--samples", "20",
                     "--workers", "1"]) == 0
    assert seen["progress"] is True                         # a bar of the hands
    assert "hands: 100%" in sys.stderr.getvalue() and "solve_many" not in sys.stderr.getvalue()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_batch_lines_may_give_their_own_cut(capsys, tmp_path):
    hands = tmp_path / "hands.txt"
    hand = "Ah Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 5h 4d 3c 2s"
    hands.write_text(f"{hand} cut 9c\n{hand}\n")
    code, out, _ = run(capsys, "--rules", "bonus", "--cut", "7c", "--batch", str(hands),
                       "--samples", "10", "--workers", "1", "--json", "--top", "0")
    assert code == 0
    assert [d["cut"] for d in json.loads(out)] == ["9c", "7c"]


def test_batch_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{HAND}\n# a comment\n{DRAGON}\n"))
    code, out, err = run(capsys, "--rules", "classic", "--batch", "-", "--samples", "20",
                         "--workers", "1", "--json", "--quiet")
    assert code == 0 and err == ""
    want = [solver.solve(h, "classic", samples=20) for h in (HAND, DRAGON)]
    assert [solver.Solution.from_dict(d) for d in json.loads(out)] == want


@pytest.mark.parametrize("command", [[], ["review"]], ids=["solve", "review"])
@pytest.mark.parametrize("workers", ["0", "-2", "x"])
def test_bad_workers_are_told_in_the_command_lines_words(capsys, command, workers):
    # Before any work (no compile notice first), and not in the library's words: there
    # is no None to give at a command line.
    code, out, err = run(capsys, *command, "--batch", "-", "--workers", workers)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert (f"--workers: a number of processes, at least 1, not '{workers}' (leave "
            f"--workers out for one per core)") in err
    assert "None" not in err


def test_workers_without_a_batch_is_an_error(capsys):
    code, out, err = run(capsys, HAND, "--rules", "classic", "--workers", "2")
    assert (code, out) == (2, "")
    assert err == ("python3 -m solver: error: --workers sets the processes of --batch; without "
                   "it one hand is solved, in this process\n")


# --- eval, settle, deal ---------------------------------------------------------------------
def test_eval(capsys):
    value = solver.row_value("9s Kh 9d Kd Kc", "pagat")
    code, out, _ = run(capsys, "eval", "9s", "Kh", "9d", "Kd", "Kc", "--rules", "pagat")
    assert code == 0
    assert out == f"Kh Kd Kc 9s 9d   full house   ranks K 9   value {value.value}\n"
    code, out, _ = run(capsys, "eval", "As 2h 3d 4c 5s", "--rules", "classic", "--json")
    assert json.loads(out) == dict(cards="5s 4c 3d 2h As", category="straight", ranks="5",
                                   value=solver.row_value("As 2h 3d 4c 5s", "classic").value)
    code, out, _ = run(capsys, "eval", "7h 7d 7c", "--rules", "bonus", "--cut", "7s")
    assert code == 0 and "bonus trips" in out


def test_settle(capsys):
    code, out, err = run(capsys, "settle", *README_DEAL)           # joker, the default
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "seat 0: +18 units"
    assert lines[1:4] == ["  front   2s 2d Ac         pair",
                          "  middle  9s 9h 9d 9c 2h   quads",
                          "  back    As Ks Qs Js Ts   straight flush"]
    assert "  middle  8s 8h 7h 7d Jk   full house" in lines
    assert "  seat 0 v seat 1: +6  (rows win/win/tie; seat 0 scoops +1, home run by seat 0 " \
           "+3, middle quads bonus (seat 0) +2)" in lines
    code, out, _ = run(capsys, "settle", *README_DEAL, "--json")
    data = json.loads(out)
    assert data["scores"] == [18, -5, -7, -6] and len(data["pairs"]) == 6


def test_settle_with_a_declaration(capsys):
    dragon = "As Ks Qh / Jd Td 9c 8c 7h / 6h 5s 4d 3c 2h"          # not a legal split
    other = "2s 3s 4s / 5d 6d 7d 8d 9s / Th Jh Qd Kh Ah"
    code, out, _ = run(capsys, "settle", "--rules", "classic", dragon, other, "--declare", "0")
    assert code == 0 and out.startswith("seat 0: +13 units   (declares an automatic win)")
    # --declare first, as the usage line has it: the seats after it are still seats.
    first = run(capsys, "settle", "--declare", "0", "--rules", "classic", dragon, other)
    assert first == (0, out, "")
    six_pairs = "2s 2d 3s / 3d 4s 4h 5d 5h / 6s 6d 7s 7d 8s"
    commas = run(capsys, "settle", "--rules", "classic", "--declare", "0,1", dragon, six_pairs,
                 "--json")
    repeated = run(capsys, "settle", "--rules", "classic", "--declare", "0", "--declare", "1",
                   dragon, six_pairs, "--json")
    assert commas == repeated and json.loads(commas[1])["scores"] == [13, -13]
    code, _, err = run(capsys, "settle", "--declare", "0", "x", dragon, other)
    assert code == 2 and "seat 0: give three rows 'FRONT / MIDDLE / BACK', not 'x'" in err


def test_deal_with_a_given_cut_card(capsys):
    bonus = solver.rule_set("bonus")
    hands, drawn = deal_hands(bonus, 4, 3, 0)
    code, out, _ = run(capsys, "deal", "--rules", "bonus", "--seed", "3", "--cut", drawn,
                       "--json")
    assert code == 0 and json.loads(out)["hands"] == [solver.display.sort_row(h, group=False)
                                                      for h in hands]
    other = "Ah" if drawn != "Ah" else "Kh"
    code, out, _ = run(capsys, "deal", "--rules", "bonus", "--seed", "3", "--cut", other)
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith(f"cut card {other}") and f"--cut {other}" in lines[-1]
    dealt = " ".join(line.split(": ", 1)[1] for line in lines[1:5]).split()
    assert len(dealt) == 64 and other not in dealt


def test_deal(capsys):
    code, out, _ = run(capsys, "deal", "--rules", "bonus", "--seed", "3", "--json")
    hands, cut = deal_hands(solver.rule_set("bonus"), 4, 3, 0)
    data = json.loads(out)
    assert code == 0 and data["cut"] == cut and data["seed"] == 3
    assert [sorted(h.split()) for h in data["hands"]] == [sorted(h.split()) for h in hands]
    code, out, _ = run(capsys, "deal", "--rules", "pagat", "--players", "2", "--seed", "1")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "pagat deal, seed 1: 2 players, 13 cards each"
    assert lines[-1].startswith('solve seat 0: python3 -m solver "') \
        and lines[-1].endswith('" --rules pagat --players 2')
    # The suggested command solves seat 0's hand.
    suggested = lines[-1].split('"')[1]
    assert run(capsys, suggested, "--rules", "pagat", "--players", "2", "--samples", "5")[0] == 0


# --- help, version, bad input ------------------------------------------------------------------
def test_help_shows_the_commands_and_every_default(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and all(c in out for c in ("solve", "eval", "settle", "deal"))
    code, out, _ = run(capsys, "solve", "--help")
    flat = " ".join(out.split())
    for default in ("(default: joker)", "(default: adaptive sampling", "(default: 0)",
                    "(default: 5)", "(default: a quarter of the deals used",
                    "(default: the rule set's largest, 4)"):
        assert default in flat
    assert "a progress bar of the hands" in flat and "SOLVER_QUIET=1" in flat
    assert run(capsys, "--version")[1].strip().endswith(solver.__version__)


BAD = [
    ("As Ks",), ("--rules", "texas"), ("--samples", "0"), ("--samples", "x"), ("bogus",),
    (HAND, "--rules", "classic", "--workers", "2"), ("deal", "--rules", "pagat", "--cut", "4c"),
    ("settle", "--declare", "x", README_DEAL[0], README_DEAL[1]),
    ("--holdout", "-1"), ("--bogus",), ("--batch", "/nonexistent/hands.txt"),
    (HAND, "--rules", "classic", "--batch", "hands.txt"), (HAND, "--rules", "bonus"),
    ("eval", "As Ks"), ("eval", "Zz Ks Qs"), ("eval", "Jk 2h 3h", "--rules", "pagat"), ("eval",),
    ("settle", "As Ks"), ("settle", README_DEAL[0]), ("settle",),
    ("settle", "--rules", "joker", "Ah Ad Ac / 2d 3d 5c 7d 8h / 4c 5d 6c 9h Th", *README_DEAL[1:]),
    ("settle", "--rules", "pagat", "--declare", "0", README_DEAL[0], README_DEAL[1]),
    ("deal", "--players", "2"), ("deal", "--seed", "-1"), ("deal", "--seed", "x"),
    ("deal", "--rules", "poker"),
]


@pytest.mark.parametrize("argv", BAD, ids=lambda argv: " ".join(argv)[:40])
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("python3 -m solver")
    assert "error: " in err


def test_every_bad_batch_line_is_named_and_the_others_solved(capsys, tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND}\nAs Kd\n{DRAGON}\nZz Ks\n")
    code, out, err = run(capsys, "--rules", "classic", "--batch", str(hands), "--samples", "20",
                         "--workers", "1", "--json")
    assert code == 0
    lines = err.splitlines()
    # Skipped lines, not errors: the run goes on and exits 0.
    assert lines[0] == (f"python3 -m solver: skipped {hands} line 2: the classic rule set "
                        f"deals 13 cards, not 2")
    assert lines[1].startswith(f"python3 -m solver: skipped {hands} line 4: unknown card 'Zz'")
    assert lines[2:] == ["python3 -m solver: 2 lines skipped; solving the other 2 hands"]
    assert not any("error" in line for line in lines)
    assert [(d["line"], d["hand"]) for d in json.loads(out)] == [
        (2 * i + 1, solver.solve(h, "classic", samples=20).hand)
        for i, h in enumerate((HAND, DRAGON))]
    # In text, the summary keeps the count.
    code, out, _ = run(capsys, "--rules", "classic", "--batch", str(hands), "--samples", "20",
                       "--workers", "1")
    assert code == 0
    assert re.fullmatch(r"\(2 hands solved, 2 lines skipped, \d+\.\d\d s\)",
                        out.splitlines()[-1])
    # Nothing to solve: an error, with the count.
    hands.write_text(f"# a cut card where the rule set has none\n{HAND} cut 4c\n")
    code, out, err = run(capsys, "--rules", "classic", "--batch", str(hands))
    assert (code, out) == (2, "")
    assert err == (f"python3 -m solver: skipped {hands} line 2: the classic rule set has no "
                   f"cut card (--cut 4c)\n"
                   f"python3 -m solver: error: {hands}: no hands to solve (1 line skipped)\n")


def test_many_bad_batch_lines_are_named_up_to_a_limit(capsys, tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("As Kd\n" * 25 + f"{HAND}\n")
    code, out, err = run(capsys, "--rules", "classic", "--batch", str(hands), "--samples", "20",
                         "--workers", "1", "--json")
    lines = err.splitlines()
    assert code == 0 and len(json.loads(out)) == 1
    assert [line.split(" line ")[1].split(":")[0] for line in lines[:cli.BAD_LINES_SHOWN]] \
        == [str(n) for n in range(1, cli.BAD_LINES_SHOWN + 1)]
    assert lines[cli.BAD_LINES_SHOWN:] == [
        f"python3 -m solver: ... and {25 - cli.BAD_LINES_SHOWN} more skipped lines",
        "python3 -m solver: 25 lines skipped; solving the other 1 hand"]


def test_a_binary_batch_file_names_the_file_and_the_line(capsys, tmp_path):
    hands = tmp_path / "hands.bin"
    hands.write_bytes(f"{HAND}\n".encode() + bytes(range(128, 256)) + b"\n\x00\x01\n")
    code, out, err = run(capsys, "--rules", "classic", "--batch", str(hands), "--samples", "20",
                         "--workers", "1", "--json")
    assert code == 0 and len(json.loads(out)) == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"python3 -m solver: skipped {hands} line 2: not text: byte 0x80 ")
    assert lines[1] == (f"python3 -m solver: skipped {hands} line 3: not text: the control "
                        f"character 0x00 at column 1 (is it a binary file?)")
    hands.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    code, out, err = run(capsys, "--rules", "classic", "--batch", str(hands))
    assert (code, out) == (2, "") and "Traceback" not in err
    assert err.splitlines()[0].startswith(f"python3 -m solver: skipped {hands} line 1: not text")
    assert err.splitlines()[-1] == (f"python3 -m solver: error: {hands}: no hands to solve "
                                    f"(3 lines skipped)")


def test_a_solve_error_names_its_batch_line(capsys, monkeypatch):
    # An error raised while solving (not by the checks before) names the line too.
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{HAND}\n"))
    code, _, err = run(capsys, "--rules", "classic", "--batch", "-", "--players", "5",
                       "--workers", "1")
    assert err == ("python3 -m solver: error: standard input line 1: --players 5: the classic "
                   "rule set plays with 2 or 3 or 4 players\n")


def test_a_mistyped_command_is_neither_a_command_nor_a_card(capsys):
    commands = tuple(_cli.subparsers(cli._parser()))
    assert {"solve", "eval", "settle", "deal"} <= set(commands)
    code, out, err = run(capsys, "bogus", "--rules", "classic")
    assert (code, out) == (2, "")
    assert err == (f"python3 -m solver: error: unknown command or card 'bogus'; commands: "
                   f"{', '.join(commands)} (see python3 -m solver --help)\n")
    # Cards are still cards, a bad one named as a card.
    code, _, err = run(capsys, "As Kd Zz", "--rules", "classic")
    assert code == 2 and "unknown card 'Zz'" in err


@pytest.mark.parametrize("argv, words", [
    ((HAND, "--rules", "classic", "--cut", "4c"), "has no cut card (--cut 4c)"),
    (("Ah Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 5h 4d 3c 2s", "--rules", "bonus"),
     "needs the cut card, e.g. --cut 4c"),
    ((HAND, "--rules", "classic", "--players", "5"), "--players 5: the classic rule set"),
    ((HAND, "--rules", "classic", "--samples", "0"), "--samples must be at least 1, not 0"),
    ((HAND, "--rules", "classic", "--samples", "10", "--effort", "max"),
     "--effort max sets the adaptive sampling of a solve with no --samples (--samples N"),
    (("deal", "--rules", "pagat", "--cut", "4c"), "has no cut card (--cut 4c)"),
    (("deal", "--seed", "-1"), "--seed must be at least 0, not -1"),
])
def test_errors_are_in_the_command_lines_words(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and not re.search(r"\w=", err)


def test_the_console_script_names_itself(capsys, monkeypatch):
    monkeypatch.setattr("sys.argv", ["/usr/bin/chinese-poker-solver"])
    code, _, err = run(capsys, "eval", "As Ks")
    assert code == 2 and err.startswith("chinese-poker-solver: error: a row has 3 or 5 cards")


# --- help, deal, review's warnings ------------------------------------------------------------
def test_help_as_a_command(capsys):
    assert run(capsys, "help")[:2] == run(capsys, "--help")[:2]
    assert run(capsys, "help", "deal")[:2] == run(capsys, "deal", "--help")[:2]
    code, out, err = run(capsys, "help", "bogus")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "no command 'bogus'" in err


def test_help_uses_python3_and_never_breaks_an_option_name(capsys, monkeypatch):
    for width in (60, 72, 80, 100):
        monkeypatch.setenv("COLUMNS", str(width))
        for command in ("solve", "settle", "deal", "review", "serve"):
            code, out, _ = run(capsys, command, "--help")
            assert code == 0 and "python -m" not in out
            # A line ending in '-' or '--' split a hyphenated word or an option's name.
            assert not [line for line in out.splitlines() if re.search(r"\w-$|--$", line)]
    assert "'--declare 0'" in " ".join(run(capsys, "settle", "--help")[1].split())


def test_deal_without_a_seed_is_random_and_says_its_seed(capsys):
    seen = set()
    for _ in range(3):
        code, out, _ = run(capsys, "deal", "--rules", "pagat", "--json")
        deal = json.loads(out)
        assert code == 0 and 0 <= deal["seed"] < cli.RANDOM_SEEDS
        # The seed it says gives this very deal.
        assert run(capsys, "deal", "--rules", "pagat", "--json", "--seed",
                   str(deal["seed"]))[1] == out
        seen.add(deal["seed"])
    assert len(seen) > 1


def test_review_gives_the_librarys_warning_in_one_line(capsys):
    code, out, err = run(capsys, "review", HAND, "--rules", "classic", "--setting",
                         "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "--samples", "10")
    assert code == 0 and out.startswith("hand: ")
    assert err == ("warning: 10 deals cannot tell settings apart: the standard errors of "
                   "fewer than 20 deals mean little (use more samples)\n")


# --- progress, a closed pipe --------------------------------------------------------------------
def test_a_solve_of_many_deals_shows_its_progress_and_the_same_answer(capsys, monkeypatch):
    """A solve that sets many opponent hands draws a bar of them on a terminal, setting them
    part by part (the thresholds made small here): the answer is the same."""
    from solver import sampling
    want = solver.solve(HAND, "classic", samples=300, pool=False)
    monkeypatch.setattr(sampling, "PROGRESS_HANDS", 100)
    monkeypatch.setattr(sampling, "PROGRESS_CHUNK_HANDS", 64)
    monkeypatch.setattr("sys.stderr", _Terminal())
    monkeypatch.delenv("SOLVER_QUIET", raising=False)
    assert solver.solve(HAND, "classic", samples=300, pool=False) == want
    bar = sys.stderr.getvalue()
    assert "opponent hands set: 100%" in bar and "900/900" in bar
    monkeypatch.setenv("SOLVER_QUIET", "1")                 # --quiet: no bar
    monkeypatch.setattr("sys.stderr", _Terminal())
    assert solver.solve(HAND, "classic", samples=300, pool=False) == want
    assert sys.stderr.getvalue() == ""


def test_work_in_bounded_ranges_gives_the_same_answers(monkeypatch):
    """Long kernel calls run in ranges of at most MAX_RANGE_WORK, and a long shuffle in
    chunks (so that Ctrl+C lands between them): with both made tiny, the same answers."""
    from solver import _jit, sampling
    want = [solver.solve(HAND, "classic", samples=200, pool=False),
            solver.solve(cli.SAMPLE_HAND, "joker", samples=100)]
    monkeypatch.setattr(_jit, "MAX_RANGE_WORK", 1)
    monkeypatch.setattr(sampling, "SHUFFLE_CELLS", 100)
    sampling._kept_deal_order.cache_clear()
    try:
        assert [solver.solve(HAND, "classic", samples=200, pool=False),
                solver.solve(cli.SAMPLE_HAND, "joker", samples=100)] == want
    finally:
        sampling._kept_deal_order.cache_clear()


def test_in_ranges_bounds_each_range_and_stops_at_an_interrupt():
    from solver import _jit
    n, work = 1000, 100 * _jit.MAX_RANGE_WORK
    seen = []
    _jit.in_ranges(lambda a, b: seen.append((a, b)), n, work)
    assert sorted(seen)[0][0] == 0 and sorted(seen)[-1][1] == n
    assert sum(b - a for a, b in seen) == n
    assert max(b - a for a, b in seen) * work / n <= _jit.MAX_RANGE_WORK

    # Ctrl+C while the ranges run: the main thread is interrupted, those not started
    # are not run.
    calls = []

    def slow(a, b):
        calls.append(a)
        time.sleep(0.05)
    main = threading.get_ident()
    threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        _jit.in_ranges(slow, n, work)                  # 100 ranges: 5 s of work
    time.sleep(0.3)
    assert len(calls) < 40


@pytest.mark.parametrize("json_option", [[], ["--json"]], ids=["text", "json"])
def test_a_closed_pipe_ends_quietly_with_the_same_exit_code_as_a_full_read(json_option):
    """``python3 -m solver ... | head -1``: the reader goes, and the command ends quietly,
    with exit code 0 in text and in --json alike.  Whether ``head`` goes before the last
    write or after it is a race, so the exit code must be the one of a reader that read
    it all: here the reader goes before the command writes anything."""
    argv = [sys.executable, "-m", "solver", "eval", "As Ks Qs", *json_option]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()                      # before the command writes anything
    err = process.stderr.read()
    assert process.wait(timeout=60) == 0 and err == ""
    assert subprocess.run(argv, capture_output=True).returncode == 0     # read in full


# --- Ctrl+C ------------------------------------------------------------------------------------
def interrupted(argv, after=5.0, module="solver", stdin=None):
    """Runs ``python3 -m MODULE ARGV`` as a terminal would (its own process group), sends
    SIGINT to the group ``after`` seconds later, as Ctrl+C does: (exit code, stderr,
    seconds from the signal to the end)."""
    env = dict(os.environ, SOLVER_WARMUP="0")
    process = subprocess.Popen([sys.executable, "-m", module, *argv], stdin=stdin,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, start_new_session=True)
    time.sleep(after)
    assert process.poll() is None, "the command ended before it was interrupted"
    start = time.perf_counter()
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    took = time.perf_counter() - start
    # Nothing of the command is left running (a batch's worker processes included).
    for _ in range(50):
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("processes of the command are still running")
    return process.returncode, err, took


# Generous: a behaviour test, not a benchmark.  Uninterrupted, each command takes minutes.
INTERRUPT_BOUND = 15


@pytest.mark.parametrize("module", ["solver", "solver.georgian", "solver.arena"])
def test_ctrl_c_while_a_command_is_still_importing_ends_it_quietly(module):
    # 0.1 s in, the command is still importing numpy and Numba (a second or more), before
    # its main can catch anything: before solver._quiet_start, a traceback of the imports.
    argv = {"solver": ["--samples", "600000"], "solver.georgian": ["simulate"],
            "solver.arena": ["match", "model", "model", "--deals", "100000"]}[module]
    code, err, took = interrupted(argv, after=0.1, module=module)
    assert (code, err) == (130, "interrupted\n") and took < INTERRUPT_BOUND


def test_a_program_that_imports_the_package_keeps_its_own_ctrl_c():
    code = ("import signal, solver; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "True\n"


def test_ctrl_c_stops_a_solve_of_many_deals():
    code, err, took = interrupted(["--samples", "600000", "--quiet"])
    assert (code, err) == (130, "interrupted\n") and took < INTERRUPT_BOUND


def test_ctrl_c_stops_a_review_of_many_deals():
    code, err, took = interrupted(["review", HAND, "--rules", "classic", "--setting",
                                   "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s",
                                   "--samples", "600000", "--players", "4", "--quiet"])
    assert (code, err) == (130, "interrupted\n") and took < INTERRUPT_BOUND


@pytest.mark.slow
def test_ctrl_c_stops_a_batch_and_its_worker_processes(tmp_path):
    rng = __import__("numpy").random.default_rng(3)
    deck = solver.cards.deck_codes("joker")
    hands = tmp_path / "hands.txt"
    hands.write_text("".join(solver.format_cards([int(c) for c in rng.choice(deck, 17, False)])
                             + "\n" for _ in range(400)))
    code, err, took = interrupted(["--batch", str(hands), "--workers", "2", "--samples",
                                   "3000", "--quiet"], after=8)
    assert (code, err) == (130, "interrupted\n") and took < INTERRUPT_BOUND


# --- the guide's table of commands is the parser's ------------------------------------
GUIDE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "command-line.md"


def _guide_commands() -> dict:
    """The guide's command table: {command: {option: default given, or None}}."""
    return {name: options for name, (_, options) in _guide_table().items()}


def _guide_table() -> dict:
    """The guide's command table: {command: (the words its command column gives after
    the command's name, up to its first option; {option: default given, or None})}."""
    text = GUIDE_PAGE.read_text(encoding="utf-8")
    start = text.index("| command | what it does | options |")
    rows = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("| "):
            break
        command, _, options = line.strip("| ").rsplit(" | ", 2)
        name = re.match(r"`(\w+)", command).group(1)
        words = [w for span in re.findall(rf"`{name}\b([^`]*)`", command)
                 for w in span.split(" --")[0].replace("[", " ").replace("]", " ").split()
                 if w != "..."]
        rows[name] = (words, dict(re.findall(r"`(--[\w-]+)`(?: \(([^)]*)\))?", options)))
    return rows


def _shown(default) -> str:
    return str(int(default)) if isinstance(default, float) and default.is_integer() \
        else str(default)


def test_the_guides_command_table_is_the_parsers():
    # Every command, and exactly the options each takes (not "every command takes
    # --rules and --json"), each default the parser has given as the parser has it.
    parser = cli._parser()
    guide = _guide_commands()
    commands = _cli.subparsers(parser)
    assert sorted(guide) == sorted(commands), "a command is missing from the guide's table"
    for name, sub in commands.items():
        actions = {a.option_strings[-1]: a for a in sub._actions
                   if a.option_strings and a.option_strings[-1] != "--help"}
        assert sorted(guide[name]) == sorted(actions), name
        for option, action in actions.items():
            shown = guide[name][option]
            if action.default is None or action.default is False:
                assert not shown, f"{name} {option}: the guide gives a default, {shown}"
            else:
                assert shown == _shown(action.default), f"{name} {option}: {shown}"


def test_the_guides_command_column_gives_each_commands_arguments():
    # "train RULES", "rules list", "rules show NAME", "help [COMMAND]": each argument the
    # parser takes by position (by its name, or each of its choices), and no other.
    guide = _guide_table()
    for name, sub in _cli.subparsers(cli._parser()).items():
        want = set()
        for action in sub._actions:
            if not action.option_strings:
                want |= set(action.choices or [(action.metavar or action.dest).upper()
                                                .split("|")[0]])
        assert set(guide[name][0]) == want, name


def test_a_ctrl_c_that_c_code_turned_into_a_system_error_is_still_an_interrupt(monkeypatch,
                                                                              capsys):
    """Ctrl+C while C code ran Python for a moment comes back as ``SystemError: ...
    returned a result with an exception set``, the KeyboardInterrupt its cause: one line
    ``interrupted`` and 130 as any Ctrl+C; any other SystemError is not ours to hide."""
    monkeypatch.setattr(_cli, "_interrupted_said", threading.Lock())

    def interrupted_in_c():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise SystemError("<CPUDispatcher> returned a result with an exception set") from e

    def interrupted_in_nested_c():
        try:
            interrupted_in_c()
        except SystemError as e:
            raise SystemError("<ufunc> returned a result with an exception set") from e

    def broken():
        raise SystemError("something else")

    def broken_in_c():
        try:
            broken()
        except SystemError as e:
            raise SystemError("<CPUDispatcher> returned a result with an exception set") from e

    assert _cli.run_command(interrupted_in_c, "prog", {}, watch_interrupts=False) == 130
    assert capsys.readouterr().err == "interrupted\n"
    monkeypatch.setattr(_cli, "_interrupted_said", threading.Lock())
    assert _cli.run_command(interrupted_in_nested_c, "prog", {}, watch_interrupts=False) == 130
    assert capsys.readouterr().err == "interrupted\n"
    with pytest.raises(SystemError, match="exception set"):
        _cli.run_command(broken_in_c, "prog", {}, watch_interrupts=False)
    with pytest.raises(SystemError, match="something else"):
        _cli.run_command(broken, "prog", {}, watch_interrupts=False)
