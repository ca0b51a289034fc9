"""Where the model's exploitability comes from: the same hands and deals as
``solver.exploitability.measure``, with, beside the model's own setting, settings chosen
by estimates that keep one more thing the model's estimate drops.

The model (solver.model) values a setting against one opponent whose three rows are
independent draws from the field, and ignores card removal.  Each probe strategy here
picks, among a hand's non-dominated settings, the best on average over ``--synthetic``
opponents drawn from a *field pool* (the rows the model sets on other deals: its own
play), scored exactly (solver.scoring.score_candidates):

- ``rows``: each opponent's three rows drawn independently from the pool (the model's
  assumption, with the exact settlement: should be close to the model);
- ``strata-K``: the pool cut into K strata by the hand's overall strength (the sum of its
  rows' percentile ranks), a stratum drawn, then its three rows independently within it
  (a mixture: keeps most of the correlation of an opponent's rows);
- ``joint``: whole settings of the pool (every correlation of the rows, no card removal);
- ``removal``: the opponents of deals of this hand's unseen cards (rows independent, from
  those deals: card removal without correlation);
- ``pool-G``, by a key of our cards (``--keys hcp:6``): no sampling, but the model's own
  setter (a :class:`solver.TableModel`'s setting of the hand) fitted to the part of the pool
  that met hands like ours: the pool's hands are cut into G groups of equal size by the
  key of the hand they met (``hcp``: ace 4, king 3, queen 2, jack 1, a joker 6; ``high``:
  one a card ten or higher, a joker 3; ``jokers``: one a joker), and a hand is set
  against its group's field.  ``pool-1`` is the same from the whole pool (the model's
  estimate fitted to the model's own play, where the shipped model's field is the
  average of its training rounds).

What a probe's gap below the model's says is what modelling that thing would buy, at
most (the probes choose by sampling, not by a table).  Held-out as ``measure``: each
hand's gain is judged on deals the choice was not made on.

    python3 benchmarks/model_probe.py --rules classic --players 2 --hands 200 --deals 4096
"""
import argparse
import time

import numpy as np

from solver.exploitability import (_scored, candidates, cross_fitted_gain, hand_seeds,
                                   measured_hands, model_index, t95)
from solver import TableModel
from solver.model import GroupKey, cut_at_quantiles, field_from_rows
from solver.rules import rule_set
from solver.sampling import anchor_setting, deal_hands, sampled_opponents
from solver.scoring import score_candidates, scoring_params
from solver.solve import _anchor_candidate

# Weights of a card in a key of a hand (--keys): ace, king, queen, jack, ten, joker.
# ``joker-hcp``: the jokers first (a joker outweighs any high cards), high cards within.
KEYS = {"hcp": (4, 3, 2, 1, 0, 6), "high": (1, 1, 1, 1, 1, 3), "jokers": (0, 0, 0, 0, 0, 1),
        "joker-hcp": (4, 3, 2, 1, 0, 100)}


def named_key(name):
    """The key ``name`` (KEYS) as a solver.model.GroupKey with no cuts yet."""
    a, k, q, j, t, joker = KEYS[name]
    return GroupKey((0,) * 8 + (t, j, q, k, a), joker, ())


def field_pool(rs, players, hands, deals, seed):
    """Opponent settings the model makes on deals of ``hands`` other hands: vals (N, 3),
    fouled (N,), auto (N,), and the codes of the hand each met (N, cards)."""
    vals, fouled, auto, met = [], [], [], []
    for i in range(hands):
        dealt, cut = deal_hands(rs, players, seed, i)
        got = candidates(dealt[0], rs, cut, players)
        opp = sampled_opponents(got.hand, deals, seed * 7919 + i, None)
        vals.append(opp.vals.reshape(-1, 3))
        fouled.append(opp.fouled.reshape(-1))
        auto.append(opp.auto.reshape(-1))
        met.append(np.repeat(got.codes[None], opp.vals.shape[0] * opp.vals.shape[1], 0))
    return (np.concatenate(vals), np.concatenate(fouled), np.concatenate(auto),
            np.concatenate(met))


class PoolModel:
    """The model's setter fitted to the pool's settings that met hands of one group, by a
    key of the hand (the pool cut into ``groups`` groups of equal size)."""

    def __init__(self, pool, rs, players, key, groups):
        vals, fouled, auto, met = pool
        self.key = cut_at_quantiles(named_key(key), met, groups)
        which = self.key.of(met)
        shipped = TableModel.shipped(rs, players).fields[-1][0]
        plain = (auto == 0) & ~fouled
        self.rs, self.players, self.models = rs, players, []
        for g in range(self.key.groups):
            field = field_from_rows(vals[plain & (which == g)], q_scoop=shipped.q_scoop,
                                    q_sweep=shipped.q_sweep)
            self.models.append(TableModel(rs, players, {-1: field}, name=f"{key} {g}"))

    def choice(self, got):
        """The candidate that is the setting of the hand's group's model (as
        solver.exploitability.model_index finds the shipped model's)."""
        model = self.models[int(self.key.of(got.codes))]
        return _anchor_candidate(got.values, anchor_setting(got.hand, model),
                                 scoring_params(self.rs))


def strength(vals):
    """The sum of the percentile ranks of a setting's three rows in the pool."""
    score = np.zeros(len(vals))
    for r in range(3):
        order = np.argsort(vals[:, r], kind="stable")
        rank = np.empty(len(vals))
        rank[order] = np.arange(len(vals)) / len(vals)
        score += rank
    return score


class Synthetic:
    """Draws synthetic opponents from the pool by one of the probes' recipes."""

    def __init__(self, pool, kind, k=1):
        vals, fouled, auto = pool[:3]
        self.kind, self.pool = kind, pool[:3]
        plain = (auto == 0) & ~fouled
        self.special = np.flatnonzero(~plain)
        self.p_special = len(self.special) / len(vals)
        plain_idx = np.flatnonzero(plain)
        if kind == "strata":
            s = strength(vals[plain_idx])
            cuts = np.quantile(s, np.linspace(0, 1, k + 1)[1:-1])
            which = np.searchsorted(cuts, s, side="left")
            self.strata = [plain_idx[which == j] for j in range(k)]
        else:
            self.strata = [plain_idx]

    def draw(self, n, n_opp, rng):
        vals, fouled, auto = self.pool
        out_v = np.empty((n, n_opp, 3), np.int32)
        out_f = np.zeros((n, n_opp), np.bool_)
        out_a = np.zeros((n, n_opp), np.int8)
        m = n * n_opp
        special = rng.random(m) < self.p_special
        idx = np.empty(m, np.int64)
        idx[special] = rng.choice(self.special, special.sum()) if len(self.special) else 0
        plain = np.flatnonzero(~special)
        flat_v = out_v.reshape(m, 3)
        if self.kind == "joint":
            pick = rng.choice(self.strata[0], len(plain))
            flat_v[plain] = vals[pick]
        else:
            k = rng.integers(len(self.strata), size=len(plain))
            for j, stratum in enumerate(self.strata):
                at = plain[k == j]
                for r in range(3):
                    flat_v[at, r] = vals[rng.choice(stratum, len(at)), r]
        sp = np.flatnonzero(special)
        flat_v[sp] = vals[idx[sp]]
        out_f.reshape(m)[sp] = fouled[idx[sp]]
        out_a.reshape(m)[sp] = auto[idx[sp]]
        return out_v, out_f, out_a


def removal_choice(got, n, seed, params):
    """Opponents of this hand's own deals, each opponent's rows shuffled between deals
    (card removal kept, the rows' correlation dropped)."""
    opp = sampled_opponents(got.hand, n, seed, None)
    rng = np.random.default_rng(seed)
    v = opp.vals.copy()
    plain = (opp.auto == 0) & ~opp.fouled
    for j in range(v.shape[1]):
        rows = np.flatnonzero(plain[:, j])
        for r in range(3):
            v[rows, j, r] = v[rng.permutation(rows), j, r]
    return int(np.argmax(score_candidates(got.values, 0, v, opp.fouled, opp.auto,
                                          params).sum(axis=1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--deals", type=int, default=4096)
    ap.add_argument("--synthetic", type=int, default=16384)
    ap.add_argument("--pool-hands", type=int, default=2000)
    ap.add_argument("--pool-deals", type=int, default=64)
    ap.add_argument("--strata", type=int, nargs="*", default=[4, 16])
    ap.add_argument("--keys", nargs="*", default=["hcp:6"],
                    help="pool-G probes: KEY:GROUPS (KEY one of %s)" % ", ".join(KEYS))
    ap.add_argument("--no-sampling", action="store_true",
                    help="only the model and the pool-G probes (no noise of sampling)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rs = rule_set(a.rules).at_seats(a.players)
    params = scoring_params(rs)
    t0 = time.perf_counter()
    pool = field_pool(rs, a.players, a.pool_hands, a.pool_deals, a.seed + 1000)
    print(f"pool: {len(pool[0]):,} settings in {time.perf_counter() - t0:.0f} s", flush=True)
    probes = {} if a.no_sampling else {"rows": Synthetic(pool, "rows"),
                                          "joint": Synthetic(pool, "joint")}
    for k in [] if a.no_sampling else a.strata:
        probes[f"strata-{k}"] = Synthetic(pool, "strata", k)
    tables = {"pool-1": PoolModel(pool, rs, a.players, "hcp", 1)}
    for spec in a.keys:
        key, groups = spec.split(":")
        tables[f"{key}-{groups}"] = PoolModel(pool, rs, a.players, key, int(groups))
    names = ["model", *probes, *([] if a.no_sampling else ["removal"]), *tables]
    gains = {s: [] for s in names}
    half_a, half_b = a.deals // 2, a.deals - a.deals // 2
    for index, _, _, got in measured_hands(rs, a.players, a.hands, a.seed):
        model = model_index(got)
        if model is None:
            continue
        refs = {"model": model}
        rng = np.random.default_rng([a.seed, index, 99])
        for name, syn in probes.items():
            opp = syn.draw(a.synthetic, a.players - 1, rng)
            refs[name] = int(np.argmax(score_candidates(got.values, 0, *opp, params)
                                       .sum(axis=1)))
        if not a.no_sampling:
            refs["removal"] = removal_choice(got, a.synthetic, a.seed * 31 + index, params)
        for name, probe in tables.items():
            refs[name] = probe.choice(got)
        seed_a, seed_b = hand_seeds(a.seed, index)
        sums_a = _scored(got, model, half_a, seed_a)[0]
        sums_b = _scored(got, model, half_b, seed_b)[0]
        for s, ref in refs.items():
            gains[s].append(cross_fitted_gain(sums_a, half_a, sums_b, half_b, ref))
        if (index + 1) % 25 == 0:
            print(f"{index + 1} hands, {time.perf_counter() - t0:.0f} s: " + ", ".join(
                f"{s} {np.mean(gains[s]):+.4f}" for s in names), flush=True)
    print(f"{a.rules}, {a.players} seats, {len(gains['model'])} hands x {a.deals} deals, "
          f"{a.synthetic} synthetic opponents a choice:")
    g0 = np.array(gains["model"])
    for s in names:
        g = np.array(gains[s])
        h = t95(len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
        d = g - g0
        hd = t95(len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
        print(f"  {s:>10}: {g.mean():+.4f} [{g.mean() - h:+.4f}, {g.mean() + h:+.4f}]"
              f"   minus the model's, paired: {d.mean():+.4f} [{d.mean() - hd:+.4f}, "
              f"{d.mean() + hd:+.4f}]")


if __name__ == "__main__":
    main()
