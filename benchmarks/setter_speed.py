"""What each microsecond of a quick setter buys: the time a hand and the strength of the
setters that need no sampling, from the cheapest to :func:`solver.quick_set`.

    python3 benchmarks/setter_speed.py benchmarks/results/edge-classic-2.json \\
        --json benchmarks/results/setter-speed-classic-2.json

The setters: strongest-back-first (``sbf``), the previous opponent model (``field``),
the table model searching only its first K Backs (``backs=K``: ``solver.model.table_kernel``
with its ``backs`` limit, inexact, never shipped) and the table model itself (``model``:
what ``quick_set`` and every sampled opponent of ``solve`` use).

*Time*: each setter's batch kernel (the one ``solve`` would run for its opponents) on
the same seeded random hands of the truth's rule set, one thread, the setters taking
turns round after round; the median of the rounds' CPU time a hand (the machine is
shared: CPU time is steadier than wall time).  ``quick_set`` adds its Python (parsing,
the rows' texts) to the model's figure.

*Strength*: each setter's choice looked up in a truth table (``benchmarks/edge.py``):
its gain over the model's own setting, against model opponents, with a 95% CI over
hands, and the share of hands where it sets as the model does.  A truth built for the
model's opponents favours the model's own kind of play; it is the measure ``solve``
optimises.
"""
import argparse
import json
import time
from dataclasses import dataclass

import numba
import numpy as np

import solver
from solver.arena import Setter
from solver.cards import card_name, deck_codes
from solver.model import M_SCHEME, table_kernel, table_setter
from solver.policy import _set_hands_field, _set_hands_sbf, builtin_policy, reference_field
from solver.rows import bonus_rank_of, tables_for
from solver.sampling import prepare_hand
from solver.scoring import scoring_params

from edge import TABLE_HEAD, evaluate

BACKS = (2, 4, 8, 16)


@dataclass(frozen=True)
class BacksSetter(Setter):
    """The table model's setting with at most ``backs`` Backs searched (inexact)."""
    backs: int = 16

    def set(self, cards, rules, cut, players, seed):
        hand = prepare_hand(cards, rules, cut, players)
        _, mt, _ = builtin_policy(None, rules, players, bonus_rank_of(rules, cut))
        codes = np.array(hand.own, np.int64)
        masks = table_setter(int(mt.params[M_SCHEME]), len(codes), self.backs)(
            codes, hand.tables, mt)[:3]
        return tuple(" ".join(card_name(hand.own[p]) for p in range(len(hand.own))
                              if m >> p & 1) for m in masks)


def _kernels(rs, seats, cut):
    """name -> run(hands, auto, vals, masks): each setter's batch kernel on all hands."""
    t = tables_for(rs, cut)
    _, mt, _ = builtin_policy(None, rs, seats, bonus_rank_of(rs, cut))
    field = reference_field(rs, seats)
    params = scoring_params(rs)
    scheme, n = int(mt.params[M_SCHEME]), rs.cards_dealt
    runs = {"sbf": lambda h, a, v, m: _set_hands_sbf(h, t, a, v, m, 0, len(h)),
            "field": lambda h, a, v, m: _set_hands_field(h, t, params, field, seats, a, v, m,
                                                         0, len(h))}
    def model(backs):
        kernel = table_kernel(scheme, n, backs)
        return lambda h, a, v, m: kernel(h, t, mt, a, v, m, np.empty(h.shape[:2]), 0, len(h))
    for k in BACKS:
        runs[f"backs={k}"] = model(k)
    runs["model"] = model(None)
    return runs


def time_setters(rs, seats, cut, hands=2000, rounds=7, seed=7):
    """Median CPU microseconds a hand of each setter's kernel, taking turns."""
    exclude = solver.cards.parse_codes(cut, rs) if cut else []
    deck = np.array([c for c in deck_codes(rs) if c not in exclude], np.int64)
    rng = np.random.default_rng(seed)
    h = np.array([rng.choice(deck, rs.cards_dealt, replace=False)
                  for _ in range(hands)])[:, None, :]
    auto = np.zeros(h.shape[:2], np.int8)
    vals = np.zeros(h.shape[:2] + (3,), np.int32)
    masks = np.zeros(h.shape[:2] + (3,), np.int64)
    runs = _kernels(rs, seats, cut)
    for run in runs.values():
        run(h[:2], auto, vals, masks)                              # compile
    times = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.thread_time()
            run(h, auto, vals, masks)
            times[name].append((time.thread_time() - start) / hands * 1e6)
    return {name: float(np.median(x)) for name, x in times.items()}


def time_quick_set(rs, seats, cut, hands=500, rounds=7, seed=7):
    """Median wall microseconds of a ``solver.quick_set`` call (text in, texts out)."""
    exclude = solver.cards.parse_codes(cut, rs) if cut else []
    deck = [c for c in deck_codes(rs) if c not in exclude]
    rng = np.random.default_rng(seed)
    texts = [" ".join(card_name(int(c)) for c in rng.choice(deck, rs.cards_dealt,
                                                             replace=False))
             for _ in range(hands)]
    solver.quick_set(texts[0], rs, cut, players=seats)
    per = []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            solver.quick_set(text, rs, cut, players=seats)
        per.append((time.perf_counter() - start) / hands * 1e6)
    return float(np.median(per))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("truth", help="a truth table of benchmarks/edge.py build")
    p.add_argument("--json", default=None)
    args = p.parse_args()
    numba.set_num_threads(1)
    meta = json.load(open(args.truth))["meta"]
    rs, seats = solver.rule_set(meta["rules"]), meta["players"]
    cut = {16: "7c"}.get(rs.cards_dealt) if rs.cut_card else None
    micro = time_setters(rs, seats, cut)
    quick = time_quick_set(rs, seats, cut)
    setters = ["sbf", "field"] + [BacksSetter(name=f"backs={k}", backs=k) for k in BACKS] \
        + ["model"]
    print(TABLE_HEAD)
    strength = evaluate(args.truth, setters)
    print()
    print("| setter | µs a hand | gain over the model | 95% CI | same setting as the model |")
    print("|---|---:|---:|---|---:|")
    for name, r in strength.items():
        print(f"| {name} | {micro[name]:.1f} | {r['gain']:+.4f} | [{r['ci95'][0]:+.4f}, "
              f"{r['ci95'][1]:+.4f}] | {r['same_as_model']:.0%} |")
    print(f"quick_set, a call: {quick:.1f} µs (the model's kernel {micro['model']:.1f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(truth=args.truth, rules=rs.name, players=seats,
                           cpu_us_a_hand=micro, quick_set_us=quick,
                           strength={k: {x: v[x] for x in ("hands", "gain", "ci95",
                                                           "same_as_model", "gains")}
                                     for k, v in strength.items()}), f, indent=1)


if __name__ == "__main__":
    main()
