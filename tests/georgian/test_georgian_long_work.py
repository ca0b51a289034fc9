"""Long work: sampling in short kernel steps (so Ctrl+C can land between them) gives
exactly the advice of one kernel call; progress is reported; a request too large for
memory is refused up front. On the command line (real processes sent SIGINT): Ctrl+C
stops advise, simulate and play with one line and exit code 130, progress shows on a
terminal, and --samples has its bounds."""

import fcntl
import io
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import numpy as np
import pytest

from solver.georgian import __main__ as cli
from solver.georgian import DealState, advise_bid, advise_play, advise_trump, advisor
from solver.georgian import kernels as k
from solver.georgian.advisor import _kernel_state, _sampling_inputs, _summarise
from solver.georgian.cards import mask_of, parse_cards, parse_suit


@pytest.fixture
def tiny_chunks(monkeypatch):
    """Every kernel step after the first samples one deal."""
    monkeypatch.setattr(advisor, "CHUNK_SECONDS", 1e-12)


def one_call_bid_advice(samples, seed):
    """What advise_bid gave before sampling ran in steps: one kernel call."""
    hand = parse_cards("Jk Ah Kh 7c")
    known = mask_of(hand) | mask_of(parse_cards("9h"))
    deal = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
    deal[k.HAND + 2] = mask_of(hand)
    deal[k.BID:k.BID + 4] = [1, 0, -1, -1]
    deal[k.TRUMP], deal[k.HAND_SIZE], deal[k.DEALER], deal[k.LEADER] = parse_suit("h"), 4, 3, 0
    deal[k.LEAD_JOKER] = k.NOT_JOKER
    options = np.arange(5, dtype=np.int64)
    unseen, capacity, caps = _sampling_inputs(2, known, [4] * 4, [[8] * 4] * 4)
    scores, weights, ok = k.evaluate_bids(deal, 2, options, samples, unseen, capacity, caps, advisor.BID_NOISE[4],
                                          advisor.STANDARD_SCORING.as_array(),
                                          _kernel_state(np.random.default_rng(seed)))
    assert ok
    return _summarise(list(range(5)), scores, weights)


def test_sampling_in_steps_gives_the_advice_of_one_kernel_call(tiny_chunks):
    steps = []
    advice = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=300, rng=5, bid_evidence=True,
                        progress=steps.append)
    assert len(steps) > 40 and sum(steps) == 300  # the first step of 256, then one deal a step
    assert advice == one_call_bid_advice(300, 5)


def test_steps_change_no_play_or_trump_advice(monkeypatch):
    deal = DealState(["Jk 7d 8d", "As 9s 7c", "Kh 7h Qd", "Qs Ks 8c"], 3, turned_card="6h")
    for bid in (1, 1, 0, 0):
        deal.make_bid(bid)
    deal.play("Jk high s")
    deal.play("As")
    play = advise_play(deal, samples=400, rng=3, bid_evidence=True)
    trump = advise_trump("As Ks 7h", 0, samples=6, playout_samples=3, rng=4)
    monkeypatch.setattr(advisor, "CHUNK_SECONDS", 1e-12)
    counted = []
    assert advise_play(deal, samples=400, rng=3, bid_evidence=True, progress=counted.append) == play
    assert advise_trump("As Ks 7h", 0, samples=6, playout_samples=3, rng=4, progress=counted.append) == trump
    assert counted[-6:] == [1] * 6 and sum(counted) == 406


def test_a_request_too_large_for_memory_is_refused_up_front():
    with pytest.raises(ValueError, match=r"samples=100000000 would need about 4\.8 GB of memory \(48 bytes a "
                                         r"sample for 5 choices\); at most 83,333,333 samples fit in 4 GB"):
        advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=100_000_000, rng=0)
    with pytest.raises(ValueError, match="--samples=10"):
        advisor.check_memory(10**9, advisor.MOST_CHOICES, "--samples")
    advisor.check_memory(10**6, advisor.MOST_CHOICES)


def test_progress_must_be_callable():
    with pytest.raises(ValueError, match="progress must be callable"):
        advise_bid("Jk Ah", "h", [], turned_card="9h", samples=5, rng=0, progress=3)


# --- the command line: Ctrl+C, progress and the bounds of --samples -----------------------------------------
ROOT = Path(__file__).resolve().parents[2]
BID_POSITION = ["--hand", "Jk Ah Kh 7c", "--dealer", "3", "--turned", "9h", "--bids", "1 0"]


def _environment():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("SOLVER_QUIET", None)  # progress is a notice, as the compile notice
    return env


def _read(fd: int, until: bytes, deadline: float) -> bytes:
    """What ``fd`` gives until ``until`` appears, it closes, or the deadline passes."""
    got = b""
    while until not in got and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the terminal's other end has closed
                break
            if not chunk:
                break
            got += chunk
    return got


def interrupt_when(argv, shows: bytes, on="stderr"):
    """Run ``python3 -m solver.georgian argv`` with stderr on a terminal, send it SIGINT
    once ``shows`` appears on ``on``, and return (exit code, stdout, stderr)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 wide
    proc = subprocess.Popen([sys.executable, "-m", "solver.georgian", *argv], cwd=ROOT, env=_environment(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    deadline = time.monotonic() + 300  # a cold first run compiles the kernels first
    try:
        watched = master if on == "stderr" else proc.stdout.fileno()
        seen = _read(watched, shows, deadline)
        assert shows in seen, f"{shows!r} never appeared; got {seen[-500:]!r}"
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=120)
        rest = _read(master, b"\0", time.monotonic() + 2) if on == "stderr" else b""
        out = proc.stdout.read()
        if on == "stdout":
            out, rest = seen + out, _read(master, b"\0", time.monotonic() + 2)
            seen = b""
        return code, out.decode(), (seen + rest).decode().replace("\r\n", "\n")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        os.close(master)


def test_ctrl_c_stops_advise_with_one_line_after_showing_progress():
    code, out, err = interrupt_when(["advise", *BID_POSITION, "--samples", "20000000"], b"samples/s")
    assert code == 130 and out == ""
    assert "advise:" in err and "/20000000" in err  # the progress bar: count, total, rate, time left
    assert err.endswith("interrupted\n") and "Traceback" not in err


def test_ctrl_c_stops_simulate_with_one_line_after_showing_progress():
    code, out, err = interrupt_when(["simulate", "--players", "advisor", "random", "advisor", "baseline",
                                     "--games", "50"], b"deals")
    assert code == 130 and out == ""
    assert "50 games:" in err and "/1200" in err  # 50 games of 24 deals
    assert err.endswith("interrupted\n") and "Traceback" not in err


def test_ctrl_c_in_play_prints_the_totals_so_far():
    code, out, err = interrupt_when(["play", "--seed", "3"], b"Your bid (legal: 0)> ", on="stdout")
    assert code == 130 and "Traceback" not in err
    assert out.endswith("Your bid (legal: 0)> \ninterrupted after 0 of 24 deals. Totals: you 0, S1 0, S2 0, S3 0\n")


@pytest.mark.parametrize("argv,message", [
    (["advise", *BID_POSITION, "--samples", "100000000"],
     "--samples=100000000 would need about 4.8 GB of memory (48 bytes a sample for 5 choices); "
     "at most 83,333,333 samples fit in 4 GB"),
    (["simulate", "--samples", "100000000"],
     "--samples=100000000 would need about 13.6 GB of memory (136 bytes a sample for 16 choices); "
     "at most 29,411,764 samples fit in 4 GB"),
    (["play", "--samples", "30000000", "--opponents", "random"], "--samples=30000000 would need about 4.1 GB"),
    (["advise", "--hand", "As Ks 7h", "--dealer", "0", "--samples", "20000000"],
     "--samples=20000000 is too many for a trump choice's advice: each of its 4,000,000 sampled deals would be "
     "played out with 2,000,000 samples a decision, one step of about 3 hours that Ctrl+C cannot stop; at most 2000"),
    (["simulate", "--trump-by-score", "--samples", "2001"], "is too many for a trump choice's advice"),
    (["play", "--trump-by-score", "--samples", "2001"], "is too many for a trump choice's advice"),
])
def test_samples_beyond_the_bounds_are_refused_up_front(argv, message, capsys):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_a_large_effort_without_trump_advice_is_allowed(monkeypatch, capsys):
    # Without --trump-by-score no advisor seat advises a trump choice: 5000 passes (no game is played:
    # the input ends at once). The hints' trump advice is capped instead (test_georgian_cli).
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["play", "--samples", "5000", "--opponents", "baseline"]) == 0
    assert "Game stopped (the input ended)" in capsys.readouterr().out
