"""How long the Georgian advisor's indivisible steps take, for the bounds of
``python3 -m solver.georgian --samples`` (benchmarks/GEORGIAN.md, section 6).

A bid or play advice samples in kernel steps of any size (``advisor.CHUNK_SECONDS``),
so only its rate matters. A trump choice's advice cannot be split below one sampled
deal, which is played out with ``playout_samples`` samples at every decision of the
chooser: its time per sampled deal grows with ``playout_samples``.

    python benchmarks/georgian_step_time.py
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.georgian import advise_bid, advise_trump  # noqa: E402


def seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    advise_bid("Jk Ah", "h", [], turned_card="9h", samples=2, rng=0)  # compile (or load) the kernels
    advise_trump("As Ks 7h", 0, samples=1, playout_samples=1, rng=0)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    hand = "Jk Ah Kh 7c 8s 9s Td Jd Qc"
    t = seconds(lambda: advise_bid(hand, "h", [1, 0], samples=20_000, rng=1))
    print(f"a 9-card bid (10 choices): {t / 20_000 * 1e6:.0f} us a sample")
    for playout in (40, 200):
        t = seconds(lambda: advise_trump("As Ks 7h", 0, samples=2, playout_samples=playout, rng=1)) / 2
        print(f"a trump choice at {playout} samples a decision: {t:.2f} s a sampled deal, "
              f"{t / playout * 1e3:.1f} ms per sample a decision")


if __name__ == "__main__":
    main()
