"""An experiment for the model's exploitability: a model with one field for
each group of hands by a key of their cards (card removal beyond jokers), trained by the
shipped self-play and measured as ``solver.exploitability`` measures the model, without
changing the library.

benchmarks/model_probe.py found where the shipped model's gap is: choosing on deals of
the hand's own unseen cards (card removal) took `classic` heads-up from +0.0086 to
+0.0018, keeping the correlation of an opponent's rows took it nowhere (+0.0079).  The
model already knows one kind of card removal (solver.model.joker_groups: a field for each
number of jokers held, shipped for ``joker`` and ``two-jokers``).  Here the groups are by
a weighted count of a hand's high cards (``--key``, the keys of model_probe.py: ``hcp``
ace 4, king 3, queen 2, jack 1, joker 6), cut into ``--groups`` groups of equal size on
the first round's hands (a hand whose key equals a cut in the lower group).

Training: solver.policy_training.self_play's fictitious play, each hand's group taken
from its key (solver.policy_training._round_fields), every hand set with its own group's
tables: here group by group (solver.policy.set_hands on each group's hands), so that any
key and any rule set can be tried without a model file.  The library ships the ``hcp``
key with 6 groups for the western scheme (solver.model.group_kind): for ``classic`` its
trained model is this script's to the last digit (+0.0206 at four seats, seed 0).

Measure: the same hands (seat 0 of the deals of ``--seed``, 0 by default, automatic wins
left out) and the same deals of the unseen cards as ``solver.exploitability.measure``;
the opponents set by the grouped model, our setting its own; held-out best response as
there.  With ``--groups 1 --shipped`` it measures the shipped model the same way (a check
of this script: the figure must be the library's), one with groups of its own (``joker``,
``two-jokers``, ``classic``) set by the library's kernel, which picks them.

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
from solver.model import mix_fields, model_tables
from solver.policy import POLICY_SBF, POLICY_TABLE, set_hands
from solver.policy_training import (DEALS, ROUNDS, _flat_field, _round_fields, deal_round)
from solver.rules import rule_set
from solver.sampling import deal_unseen
from solver.scoring import score_candidates, scoring_params
from solver.solve import _anchor_candidate
from solver.tables import row_tables

from model_probe import key_weights


class Grouped:
    """A model of G fields and the cuts of the key between its groups."""

    def __init__(self, rs, players, fields, weights, cuts):
        self.rs, self.players, self.weights, self.cuts = rs, players, weights, cuts
        self.models = [TableModel(rs, players, {-1: f}) for f in fields]

    def group(self, hands):
        """The group of each hand of ``hands`` (..., cards)."""
        return np.searchsorted(self.cuts, self.weights[hands].sum(axis=-1), side="left")

    def set(self, hands, t, params):
        """(vals, auto, masks) of ``hands`` (S, k, cards), each set with its group's
        tables."""
        S, k, n = hands.shape
        flat = hands.reshape(S * k, 1, n)
        vals = np.empty((S * k, 1, 3), np.int32)
        auto = np.empty((S * k, 1), np.int8)
        masks = np.empty((S * k, 1, 3), np.int64)
        which = self.group(flat[:, 0])
        field = np.zeros((1, self.players - 1, 3), np.int32)
        for g, model in enumerate(self.models):
            at = np.flatnonzero(which == g)
            if len(at):
                vals[at], auto[at], masks[at] = set_hands(
                    flat[at], t, POLICY_TABLE, model.tables(-1), params, field,
                    self.players, bool(self.rs.automatic_wins))
        return vals.reshape(S, k, 3), auto.reshape(S, k), masks.reshape(S, k, 3)


def train(rs, players, key, groups, rounds, deals, seed, log=print):
    """self_play's fictitious play with groups by ``key`` (see the module docstring)."""
    params = scoring_params(rs)
    t = row_tables(rs, -1)
    weights = key_weights(key)
    field = np.zeros((1, players - 1, 3), np.int32)
    fields, grouped = None, None
    for rnd in range(rounds + 1):
        start = time.perf_counter()
        hands, _ = deal_round(rs, deals, np.random.default_rng([seed, rnd]))
        if rnd == 0:
            keys = weights[hands].sum(axis=-1)
            # (a key of few values, the jokers held, has fewer groups than asked)
            cuts = np.unique(np.quantile(keys, np.linspace(0, 1, groups + 1)[1:-1]))
            mt = model_tables(_flat_field(), rs, t, players)
            vals, auto, _ = set_hands(hands, t, POLICY_SBF, mt, params, field, players,
                                      bool(rs.automatic_wins))
        else:
            vals, auto, _ = grouped.set(hands, t, params)
        held = np.searchsorted(cuts, weights[hands].sum(axis=-1), side="left")
        new = _round_fields(vals, auto, held, len(cuts) + 1)
        fields = new if rnd == 0 else tuple(
            mix_fields(old, now, 2.0 / (rnd + 2)) for old, now in zip(fields, new))
        grouped = Grouped(rs, players, fields, weights, cuts)
        log(f"round {rnd}: {time.perf_counter() - start:.1f} s")
    return grouped


def measure(rs, players, grouped, hands, deals, seed=0, log=print):
    """Each hand's held-out gain of a best response over the grouped model's own setting,
    the opponents set by the grouped model."""
    params = scoring_params(rs)
    half_a, half_b = deals // 2, deals - deals // 2
    gains, start = [], time.perf_counter()
    for index, _, _, got in measured_hands(rs, players, hands, seed):
        own = grouped.set(got.codes[None, None], got.hand.tables, params)[0][0, 0]
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
                vals, auto, _ = grouped.set(opp, got.hand.tables, params)
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
        shipped = TableModel.shipped(rs, a.players)
        if len(shipped.fields[-1]) == 1:
            grouped = Grouped(rs, a.players, shipped.fields[-1], key_weights(a.key),
                              np.array([]))
        else:                   # (groups of its own: the library's kernel picks them)
            grouped = Grouped(rs, a.players, shipped.fields[-1][:1], key_weights(a.key),
                              np.array([]))
            grouped.models = [shipped]
    else:
        grouped = train(rs, a.players, a.key, a.groups, a.rounds, a.deals,
                        seed=a.train_seed)
    print(f"trained in {time.perf_counter() - t0:.0f} s; cuts {grouped.cuts}", flush=True)
    g = measure(rs, a.players, grouped, a.hands, a.measure_deals, a.seed)
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
