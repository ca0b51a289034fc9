"""The pool of pre-set opponent hands (solver.pool): its deals (heads-up the pool's hand;
at three or four seats the pool's first hand and the others dealt from the cards left)
are distributed as dealt deals, statistically against real dealing; each setting is the
model's; the streams of one solve never share a hand; solve, sample_opponents and
review agree on them; the cache on disk is read back the same, rebuilt when damaged,
pruned when stale, and optional."""
import numpy as np
import pytest

import solver
from solver import _cache, pool
from solver.policy import builtin_policy, set_hands
from solver.sampling import Deals, deal_unseen, prepare_hand, use_pool
from solver.scoring import scoring_params

HAND = "As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c"
PAIRS = "Ah Ad Kc Ks 9h 9c 7d 6s 5h 4c 3d 2s 2h"


def _set(codes, hand):
    rs = hand.rules
    kind, mt, field = builtin_policy(None, rs, hand.seats, -1)
    return set_hands(codes, hand.tables, kind, mt, scoring_params(rs), field, hand.seats,
                     bool(rs.automatic_wins))


def _real_deals(hand, n, seed):
    """n dealt deals and the model's settings of them (not from the pool)."""
    codes = deal_unseen(hand, n, seed)
    vals, auto, _ = _set(codes, hand)
    return codes, vals, auto


def _pool_deals(hand, n, seed=0):
    got = Deals(hand, seed, None, True, n).hands(n)
    return got.codes, got.vals, got.auto


def test_where_the_pool_applies():
    for seats in (2, 3, 4):
        assert pool.applies(solver.rule_set("classic"), seats, None)
        assert pool.applies(solver.rule_set("pagat"), seats, "table")
    assert pool.applies(solver.rule_set("classic:mandarin"), 4, None)
    assert not pool.applies(solver.rule_set("joker"), 2, None)        # copies of cards
    assert not pool.applies(solver.rule_set("bonus"), 4, None)
    assert not pool.applies(solver.rule_set("classic"), 2, "sbf")     # not the model
    hand = prepare_hand(HAND, "classic", None, 2)
    assert use_pool(hand, None, None, pool.MAX_DEALS)
    assert not use_pool(hand, None, None, pool.MAX_DEALS + 1)
    assert not use_pool(hand, None, False, 10)
    with pytest.raises(ValueError, match="at most"):
        use_pool(hand, None, True, pool.MAX_DEALS + 1)
    # Held-out deals: from the pool up to their own limit, whatever the solve's deals.
    deals = Deals(hand, 0, None, None, pool.MAX_DEALS + 1)
    assert not deals.pooled
    assert deals.held_out_pooled(pool.MAX_HELD_OUT)
    assert not deals.held_out_pooled(pool.MAX_HELD_OUT + 1)
    assert not Deals(hand, 0, None, False, 10).held_out_pooled(10)
    with pytest.raises(ValueError, match="pool must be"):
        use_pool(hand, None, "yes", 10)
    with pytest.raises(ValueError, match="52-card rule sets"):
        solver.solve(HAND + " Jk Kh Qc Jd", "joker", pool=True)
    with pytest.raises(ValueError, match="52-card rule sets"):
        solver.solve(HAND, "classic", players=2, policy="sbf", pool=True)


def test_which_solves_read_the_pool():
    from solver.solve import EFFORTS, POOLED_FAST
    # The default heads-up solve reads the pool, with the preset the pool affords; dealt,
    # the fast preset of 13 cards; at four seats the pool gives one opponent of a deal,
    # and the preset stays the dealt one.
    close = "Td 8d Jc 7c 9s Qs 5h 5s 2h 4s Tc 4d 2c"
    pooled = solver.solve(close, "classic", players=2, seed=1)    # (a seed that caps)
    assert pooled.pooled and pooled.precision == POOLED_FAST["precision"] == 0.01
    assert pooled.capped and pooled.samples == POOLED_FAST["samples"] == pool.MAX_DEALS
    dealt = solver.solve(close, "classic", players=2, pool=False)
    assert not dealt.pooled and dealt.precision == EFFORTS["fast"]["precision"][13]
    assert dealt.samples <= EFFORTS["fast"]["hands"][13]
    four = solver.solve(close, "classic")
    assert four.pooled and four.precision == pytest.approx(3 * EFFORTS["fast"]["precision"][13])
    assert solver.solve(HAND, "classic", players=2, precision=0.2).precision == 0.2
    assert solver.solve(HAND, "pagat", players=3, samples=300).pooled
    assert not solver.solve(HAND, "classic", players=2, pool=False).pooled
    assert not solver.solve(HAND + " Jk Kh Qc Jd", "joker").pooled
    assert not solver.solve(HAND, "classic", players=2, effort="max").pooled
    # More deals than a solve may read: dealt; and the held-out deals never decide it.
    assert not solver.solve(HAND, "classic", players=2, samples=pool.MAX_DEALS + 1,
                            holdout=0).pooled
    few = solver.solve(HAND, "pagat", players=2, samples=100, holdout=pool.MAX_HELD_OUT + 1)
    assert few.pooled and few == solver.solve(HAND, "pagat", players=2, samples=100,
                                              holdout=pool.MAX_HELD_OUT + 1)
    assert (few.front, few.middle, few.back, few.alternatives) == (lambda s: (
        s.front, s.middle, s.back, s.alternatives))(
        solver.solve(HAND, "pagat", players=2, samples=100, holdout=0))


@pytest.mark.parametrize("cards, rules, players", [(HAND, "classic", 2),
                                                   (PAIRS, "classic", 2),
                                                   (PAIRS, "classic", 4),
                                                   (HAND, "pagat", 3)])
def test_pool_deals_are_distributed_as_dealt_ones(cards, rules, players):
    # 2,500 deals each way, for one hand: every unseen card is each opponent's a third
    # of the time, in every position equally often; the opponents' settings (each row's
    # category) and the units of every candidate arrangement agree with real dealing
    # (seeded: the same figures every run; the bounds are 4-5 standard errors).
    n = 2500
    hand = prepare_hand(cards, rules, None, players)
    own = set(hand.own)
    unseen = [c for c in range(52) if c not in own]
    p_codes, p_vals, p_auto = _pool_deals(hand, n)
    r_codes, r_vals, r_auto = _real_deals(hand, n, 12345)
    assert p_codes.shape == r_codes.shape == (n, players - 1, 13)
    for codes in (p_codes, r_codes):
        # Every deal gives out distinct unseen cards (all 39 of them at four seats).
        flat = codes.reshape(n, -1)
        assert all(len(set(row)) == flat.shape[1] and not own & set(row)
                   for row in flat.tolist())
        for j in range(players - 1):
            counts = np.bincount(codes[:, j].ravel(), minlength=52)[unseen]
            z = (counts - n / 3) / np.sqrt(n * (1 / 3) * (2 / 3))
            assert np.abs(z).max() < 4.5, j
            # Positions: a card is as often first as last (the model breaks ties by
            # position).
            first = np.bincount(codes[:, j, 0], minlength=52)[unseen]
            z = (first - n / 39) / np.sqrt(n / 39 * (38 / 39))
            assert np.abs(z).max() < 4.5, j
    # The opponents' settings: each row's category, pool against dealt (two-sample chi²).
    for j in range(players - 1):
        for r in range(3):
            a = np.bincount(p_vals[:, j, r] >> 20, minlength=16)
            b = np.bincount(r_vals[:, j, r] >> 20, minlength=16)
            keep = (a + b) >= 10
            chi2 = (((a - b)[keep]) ** 2 / (a + b)[keep]).sum()
            dof = keep.sum() - 1
            assert chi2 < dof + 5 * np.sqrt(2 * dof), (j, r, a, b)
        assert abs(p_auto[:, j].astype(bool).mean() - r_auto[:, j].astype(bool).mean()) < 0.02
    # Every candidate's mean units: pool deals against dealt ones.
    from solver.scoring import score_candidates
    from solver.search import nondominated_arrangements
    params = scoring_params(hand.rules)
    _, ords = nondominated_arrangements(np.array(hand.own, np.int64), hand.tables, params)
    cand = hand.tables.values[ords].astype(np.int32)
    zeros = np.zeros(p_auto.shape, np.bool_)
    sp = score_candidates(cand, 0, p_vals, zeros, p_auto, params)
    sr = score_candidates(cand, 0, r_vals, zeros, r_auto, params)
    se = np.sqrt(sp.var(axis=1) / n + sr.var(axis=1) / n)
    z = (sp.mean(axis=1) - sr.mean(axis=1)) / np.where(se > 0, se, 1)
    assert np.abs(z).max() < 4.0


def test_the_other_opponents_are_dealt_from_the_cards_left_and_set_by_the_model():
    hand = prepare_hand(PAIRS, "classic", None, 4)
    got = Deals(hand, 3, None, True, 300).hands(300)
    vals, auto, rows = _set(np.ascontiguousarray(got.codes[:, 1:]), hand)
    assert np.array_equal(got.vals[:, 1:], vals) and np.array_equal(got.auto[:, 1:], auto)
    assert np.array_equal(got.rows[:, 1:], rows)
    # The deals do not depend on how they are cut into batches (adaptive sampling's).
    deals = Deals(hand, 3, None, True, 300)
    parts = [deals.hands(k) for k in (22, 22, 44, 100, 112)]
    for field in ("codes", "rows", "vals", "auto"):
        assert np.array_equal(np.concatenate([getattr(p, field) for p in parts]),
                              getattr(got, field))


def test_a_pool_setting_is_the_models():
    rs = solver.rule_set("classic")
    tables = solver.rows.tables_for(rs, None)
    got = pool.chunk(rs, 2, tables, 3)
    kind, mt, field = builtin_policy(None, rs, 2, -1)
    some = got.codes[:300].astype(np.int64)[:, None, :]
    vals, auto, masks = set_hands(some, tables, kind, mt, scoring_params(rs), field, 2, True)
    assert np.array_equal(got.vals[:300], vals[:, 0])
    assert np.array_equal(got.auto[:300], auto[:, 0])
    assert np.array_equal(got.rows[:300], masks[:, 0])
    assert np.array_equal(got.cards[:300], [sum(1 << int(c) for c in h) for h in got.codes[:300]])
    # A chunk is a fixed draw: the same hands whenever it is set.
    assert np.array_equal(pool._set_chunk(rs, 2, tables, 3).codes[:50], got.codes[:50])


def test_a_solves_streams_never_share_a_hand():
    hand = prepare_hand(HAND, "classic", None, 2)
    ahead, back = pool.streams(hand.rules, 2, hand.tables, hand.own, 7)
    a = {tuple(h) for h in ahead.take(1500).codes[:, 0].tolist()}
    read_ahead = set(ahead.read)
    b = {tuple(h) for h in back.take(1500).codes[:, 0].tolist()}
    assert len(a) == len(b) == 1500 and not a & b
    assert ahead.read is back.read and len(ahead.read) > len(read_ahead)
    # The forward stream read the seed's chunks from the first on, the backward one
    # from the last backwards.
    order = pool.chunk_order(7).tolist()
    assert read_ahead == set(order[:len(read_ahead)])
    assert set(ahead.read) - read_ahead == set(order[-(len(ahead.read) - len(read_ahead)):])


def test_every_seed_deals_its_own_hands():
    """Each seed reads the chunks in an order of its own, and each chunk's hands in an
    order of its own: no two seeds deal the same hands (seeds 0 and 54 once started at
    the same chunk and dealt the same ones), and two seeds share about as many hands as
    two uniform draws from the hand's fitting pool hands would (about 6,700)."""
    hand = prepare_hand(HAND, "classic", None, 2)
    n = 40
    firsts = [[tuple(h) for h in _pool_deals(hand, n, seed)[0][:, 0].tolist()]
              for seed in range(64)]
    shared = [len(set(firsts[seed]) & set(firsts[0])) for seed in range(1, 64)]
    assert max(shared) < n
    # Uniform draws would share n * n / 6,700 = 0.24 hands a pair, 15 in all (a seed
    # that reads the same chunk first shares about n * n / 105 = 15 of its hands, one
    # seed in 64).
    assert sum(shared) < 60, shared
    # And the answers differ: their EVs are measured on different deals.
    a, b = (solver.solve(HAND, "classic", players=2, seed=s, samples=300) for s in (0, 54))
    assert a.ev_in_sample != b.ev_in_sample and a.ev != b.ev
    # At four seats the other opponents' hands are each seed's too.
    four = prepare_hand(HAND, "classic", None, 4)
    assert not np.array_equal(_pool_deals(four, 20, 0)[0][:, 1:],
                              _pool_deals(four, 20, 54)[0][:, 1:])


def _mean_units(sol, deals, rules):
    """The mean units of sol's setting against each deal's opponents (settle)."""
    total = 0
    for opponents in deals:
        declared = [j + 1 for j, o in enumerate(opponents) if len(o) == 4]
        table = [(sol.front, sol.middle, sol.back)] + [tuple(o[:3]) for o in opponents]
        total += solver.settle(table, rules, declared=declared or None)[0]
    return total / len(deals)


@pytest.mark.parametrize("players", [2, 4])
def test_solve_sample_opponents_and_review_agree_on_pool_deals(players):
    sol = solver.solve(HAND, "classic", players=players, samples=200, seed=4)
    assert sol.pooled
    opponents = solver.sample_opponents(HAND, "classic", samples=200, seed=4,
                                        players=players)
    given = solver.solve(HAND, "classic", opponents=opponents, players=players)
    assert (given.front, given.middle, given.back, given.ev) == \
        (sol.front, sol.middle, sol.back, sol.ev_in_sample)
    assert sol.ev_in_sample == pytest.approx(_mean_units(sol, opponents, "classic"))
    # The held-out EV is the chosen setting's mean over the held-out deals.
    held = solver.sample_opponents(HAND, "classic", samples=sol.holdout, seed=4,
                                   players=players, held_out=True)
    assert sol.ev == pytest.approx(_mean_units(sol, held, "classic"))
    assert not {str(d) for d in held} & {str(d) for d in opponents}
    # Dealt deals are others.
    dealt = solver.sample_opponents(HAND, "classic", samples=200, seed=4, players=players,
                                    pool=False)
    assert dealt != opponents
    # The adaptive default's deals are the first deals of samples=N.
    adaptive = solver.solve(HAND, "classic", players=players, seed=4)
    first = solver.sample_opponents(HAND, "classic", samples=adaptive.samples, seed=4,
                                    players=players)
    assert adaptive.ev_in_sample == pytest.approx(_mean_units(adaptive, first, "classic"))
    review = solver.review(HAND, (sol.front, sol.middle, sol.back), "classic",
                           players=players, samples=200, seed=4)
    assert review.best.pooled and review.ev == pytest.approx(sol.ev_in_sample)


def test_the_cache_on_disk(tmp_path, monkeypatch):
    import os
    import time
    monkeypatch.setenv(_cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(pool, "_chunks", {})
    monkeypatch.setattr(pool, "_used", set())
    # Pools unused for STALE_DAYS days (another version's) go when a pool is first used.
    stale, recent = tmp_path / "pool" / "pagat-2seats-old", tmp_path / "pool" / "pagat-2seats-new"
    for d in (stale, recent):
        d.mkdir(parents=True)
        (d / "chunk-000.npz").write_bytes(b"")
    long_ago = time.time() - (pool.STALE_DAYS + 1) * 86400
    os.utime(stale, (long_ago, long_ago))
    rs = solver.rule_set("pagat")
    tables = solver.rows.tables_for(rs, None)
    made = pool.chunk(rs, 2, tables, 5)
    path = pool.pool_dir(rs, 2) / "chunk-005.npz"
    assert path.exists() and str(path).startswith(str(tmp_path))
    assert not stale.exists() and recent.exists()
    monkeypatch.setattr(pool, "_chunks", {})
    read = pool.chunk(rs, 2, tables, 5)
    assert read is not made and all(np.array_equal(x, y) for x, y in zip(read, made))
    # A damaged file is set again (and replaced).
    path.write_bytes(b"not a chunk")
    monkeypatch.setattr(pool, "_chunks", {})
    assert all(np.array_equal(x, y) for x, y in zip(pool.chunk(rs, 2, tables, 5), made))
    assert pool._read(path) is not None
    # A cache that cannot be written: the chunks live in memory only.
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv(_cache.CACHE_ENV, str(blocked / "below"))
    monkeypatch.setattr(pool, "_chunks", {})
    assert all(np.array_equal(x, y) for x, y in zip(pool.chunk(rs, 2, tables, 5), made))
    assert not (blocked / "below").exists()
    # SOLVER_CACHE_DIR set empty: memory only.
    monkeypatch.setenv(_cache.CACHE_ENV, "")
    monkeypatch.setattr(pool, "_chunks", {})
    assert pool.pool_dir(rs, 2) is None
    assert all(np.array_equal(x, y) for x, y in zip(pool.chunk(rs, 2, tables, 5), made))
    # Another version of the package or its model keeps its pools apart.
    monkeypatch.setenv(_cache.CACHE_ENV, str(tmp_path))
    assert pool._version_digest() in pool.pool_dir(rs, 2).name


def test_the_notice_of_setting_a_pool_comes_only_the_first_time_on_a_machine(
        tmp_path, monkeypatch, capsys):
    # "setting opponent hands ... once per machine": a later process that sets another
    # chunk of the same pool (another seed's, a session's hands) says nothing.
    monkeypatch.setenv(_cache.CACHE_ENV, str(tmp_path))
    monkeypatch.delenv("SOLVER_QUIET", raising=False)
    for name, empty in (("_chunks", {}), ("_used", set()), ("_told", set())):
        monkeypatch.setattr(pool, name, empty)
    rs = solver.rule_set("pagat")
    tables = solver.rows.tables_for(rs, None)
    pool.chunk(rs, 2, tables, 5)
    assert "setting opponent hands for the pagat pool of 2 seats" in capsys.readouterr().err
    for name, empty in (("_chunks", {}), ("_told", set())):       # as a new process
        monkeypatch.setattr(pool, name, empty)
    pool.chunk(rs, 2, tables, 6)                                  # set now, silently
    pool.chunk(rs, 2, tables, 5)                                  # read from disk
    assert (pool.pool_dir(rs, 2) / "chunk-006.npz").exists()
    assert capsys.readouterr().err == ""
    # Memory only: each process sets its own, and says so once.
    monkeypatch.setenv(_cache.CACHE_ENV, "")
    for name, empty in (("_chunks", {}), ("_told", set())):
        monkeypatch.setattr(pool, name, empty)
    pool.chunk(rs, 2, tables, 5)
    pool.chunk(rs, 2, tables, 6)
    assert capsys.readouterr().err.count("setting opponent hands") == 1
