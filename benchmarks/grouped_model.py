"""An experiment for the model's exploitability: a model with one field for each group
of hands by a key of their cards (card removal), trained by the shipped self-play and
measured as ``solver.exploitability`` measures the model, for any key and rule set,
without a model file.

benchmarks/model_probe.py found where the shipped model's gap is: choosing on deals of
the hand's own unseen cards (card removal) took `classic` heads-up from +0.0086 to
+0.0018, keeping the correlation of an opponent's rows took it nowhere (+0.0079).  The
groups here are by a weighted count of a hand's cards (``--key``, the keys of
model_probe.py: ``hcp`` ace 4, king 3, queen 2, jack 1, joker 6), cut into ``--groups``
groups of equal size on the first round's hands (a hand whose key equals a cut in the
lower group: solver.model.cut_at_quantiles).

Training: solver.policy_training.self_play with that grouping instead of the rule set's
own (solver.model.group_key); the library's kernel sets each hand with its group's
tables.  The library ships the ``hcp`` key with 6 groups for the western scheme
(solver.model.group_kind): ``--rules classic --groups 6`` trains the shipped ``classic``
model's fields (+0.0206 at four seats, seed 0, as the library measures it).

Measure: the same hands (seat 0 of the deals of ``--seed``, 0 by default, automatic wins
left out) and the same deals of the unseen cards as ``solver.exploitability.measure``;
the opponents set by the trained model, our setting its own; held-out best response as
there.  ``--shipped`` measures the shipped model the same way (a check of this script:
the figure must be the library's, groups or none).

    python3 benchmarks/grouped_model.py --rules classic --players 2 --groups 6 --hands 400
    python3 benchmarks/grouped_model.py --paired FILE     # trained rows against the shipped

``--paired``: each trained row of a file of ``--out`` rows minus the shipped model's row of
the same rule set, seats and hands' seed, hand by hand.
"""
import argparse
import time

import numpy as np

from solver import TableModel
from solver.exploitability import (CHUNK_DEALS, _chunk_seed, cross_fitted_gain, hand_seeds,
                                   measured_hands, t95)
from solver.model import cut_at_quantiles
from solver.policy import POLICY_TABLE, set_hands
from solver.policy_training import DEALS, ROUNDS, self_play
from solver.rules import rule_set
from solver.sampling import deal_unseen
from solver.scoring import score_candidates, scoring_params
from solver.solve import _anchor_candidate

from model_probe import named_key


def set_with(model, hands, t, params):
    """(vals, auto, masks) of ``hands`` (S, k, cards) set by ``model``, each hand with its
    group's tables (the library's kernel picks them)."""
    field = np.zeros((1, model.n_seats - 1, 3), np.int32)
    return set_hands(hands, t, POLICY_TABLE, model.tables(-1), params, field, model.n_seats,
                     bool(model.rules.automatic_wins))


def train(rs, players, key, groups, rounds, deals, seed, log=print):
    """solver.policy_training.self_play, the hands grouped by the key named ``key`` cut
    into ``groups`` groups at the quantiles of the first round's hands."""
    return self_play(rs, players, rounds=rounds, deals=deals, seed=seed, log=log,
                     grouping=lambda hands: cut_at_quantiles(named_key(key), hands, groups))


def measure(rs, players, model, hands, deals, seed=0, log=print):
    """Each hand's held-out gain of a best response over ``model``'s own setting, the
    opponents set by ``model``."""
    params = scoring_params(rs)
    half_a, half_b = deals // 2, deals - deals // 2
    gains, start = [], time.perf_counter()
    for index, _, _, got in measured_hands(rs, players, hands, seed):
        own = set_with(model, got.codes[None, None], got.hand.tables, params)[0][0, 0]
        ref = _anchor_candidate(got.values, own, params)
        if ref is None:
            continue
        seed_a, seed_b = hand_seeds(seed, index)
        sums = []
        for half, s in ((half_a, seed_a), (half_b, seed_b)):
            total = np.zeros(len(got.values))
            for c, at in enumerate(range(0, half, CHUNK_DEALS)):
                n = min(CHUNK_DEALS, half - at)
                opp = deal_unseen(got.hand, n, _chunk_seed(s, c))
                vals, auto, _ = set_with(model, opp, got.hand.tables, params)
                fouled = np.zeros(auto.shape, np.bool_)
                scores = score_candidates(got.values, 0, vals, fouled, auto, params)
                total += (scores - scores[ref]).sum(axis=1)
            sums.append(total)
        gains.append(cross_fitted_gain(sums[0], half_a, sums[1], half_b, ref))
        if len(gains) % 50 == 0:
            log(f"{len(gains)} hands, {time.perf_counter() - start:.0f} s: "
                f"{np.mean(gains):+.4f}")
    return np.array(gains)


def paired(path):
    """For each trained row of the results file ``path``: its gains minus those of the
    shipped model's row of the same rule set, seats and hands' seed, hand by hand (the
    same hands and deals), mean and 95% CI."""
    import json
    rows = [json.loads(line) for line in open(path) if line.strip()]
    shipped = {(r["rules"], r["players"], r["seed"]): r
               for r in rows if r["model"] == "shipped"}
    for r in rows:
        base = shipped.get((r["rules"], r["players"], r["seed"]))
        if r["model"] == "shipped" or base is None:
            continue
        d = np.array(r["gains"]) - np.array(base["gains"])
        h = t95(len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
        print(f"{r['rules']}, {r['players']} seats, seed {r['seed']}, {r['model']} trained "
              f"with seed {r['train_seed']}: {r['mean']:+.4f} against {base['mean']:+.4f}, "
              f"{d.mean():+.4f} [{d.mean() - h:+.4f}, {d.mean() + h:+.4f}], {len(d)} hands")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--key", default="hcp")
    ap.add_argument("--groups", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--deals", type=int, default=DEALS, help="self-play deals a round")
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--measure-deals", type=int, default=4096)
    ap.add_argument("--shipped", action="store_true",
                    help="measure the shipped model (one group) instead of training")
    ap.add_argument("--seed", type=int, default=0,
                    help="the measured hands' seed (as exploitability's --seed)")
    ap.add_argument("--train-seed", type=int, default=0, help="the self-play's seed")
    ap.add_argument("--out", help="append the hands' gains (JSON line) here")
    ap.add_argument("--paired", metavar="FILE",
                    help="print each trained row of FILE against the shipped model, paired")
    a = ap.parse_args()
    if a.paired:
        paired(a.paired)
        return
    rs = rule_set(a.rules).at_seats(a.players)
    t0 = time.perf_counter()
    if a.shipped:
        model = TableModel.shipped(rs, a.players)
    else:
        model = train(rs, a.players, a.key, a.groups, a.rounds, a.deals, seed=a.train_seed)
    print(f"trained in {time.perf_counter() - t0:.0f} s; cuts {model.key.cuts}", flush=True)
    g = measure(rs, a.players, model, a.hands, a.measure_deals, a.seed)
    h = t95(len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
    what = "shipped" if a.shipped else f"{a.key}:{a.groups}"
    print(f"{a.rules}, {a.players} seats, {what}: {g.mean():+.4f} [{g.mean() - h:+.4f}, "
          f"{g.mean() + h:+.4f}], {len(g)} hands x {a.measure_deals} deals, seed {a.seed}, "
          f"{time.perf_counter() - t0:.0f} s")
    if a.out:
        import json
        with open(a.out, "a") as f:
            f.write(json.dumps(dict(
                rules=a.rules, players=a.players, model=what, seed=a.seed,
                train_seed=None if a.shipped else a.train_seed, rounds=a.rounds,
                deals=a.deals, mean=g.mean(), gains=g.tolist())) + "\n")


if __name__ == "__main__":
    main()
