"""The kernels also run as plain Python (NUMBA_DISABLE_JIT=1) and give the same
answers as the compiled code: same games, same advice for the same seed (bids weighed
as evidence, and the trump choice with the advisor's own decisions in its playouts)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from solver.georgian import BaselinePolicy, RandomPolicy, advise_bid, advise_trump, play_game

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json
from solver.georgian import BaselinePolicy, RandomPolicy, advise_bid, advise_trump, play_game
game = play_game([BaselinePolicy(), RandomPolicy(), BaselinePolicy(), RandomPolicy()], "nines", seed=8)
advice = advise_bid("Jk Ah Kh 7c 9d", "h", [1], turned_card="Th", samples=40, rng=3)
trump = advise_trump("Jk Ah 7c", 1, samples=1, playout_samples=1, rng=2)
print(json.dumps({"totals": game.totals, "advice": [[a.choice, a.expected_score] for a in advice],
                  "trump": [[a.choice, a.expected_score] for a in trump]}))
"""


def test_pure_python_kernels_agree_with_compiled_ones():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=120)
    pure = json.loads(out.stdout)
    game = play_game([BaselinePolicy(), RandomPolicy(), BaselinePolicy(), RandomPolicy()], "nines", seed=8)
    advice = advise_bid("Jk Ah Kh 7c 9d", "h", [1], turned_card="Th", samples=40, rng=3)
    assert pure["totals"] == list(game.totals)
    assert pure["advice"] == [[a.choice, a.expected_score] for a in advice]
    trump = advise_trump("Jk Ah 7c", 1, samples=1, playout_samples=1, rng=2)
    assert pure["trump"] == [[a.choice, a.expected_score] for a in trump]
