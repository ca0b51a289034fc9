"""The command line, python3 -m solver.georgian: play driven through standard input
(the transcript checked), advise as text and JSON, simulate with --json, bad input,
and the compile notice."""

import io
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import numba
import numpy as np
import pytest

from solver import _jit
from solver.georgian import (
    AdvisorPolicy,
    BaselinePolicy,
    DealState,
    GameRecord,
    RandomPolicy,
    advise_bid,
    play_game,
    replay_game,
)
from solver.georgian import __main__ as cli
from solver.georgian._warmup import ENTRY_KERNELS, compile_kernels
from solver.georgian.cards import suit_str

ROOT = Path(__file__).resolve().parents[2]
SEED = 124  # seat 1 is dealt a joker in deal 1 (one card each, dealer S0), so it leads it


def run(argv, stdin="", monkeypatch=None, capsys=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_seed_deals_seat_1_a_joker_in_deal_1():
    deck = np.random.default_rng(np.random.SeedSequence(SEED).spawn(5)[0])
    assert DealState.deal(1, 0, deck).initial_hands[1][0] >= 36


def test_play_through_standard_input(monkeypatch, capsys):
    script = "help\nhint\n5\n1\nJk high\nhint\nJk high h\n"
    code, out, err = run(["play", "--seat", "1", "--opponents", "baseline", "--seed", str(SEED), "--samples", "20"],
                         script, monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out.startswith(f"Georgian Joker, classic game (24 deals), seed {SEED}. You are S1; "
                          "S2 baseline, S3 baseline, S0 baseline.")
    assert "== Deal 1 of 24 (pulka 1): 1 card each, dealer S0 baseline;" in out
    assert "  Your hand: Jk    trump:" in out
    assert "Your bid (legal: 0 1)> help\nType, at your turn:" in out
    # hint: the advisor's ranked bids with expected scores and standard errors
    assert "Your bid (legal: 0 1)> hint\n  advisor's bids, best first (expected deal score ± standard error, 20 samples):\n" \
           "     1. 1  " in out
    assert "Your bid (legal: 0 1)> 5\n  not allowed: bid 5 is out of range 0..1\nYour bid (legal: 0 1)> 1\n" in out
    # the lead: the engine's message for a joker lead without its suit, then the play
    assert "  Trick 1: you lead\n  You may play: Jk high|low SUIT\n" in out
    assert "Your play> Jk high\n  not allowed: a joker that leads must be played high or low and name a suit" in out
    assert "advisor's plays, best first" in out and " Jk high h " in out
    assert "Your play> Jk high h\n  Trick 1: you Jk high h, S2 " in out
    assert "-> you take it" in out
    # the end of the deal: its table of scores; then the end of the input stops the game
    assert "Deal 1 is over (trump " in out
    table = out[out.index("Deal 1 is over"):].splitlines()
    assert table[1].split() == ["seat", "bid", "took", "score", "total"]
    assert table[3].split() == ["S1", "you", "1", "1", "+100", "100"]
    assert "== Deal 2 of 24 (pulka 1): 2 cards each, dealer S1 you;" in out
    assert out.rstrip().endswith("Game stopped (the input ended) after 1 of 24 deals. Totals: S0 "
                                 + out.rstrip().split("Totals: S0 ")[-1])


class Recorder(BaselinePolicy):
    """The baseline, writing down each of its moves as a person would type it."""

    def __init__(self):
        self.moves = []

    def choose_trump(self, view, rng):
        trump = super().choose_trump(view, rng)
        self.moves.append(suit_str(trump))
        return trump

    def bid(self, view, rng):
        bid = super().bid(view, rng)
        self.moves.append(str(bid))
        return bid

    def play(self, view, rng):
        play = super().play(view, rng)
        self.moves.append(str(play))
        return play


def test_a_whole_game_typed_in_is_the_game_the_simulator_plays(monkeypatch, capsys):
    # The person types what the baseline would: the same game as play_game's, to the end.
    recorder = Recorder()
    record = play_game([RandomPolicy(), recorder, BaselinePolicy(), RandomPolicy()], "nines", seed=5,
                       names=["random", "you", "baseline", "random"])
    code, out, err = run(["play", "--seat", "1", "--opponents", "baseline,random,random", "--variant", "nines",
                          "--seed", "5"], "\n".join(recorder.moves) + "\n", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out.count("Deal ") >= 16 and "Deal 16 is over" in out and "Pulka 4 is over" in out
    final = out[out.index("Game over (nines game, seed 5):"):].splitlines()
    for p in range(4):
        bonus = sum(b[p] for b in record.pulka_bonuses)
        assert final[2 + p].split()[-3:] == [str(record.totals[p] - bonus), str(bonus), str(record.totals[p])]
    assert final[6].startswith("Winner: ")
    assert "not allowed" not in out and "Your trump (s h d c none)>" in out


def test_the_guide_session_is_real(monkeypatch, capsys):
    # The user guide's session of `play`: the same answers typed in give the same transcript.
    guide = (ROOT / "docs" / "guide" / "georgian-game.md").read_text(encoding="utf-8")
    command = re.search(r"^python3 -m solver\.georgian (play .*)$", guide, re.M).group(1)
    start = guide.index("```text\n", guide.index("A short real session")) + len("```text\n")
    session = guide[start:guide.index("```", start)]
    answers = re.findall(r"^Your [^>\n]*> (.*)$", session, re.M)
    assert len(answers) >= 5
    code, out, err = run(shlex.split(command), "\n".join(answers) + "\n", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out == session


def test_quit_stops_the_game(monkeypatch, capsys):
    code, out, _ = run(["play", "--opponents", "random", "--seed", "2"], "quit\n", monkeypatch, capsys)
    assert code == 0 and "Game stopped (you quit) after 0 of 24 deals." in out


def test_advise_a_bid_as_text_and_json(monkeypatch, capsys):
    argv = ["advise", "--hand", "Jk Ah Kh 7c", "--dealer", "3", "--turned", "9h", "--bids", "1 0",
            "--samples", "40", "--seed", "2"]
    code, out, err = run(argv, "", monkeypatch, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "S2 to bid: 4 cards each, dealer S3; hand Jk Ah Kh 7c; trump h (turned 9h); bids S0 1, S1 0"
    assert lines[1].startswith("advised bid, best first (expected deal score ± standard error; 40 samples")
    want = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=40, rng=np.random.default_rng(2))
    assert [row.split()[1] for row in lines[2:]] == [str(a.choice) for a in want]
    code, out, _ = run(argv + ["--json"], "", monkeypatch, capsys)
    data = json.loads(out)
    assert code == 0 and data["phase"] == "bid" and data["seat"] == 2 and data["hand_size"] == 4
    assert [c["choice"] for c in data["choices"]] == [a.choice for a in want]
    assert data["choices"][0]["expected_score"] == round(want[0].expected_score, 2)


def test_advise_a_play_from_json_on_standard_input(monkeypatch, capsys):
    position = {"hand": "Kh 7h Qd", "dealer": 3, "turned": "6h", "bids": [1, 1, 0, 0], "plays": ["Jk high s", "As"]}
    code, out, err = run(["advise", "--position", "-", "--samples", "30", "--json"], json.dumps(position),
                         monkeypatch, capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["phase"] == "play" and data["seat"] == 2
    assert sorted(c["choice"] for c in data["choices"]) == ["7h", "Kh"]  # no spade: it must trump
    assert data["position"]["plays"] == ["Jk high s", "As"]
    code, out, _ = run(["advise", "--hand", "Kh 7h Qd", "--dealer", "3", "--turned", "6h", "--bids", "1 1 0 0",
                        "--plays", "Jk high s, As", "--samples", "30"], "", monkeypatch, capsys)
    assert code == 0 and out.startswith("S2 to play: 3 cards each, dealer S3; hand Kh 7h Qd; trump h (turned 6h);")
    assert "2 cards played" in out.splitlines()[0]


@pytest.mark.slow
def test_advise_a_trump_choice(monkeypatch, capsys, tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"hand": "As Ks Qs", "dealer": 0}))
    code, out, err = run(["advise", "--position", str(path), "--samples", "20"], "", monkeypatch, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "S1 to choose trump: 9 cards each, dealer S0; first three cards As Ks Qs"
    assert "4 sampled deals, 2 samples a decision" in lines[1]
    assert sorted(row.split()[1] for row in lines[2:]) == ["c", "d", "h", "none", "s"]


def test_simulate_prints_means_with_confidence_intervals_and_json_records(monkeypatch, capsys):
    argv = ["simulate", "--players", "baseline", "random", "baseline", "random", "--games", "3", "--variant",
            "nines", "--seed", "7"]
    code, out, err = run(argv, "", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out.startswith("3 nines games, seeds 7..9")
    records = [play_game([BaselinePolicy(), RandomPolicy(), BaselinePolicy(), RandomPolicy()], "nines", seed=s)
               for s in (7, 8, 9)]
    mean0 = sum(r.totals[0] for r in records) / 3
    assert "S0 baseline" in out and f"{mean0:.1f}" in out and "95% CI" in out
    code, out, _ = run(argv + ["--json"], "", monkeypatch, capsys)
    data = json.loads(out)
    games = [GameRecord.from_dict(g) for g in data["games"]]
    assert games == records and all(replay_game(g) == g for g in games)
    seat0 = data["summary"]["seats"][0]
    assert seat0["mean_total"] == round(mean0, 1) and seat0["ci95"][0] < mean0 < seat0["ci95"][1]


@pytest.mark.parametrize("argv,stdin,message", [
    (["play", "--seat", "5"], "", "--seat must be a seat 0..3"),
    (["play", "--opponents", "advisor,wizard,random"], "", "unknown policy 'wizard'"),
    (["play", "--opponents", "advisor,random"], "", "names one policy or three"),
    (["play", "--samples", "0"], "", "--samples must be at least 1"),
    (["play", "--variant", "poker"], "", "invalid choice"),
    (["advise", "--hand", "Zz Ah", "--dealer", "0", "--trump", "h"], "", "not a card"),
    (["advise", "--hand", "Ah Kh"], "", "at least --hand and --dealer"),
    (["advise", "--position", "{bad json"], "", "not a JSON object"),
    (["advise", "--position", "-"], '{"hand": "Ah", "dealer": 0, "colour": "red"}', "unknown key(s) 'colour'"),
    (["advise", "--position", "{}", "--hand", "Ah"], "", "not both"),
    (["advise", "--hand", "Kh 7h Qd", "--dealer", "3", "--turned", "6h", "--bids", "1 1 0 0",
      "--plays", "7s, Jk high s"], "", "play 2 of the position (Jk high s): only a joker that leads names"),
    (["advise", "--hand", "Kh 7h Qd", "--dealer", "3", "--turned", "6h", "--bids", "1 1 0 0",
      "--plays", "7s, Kh"], "", "shows Kh twice"),
    (["advise", "--hand", "Jk Ah", "--dealer", "3", "--turned", "9h", "--bids", "1 0 1 0 2"], "", "four seats bid"),
    (["advise", "--hand", "As Ks", "--dealer", "0"], "", "first three cards"),
    (["simulate", "--games", "0"], "", "--games must be at least 1"),
    (["simulate", "--players", "advisor", "baseline", "random", "human"], "", "unknown policy 'human'"),
    (["simulate", "--players", "advisor"], "", "expected 4 arguments"),
    (["dance"], "", "invalid choice"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(argv, stdin, message, monkeypatch, capsys):
    code, out, err = run(argv, stdin, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("command", [[], ["play"], ["advise"], ["simulate"]])
def test_help(command, monkeypatch, capsys):
    code, out, err = run(command + ["--help"], "", monkeypatch, capsys)
    assert code == 0 and err == "" and out.startswith("usage: python3 -m solver.georgian")
    for word in {"play": ["--opponents", "hint", "--samples"], "advise": ["--position", "--plays", "JSON"],
                 "simulate": ["--players", "95%", "--json"]}.get(command[0] if command else "", ["play", "advise"]):
        assert word in out


def test_the_real_entry_point_helps_and_fails_cleanly():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "solver.georgian", "--help"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage: python3 -m solver.georgian")
    done = subprocess.run([sys.executable, "-m", "solver.georgian", "advise", "--hand", "Ah 6s", "--dealer", "0",
                           "--trump", "h"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("python3 -m solver.georgian: error: 6s is not in the deck: the black sixes are "
                           "replaced by jokers\n")


def test_compile_progress_says_what_compiles_and_how_long_it_has_taken(monkeypatch):
    monkeypatch.delenv(_jit.QUIET_ENV, raising=False)
    cold = numba.njit(lambda x: x + 1)  # never compiled, not cached
    out = io.StringIO()
    with _jit.compile_progress([cold], "the test kernels", every=0.01, file=out) as speaking:
        assert speaking
        deadline = time.monotonic() + 10
        while "still compiling" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        cold(1)
    lines = out.getvalue().splitlines()
    assert lines[0] == ("compiling the test kernels with Numba (first run only; cached on disk "
                        "afterwards)...")
    assert lines[1].startswith("  still compiling: ") and lines[1].endswith(" s so far")
    assert lines[-1].startswith("compiled in ") and lines[-1].endswith(" s")
    assert not any(t.name == "compile-progress" for t in threading.enumerate())
    # Warm kernels, or SOLVER_QUIET=1: not a word.
    quiet = io.StringIO()
    with _jit.compile_progress([cold], "the test kernels", file=quiet) as speaking:
        assert not speaking
    monkeypatch.setenv(_jit.QUIET_ENV, "1")
    with _jit.compile_progress([numba.njit(lambda x: x)], "the test kernels", file=quiet) as speaking:
        assert not speaking
    assert quiet.getvalue() == ""


def test_the_warm_up_compiles_every_kernel_the_game_calls():
    compile_kernels()
    assert _jit.cold_kernels(ENTRY_KERNELS) == []


def test_advisor_with_effort():
    policy = AdvisorPolicy.with_effort(200)
    assert (policy.bid_samples, policy.play_samples, policy.trump_samples, policy.trump_playout_samples) == \
        (200, 200, 40, 20)
    small = AdvisorPolicy.with_effort(3, bid_evidence=False)
    assert (small.trump_samples, small.trump_playout_samples, small.bid_evidence) == (1, 1, False)


def test_a_position_file_that_does_not_exist_is_one_line(monkeypatch, capsys, tmp_path):
    missing = tmp_path / "position.json"
    code, out, err = run(["advise", "--position", str(missing)], "", monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err == f"python3 -m solver.georgian: error: --position {missing}: file not found " \
                  "(nor a JSON object, which starts with '{')\n"
    code, _, err = run(["advise", "--position", str(tmp_path)], "", monkeypatch, capsys)
    assert code == 2 and err.endswith(f"--position {tmp_path}: not a file\n")


def test_rules_messages_say_you_for_the_persons_seat(monkeypatch, capsys):
    # Seat 1 deals deal 2 (bids S2 0, S3 0, S0 0 in the user guide's game): 2 is its forbidden bid.
    code, out, _ = run(["play", "--seat", "1", "--opponents", "advisor,baseline,random", "--seed", str(SEED),
                        "--samples", "20"], "1\nJk high h\n2\n", monkeypatch, capsys)
    assert code == 0
    assert "  not allowed: you are the dealer and may not bid 2: with the other bids [0, 0, 0]" in out
    assert "seat 1" not in out


@pytest.mark.parametrize("hands,bids,plays,attempt,said", [
    (["Ah 7h", "Kh 8c", "Qh 9c", "Jh Tc"], (0, 0, 0, 0), ["Ah"], "8c", "you must follow h (Kh) or play a joker"),
    (["Ah 7s", "8c 8s", "Qh 9s", "Jh Ts"], (0, 0, 0, 0), ["Ah"], "8s",
     "you have no h and must play a trump (8c) or a joker"),
    (["Ah 7h", "Kh 8c", "Qh 9c", "Jh Tc"], (0, 0, 0, 0), ["Ah"], "Jk high", "you hold no joker (hand: Kh 8c)"),
    (["Ah 7h", "Kh 8c", "Qh 9c", "Jh Tc"], (0, 0, 0, 0), ["Ah"], "Qh", "Qh is not in your hand (Kh 8c)"),
    (["Jk 7h", "Kh 8h", "Qh 9c", "Jh Tc"], (0, 0, 0, 0), ["Jk high h"], "8h",
     "a joker led high naming h: you must play your highest h (Kh) or a joker"),
])
def test_every_rules_message_about_the_person_says_you(hands, bids, plays, attempt, said):
    from solver.georgian.terminal import in_second_person

    deal = DealState(hands, 3, turned_card="7c")
    for seat in deal.bidding_order:
        deal.make_bid(bids[seat])
    for play in plays:
        deal.play(play)
    with pytest.raises(ValueError) as err:
        deal.play(attempt)
    assert in_second_person(str(err.value), deal.to_move) == said
    assert in_second_person(str(err.value), (deal.to_move + 1) % 4) == str(err.value)  # not about that seat


def test_a_hint_is_the_same_each_time_it_is_asked(monkeypatch, capsys):
    # nines, seat 1 left of the dealer S0: it chooses trump in deal 1; hints at the trump choice and a bid.
    code, out, _ = run(["play", "--seat", "1", "--variant", "nines", "--opponents", "baseline", "--seed", "4",
                        "--samples", "30"], "hint\nhint\ns\nhint\nhint\n", monkeypatch, capsys)
    assert code == 0
    blocks = out.split("> hint\n")[1:]
    trump = [b[:b.index("\nYour")] for b in blocks[:2]]
    bids = [b[:b.index("\nYour")] for b in blocks[2:4]]
    assert trump[0].startswith("  advisor's trump choices, best first (expected deal score ± standard error, "
                               "6 sampled deals, 3 samples a decision):")
    assert trump[0] == trump[1] and bids[0] == bids[1] and "advisor's bids" in bids[0]


def test_trump_hints_are_capped_and_say_their_effort(monkeypatch, capsys):
    code, out, _ = run(["play", "--seat", "1", "--variant", "nines", "--opponents", "baseline", "--seed", "4",
                        "--samples", "100000"], "quit\n", monkeypatch, capsys)
    assert code == 0
    person = cli._advisor(100_000, False)
    assert (person.bid_samples, person.trump_samples, person.trump_playout_samples) == (100_000, 400, 200)


@pytest.mark.parametrize("players,flag,reading", [
    (["advisor", "baseline", "baseline", "baseline"], "auto", [0]),  # the table where it measured a gain
    (["advisor", "advisor", "baseline", "baseline"], "auto", []),
    (["advisor", "random", "baseline", "baseline"], "auto", []),
    (["advisor", "advisor", "baseline", "baseline"], "on", [0, 1]),
    (["advisor", "baseline", "baseline", "baseline"], "off", []),
])
def test_which_advisors_read_the_bids(players, flag, reading, monkeypatch, capsys):
    code, out, _ = run(["simulate", "--players", *players, "--bid-evidence", flag, "--variant", "nines",
                        "--games", "1", "--samples", "4", "--json"], "", monkeypatch, capsys)
    summary = json.loads(out)["summary"]
    assert code == 0 and summary["bid_evidence"] == reading and summary["trump_by_score"] is False


def test_the_warm_up_runs_the_trump_advice_though_it_is_not_the_default(monkeypatch):
    from solver.georgian import kernels

    calls = []
    real = kernels.evaluate_trumps
    monkeypatch.setattr(kernels, "evaluate_trumps", lambda *a: calls.append(a) or real(*a))
    compile_kernels()
    assert calls
