"""The table model: its estimate is what it says, its search finds the estimate's best
arrangement, its training is reproducible."""
import itertools
import json
from collections import Counter

import numba
import numpy as np
import pytest

import naive
import solver
from solver.cards import card_name, deck_codes
from solver.model import (M_SCHEME, R_ENV, R_SEP, Field, TableModel, _ev, field_from_rows,
                          hand_tables, mix_fields, model_tables, table_setter)
from solver.policy_training import self_play
from solver.rows import tables_for
from solver.scoring import P_SCHEME, scoring_params, seat_score


def _tiny_model(rule_set, n_seats, seed=0):
    return self_play(rule_set, n_seats, rounds=2, deals=150, seed=seed)


@pytest.fixture(scope="module")
def models():
    return {name: _tiny_model(name, seats) for name, seats in
            [("classic", 2), ("pagat", 3), ("classic:eastern", 2), ("classic:mandarin", 4),
             ("joker", 4), ("bonus", 4)]}


def _ordinal(t, value):
    return int(np.searchsorted(t.values[1:], value)) + 1


# --- the estimate ---------------------------------------------------------------------------
@pytest.mark.parametrize("rule_set", ["classic", "pagat", "classic:eastern", "classic:mandarin"])
def test_heads_up_estimate_is_the_exact_expectation_over_independent_rows(rng, rule_set):
    """Heads-up, the model's estimate is exactly E[settlement] when the opponent's three
    rows are independent draws from the field: checked by summing over every triple of a
    small field with the real settlement core."""
    rs = solver.rule_set(rule_set)
    t = tables_for(rs)
    # A small field of real row values of each row.
    vals = [np.unique(rng.choice(t.values[1:], 7)) for _ in range(3)]
    weights = [rng.random(len(v)) + 0.1 for v in vals]
    field = Field(tuple(np.asarray(v, np.int64) for v in vals), tuple(weights), 0.3, 0.1)
    mt = model_tables(field, rs, t, 2)
    params = scoring_params(rs)
    for _ in range(20):
        ours = np.sort(rng.choice(t.values[1:], 3))
        expected = 0.0
        for combo in itertools.product(*[range(len(v)) for v in vals]):
            p = np.prod([weights[r][i] / weights[r].sum() for r, i in enumerate(combo)])
            table = np.array([ours, [vals[r][i] for r, i in enumerate(combo)]], np.int32)
            expected += p * seat_score(table, 0, 0, 2, 0, params, params[P_SCHEME])
        got = _ev(mt, *(_ordinal(t, v) for v in ours), R_SEP, False, int(mt.params[M_SCHEME]))
        assert got == pytest.approx(expected, abs=1e-5)


def test_upper_bound_is_never_below_the_estimate(models):
    for name, model in models.items():
        rank = 4 if name == "bonus" else -1
        mt = model.tables(rank)
        rng = np.random.default_rng(1)
        n = mt.rows.shape[1]
        for _ in range(2000):
            o = np.sort(rng.integers(1, n, 3))
            lo = [rng.integers(1, x + 1) for x in o]
            scheme = int(mt.params[M_SCHEME])
            assert _ev(mt, *o, R_ENV, True, scheme) >= _ev(mt, *lo, R_SEP, False, scheme) - 1e-9


@pytest.mark.parametrize("rule_set, seats, monotone", [
    ("classic", 4, True), ("pagat", 2, True), ("classic:eastern", 4, False),
    ("classic:mandarin", 4, False), ("joker", 4, False), ("bonus", 4, False)])
def test_the_estimate_is_flagged_monotone_only_where_it_never_falls(rng, rule_set, seats,
                                                                     monotone):
    """M_MONOTONE lets the 13-card search skip the splits the best setting dominates row
    by row; it must be set only where the estimate never falls as a row gets stronger.
    The shipped western and pagat models are (their rows pay no bonus); in the others
    some row's stronger values can earn less."""
    from solver.model import M_MONOTONE
    rs = solver.rule_set(rule_set)
    model = TableModel.shipped(rs, seats)
    mt = model.tables(4 if rs.cut_card else -1)
    assert bool(mt.params[M_MONOTONE]) is monotone
    if monotone:
        scheme = int(mt.params[M_SCHEME])
        n = mt.rows.shape[1]
        for _ in range(3000):
            low = rng.integers(1, n, 3)
            high = np.minimum(low + rng.integers(0, 400, 3), n - 1)
            assert _ev(mt, *low, R_SEP, False, scheme) <= _ev(mt, *high, R_SEP, False, scheme)


def test_the_tiny_models_exercise_both_searches(models):
    """The exhaustive tests below use these models: western and pagat ones that are
    monotone (the search's dominance test runs) and others that are not."""
    from solver.model import M_MONOTONE
    flags = {name: bool(model.tables(4 if name == "bonus" else -1).params[M_MONOTONE])
             for name, model in models.items()}
    assert flags["classic"] and flags["pagat"] and not flags["joker"]


def test_eight_subsets_are_tested_at_once_as_one_at_a_time(rng):
    """The search's vector test of FITS packed subsets (an LLVM intrinsic in compiled
    kernels) sets the bits its plain Python version sets, at every offset of an array
    and for masks and caps that cut anywhere, the extreme values included."""
    from solver.model import FITS, ORD_SHIFT, POS_MASK, _fits

    @numba.njit(cache=False)
    def compiled(packed, at, used, cap):
        return _fits(packed, at, used, cap)

    def five_of_17():
        return sum(1 << int(p) for p in rng.choice(17, 5, replace=False))

    packed = np.array([(int(o) << ORD_SHIFT) | five_of_17()
                       for o in rng.integers(1, 12000, 200)], np.int32)
    packed[:3] = [0, POS_MASK, (11999 << ORD_SHIFT) | POS_MASK]
    seen = set()
    for _ in range(3000):
        at = int(rng.integers(0, len(packed) - FITS + 1))
        used = five_of_17()
        cap = int(rng.choice([0, (1 << 31) - 1, int(rng.choice(packed))]))
        hits = _fits(packed, at, used, cap)
        assert compiled(packed, at, used, cap) == hits
        seen.add(hits)
    assert len(seen) > 20                       # hits of many kinds, none at all included


def test_the_fronts_are_sorted_as_a_stable_sort_by_ordinal(rng):
    """The search's full sort of a hand's Fronts (two counting sorts) orders them as a
    stable sort by ordinal, strongest first, and finds where each bucket begins."""
    from solver.model import ORD_SHIFT, _sort_fully
    for shift, n in ((5, 286), (6, 680), (0, 100)):
        nb = (11663 >> shift) + 1 if shift else 200
        ordinals = rng.integers(1, nb << shift, n)
        ordinals[::5] = ordinals[0]                     # ties
        packed = ((ordinals << ORD_SHIFT) | rng.integers(0, 1 << ORD_SHIFT, n)).astype(np.int32)
        expected = packed[np.argsort(-ordinals, kind="stable")]
        start = np.empty(nb + 1, np.int64)
        out = packed.copy()
        _sort_fully(out, np.empty(n, np.int32), start, shift, nb,
                    np.empty(max(nb, 1 << shift) + 2, np.int64), np.empty(n, np.int32))
        assert (out == expected).all()
        buckets = nb - 1 - (ordinals >> shift)
        assert (start == np.searchsorted(np.sort(buckets), np.arange(nb + 1))).all()


def _set(codes, t, mt):
    """The model's setting as solve's opponents get it (compiled for the scheme)."""
    return table_setter(int(mt.params[M_SCHEME]), len(codes))(codes, t, mt)


# --- the search -----------------------------------------------------------------------------
def _brute_force(codes, t, mt):
    """The best estimate over every legal arrangement of 13 of the cards (slow)."""
    n = len(codes)
    scheme = int(mt.params[M_SCHEME])
    v5 = {c: solver.kernels.ordinal5(*codes[list(c)], t) for c in itertools.combinations(range(n), 5)}
    v3 = {c: solver.kernels.ordinal3(*codes[list(c)], t) for c in itertools.combinations(range(n), 3)}
    best = -np.inf
    for back, ob in v5.items():
        rest = [i for i in range(n) if i not in back]
        for middle in itertools.combinations(rest, 5):
            om = v5[middle]
            if om > ob:
                continue
            left = [i for i in rest if i not in middle]
            for front in itertools.combinations(left, 3):
                of = v3[front]
                if of < om:
                    best = max(best, _ev(mt, of, om, ob, R_SEP, False, scheme))
    return best


@pytest.mark.parametrize("rule_set, n_cards", [("classic", 13), ("pagat", 13),
                                               ("classic:eastern", 13),
                                               ("classic:mandarin", 13), ("joker", 14),
                                               ("bonus", 14)])
def test_search_finds_the_best_estimate(models, rng, rule_set, n_cards):
    import solver.kernels  # noqa: F401  (for _brute_force)
    rs = solver.rule_set(rule_set)
    model = models[rule_set]
    for trial in range(4 if n_cards == 13 else 2):
        cut = card_name(int(rng.integers(52))) if rs.cut_card else None
        exclude = solver.cards.parse_codes(cut, rs) if cut else []
        deck = [c for c in deck_codes(rs) if c not in exclude]
        codes = np.array(rng.choice(deck, n_cards, replace=False), np.int64)
        t = tables_for(rs, cut)
        mt = model.tables(solver.rows.bonus_rank_of(rs, cut))
        f, m, b, ev = _set(codes, t, mt)
        assert ev == pytest.approx(_brute_force(codes, t, hand_tables(mt, codes)), abs=1e-9)
        rows = [" ".join(card_name(int(codes[p])) for p in range(n_cards) if int(x) >> p & 1)
                for x in (f, m, b)]
        assert naive.is_legal(*rows, rule_set, None if cut is None else naive.parse(cut)[0][0])


@numba.njit(cache=False)
def _first_best_arrangement(codes, t, mt):
    """The setting the model has always returned, by exhaustion: Backs, and for each its
    Middles (disjoint, no stronger), in the order of a stable sort by bucket of 2**shift
    consecutive ordinals (strongest bucket first, position order within one); each
    Middle with the strongest Front below it of the cards left (the first in position
    order among equals); the first arrangement with a strictly greater estimate kept."""
    n = codes.shape[0]
    n_ord = t.values.shape[0]
    shift = 0
    while (n_ord >> shift) >= 256:
        shift += 1
    masks5, ords5 = solver.search.five_subsets(codes, t)          # position order
    masks3, ords3 = solver.search.three_subsets(codes, t)
    order = np.argsort(-(ords5 >> shift), kind="mergesort")
    by_mask = np.zeros(1 << n, np.int64)
    for i in range(masks3.shape[0]):
        by_mask[masks3[i]] = ords3[i]
    pos = np.empty(n, np.int64)
    best = -np.inf
    found = (0, 0, 0)
    for pb in order:
        mb, ob = masks5[pb], ords5[pb]
        for pm in order:
            mm, om = masks5[pm], ords5[pm]
            if mm & mb or om > ob:
                continue
            rest = ((1 << n) - 1) ^ mb ^ mm
            k = 0
            for x in range(n):
                if rest >> x & 1:
                    pos[k] = x
                    k += 1
            of, mf = 0, 0
            for i in range(k):
                for j in range(i + 1, k):
                    for l in range(j + 1, k):
                        m3 = (1 << pos[i]) | (1 << pos[j]) | (1 << pos[l])
                        if of < by_mask[m3] < om:
                            of, mf = by_mask[m3], m3
            if of == 0:
                continue
            ev = _ev(mt, of, om, ob, R_SEP, False, np.int64(mt.params[M_SCHEME]))
            if ev > best:
                best = ev
                found = (mf, mm, mb)
    return found[0], found[1], found[2], best


def _random_hand(rng, rs, n_cards):
    cut = card_name(int(rng.integers(52))) if rs.cut_card else None
    exclude = solver.cards.parse_codes(cut, rs) if cut else []
    deck = [c for c in deck_codes(rs) if c not in exclude]
    return np.array(rng.choice(deck, n_cards, replace=False), np.int64), cut


@pytest.mark.parametrize("rule_set, n_cards, hands", [
    ("classic", 13, 60), ("pagat", 13, 60), ("classic:eastern", 13, 60),
    ("classic:mandarin", 13, 60), ("joker", 14, 40), ("bonus", 14, 40)])
def test_search_keeps_the_first_best_arrangement(models, rng, rule_set, n_cards, hands):
    """The branch and bound returns exactly the arrangement (masks and estimate, bit for
    bit) an exhaustive scan in the search's visiting order keeps first: the tie-break
    of every version of the model.  The briefly trained models have many equal records,
    so equal estimates are common here."""
    rs = solver.rule_set(rule_set)
    for _ in range(hands):
        codes, cut = _random_hand(rng, rs, n_cards)
        t = tables_for(rs, cut)
        mt = models[rule_set].tables(solver.rows.bonus_rank_of(rs, cut))
        assert _set(codes, t, mt) == _first_best_arrangement(codes, t, hand_tables(mt, codes))


@pytest.mark.parametrize("rule_set, seats, hands", [("classic", 4, 40), ("classic:mandarin", 4, 40),
                                                    ("joker", 4, 4), ("bonus", 4, 4)])
def test_search_keeps_the_first_best_arrangement_of_whole_hands(rng, rule_set, seats, hands):
    """The same with the shipped models on whole hands (16 and 17 cards for bonus and
    joker: a 17-card hand's Fronts fill eleven 64-bit words)."""
    rs = solver.rule_set(rule_set)
    model = TableModel.shipped(rs, seats)
    for _ in range(hands):
        codes, cut = _random_hand(rng, rs, rs.cards_dealt)
        t = tables_for(rs, cut)
        mt = model.tables(solver.rows.bonus_rank_of(rs, cut))
        assert _set(codes, t, mt) == _first_best_arrangement(codes, t, hand_tables(mt, codes))


def test_a_hand_is_set_with_the_field_of_the_jokers_it_holds(models, rng):
    """Where the deck has jokers, a model keeps a field for each number of jokers a hand
    holds (what its holder meets: opponents without those jokers), and sets a hand with
    its own: the estimate of the setting is the best under that field's tables."""
    from solver.model import N_PARAMS, joker_groups
    rs = solver.rule_set("joker")
    model = models["joker"]
    assert len(model.fields[-1]) == joker_groups(rs) == 4
    assert joker_groups(solver.rule_set("classic")) == 1
    mt = model.tables(-1)
    t = tables_for(rs)
    deck = np.array(deck_codes(rs))
    jokers, plain = deck[deck >= solver.cards.FIRST_JOKER], deck[deck < solver.cards.FIRST_JOKER]
    differs = 0
    for held in (0, 1, 2, 3):
        for _ in range(2):
            codes = np.concatenate([rng.choice(jokers, held, replace=False),
                                    rng.choice(plain, 14 - held, replace=False)])
            own = hand_tables(mt, codes)
            assert (own.params == mt.params[held * N_PARAMS:(held + 1) * N_PARAMS]).all()
            assert (own.rows == mt.rows[3 * held:3 * held + 3]).all()
            ev = _set(codes, t, mt)[3]
            assert ev == pytest.approx(_brute_force(codes, t, own), abs=1e-9)
            if held:
                differs += ev != pytest.approx(_brute_force(codes, t, hand_tables(mt, codes[held:])))
    assert differs > 0


def test_a_western_hand_is_set_with_the_field_of_its_high_cards(models, rng):
    """In the western scheme a model keeps a field for each group of hands by their
    high-card points (jack 1 .. ace 4; cut at the first round's quantiles), and sets a
    hand with its group's tables: the group is how many cuts are below the hand's points,
    and the setting is the one the group's field alone gives."""
    from solver.model import (HIGH_CARD_GROUPS, HIGH_CARD_POINTS, N_PARAMS, group_kind,
                              ONE_GROUP)
    rs = solver.rule_set("classic")
    assert group_kind(rs) == "high cards" and group_kind("classic:eastern") is None
    assert models["pagat"].key == ONE_GROUP and len(models["pagat"].fields[-1]) == 1
    model = models["classic"]
    key = model.key
    assert key.rank_weights == HIGH_CARD_POINTS and key.joker_weight == 0
    assert 3 <= key.groups == len(model.fields[-1]) <= HIGH_CARD_GROUPS
    assert list(key.cuts) == sorted(set(key.cuts))
    mt = model.tables(-1)
    t = tables_for(rs)
    seen = set()
    for _ in range(30):
        codes, _ = _random_hand(rng, rs, 13)
        points = sum(max(0, solver.cards.code_rank(int(c)) - 8) for c in codes)
        g = sum(cut < points for cut in key.cuts)
        assert int(key.of(codes)) == g
        seen.add(g)
        own = hand_tables(mt, codes)
        assert (own.params == mt.params[g * N_PARAMS:(g + 1) * N_PARAMS]).all()
        assert (own.rows == mt.rows[3 * g:3 * g + 3]).all()
        alone = model_tables(model.fields[-1][g], rs, t, 2)
        assert _set(codes, t, mt) == _set(codes, t, alone)
    assert len(seen) >= 3


def test_a_model_file_keeps_its_key(models, tmp_path):
    """A model file keeps the key of its groups (the key of jokers held, the default of
    files written before keys were kept, is not written); a key that does not fit the
    fields is refused."""
    from solver.model import (fields_arrays, jokers_held, key_of_arrays, load_model_file,
                              save_fields)
    for name in ("classic", "joker", "pagat"):
        model = models[name]
        save_fields(tmp_path / f"{name}.npz", model.fields, {}, model.key)
        fields, key = load_model_file(tmp_path / f"{name}.npz")
        assert key == model.key and len(fields[-1]) == key.groups
        arrays = fields_arrays(model.fields, {}, model.key)
        assert ("key_cuts" in arrays) == (name == "classic")
    assert models["joker"].key == jokers_held(4)
    arrays = fields_arrays(models["classic"].fields, {}, models["classic"].key)
    arrays["key_cuts"] = arrays["key_cuts"][::-1].copy()
    with pytest.raises(ValueError, match="cuts"):
        key_of_arrays(arrays, models["classic"].fields)
    with pytest.raises(ValueError, match="groups"):
        TableModel("classic", 2, {-1: models["classic"].fields[-1][:2]},
                   key=models["classic"].key)


@pytest.mark.parametrize("rule_set, limits", [("classic", (1, 10 ** 6)), ("joker", (1,))])
def test_a_limit_on_the_backs_searched_gives_up_only_estimate(rng, rule_set, limits):
    """The inexact search that benchmarks/setter_speed.py measures: a legal setting whose
    estimate is at most the exact one; with a limit the search never reaches, the exact
    setting itself; with one Back, a worse one for some hands."""
    rs = solver.rule_set(rule_set)
    model = TableModel.shipped(rs, 4)
    worse = Counter()
    for _ in range(40 if rs.cards_dealt == 13 else 8):
        codes, cut = _random_hand(rng, rs, rs.cards_dealt)
        t = tables_for(rs, cut)
        mt = model.tables(solver.rows.bonus_rank_of(rs, cut))
        exact = _set(codes, t, mt)
        for limit in limits:
            limited = table_setter(int(mt.params[M_SCHEME]), len(codes), limit)(codes, t, mt)
            rows = [" ".join(card_name(int(codes[p])) for p in range(len(codes))
                             if int(x) >> p & 1) for x in limited[:3]]
            assert naive.is_legal(*rows, rule_set, None)
            assert limited[3] <= exact[3]
            if limit == 10 ** 6:
                assert limited == exact
            worse[limit] += limited[3] < exact[3]
    assert worse[1] > 0


def test_settings_of_every_rule_set_are_legal_and_use_the_hand(models, rng):
    for name, model in models.items():
        rs = solver.rule_set(name)
        for _ in range(60):
            cut = card_name(int(rng.integers(52))) if rs.cut_card else None
            exclude = solver.cards.parse_codes(cut, rs) if cut else []
            deck = [c for c in deck_codes(rs) if c not in exclude]
            hand = " ".join(card_name(int(c)) for c in rng.choice(deck, rs.cards_dealt,
                                                                   replace=False))
            rows = solver.quick_set(hand, rs, cut, policy=model)
            used = " ".join(rows).split()
            assert len(used) == 13 and not Counter(used) - Counter(hand.split())
            assert naive.is_legal(*rows, name, None if cut is None else naive.parse(cut)[0][0])



@pytest.mark.parametrize("rule_set, cut", [("classic", None), ("pagat", None), ("joker", None),
                                           ("bonus", "7h")])
def test_quick_set_sets_a_hand_as_the_batch_setter_does_from_any_thread(rng, rule_set, cut):
    """quick_set's own way to the kernel (solver.policy.one_hand_setter) sets each hand as
    set_hands, the way a solve sets its opponents, does, for every built-in policy; and
    alike when many threads call it at once (the kernels release the GIL)."""
    import concurrent.futures as cf

    from solver.policy import builtin_policy, set_hands
    from solver.rows import bonus_rank_of
    from solver.sampling import prepare_hand
    rs = solver.rule_set(rule_set)
    exclude = solver.cards.parse_codes(cut, rs) if cut else []
    deck = [c for c in deck_codes(rs) if c not in exclude]
    hands = [" ".join(card_name(int(c)) for c in rng.choice(deck, rs.cards_dealt,
                                                            replace=False))
             for _ in range(40)]
    for policy in (None, "field", "sbf"):
        batch_rows = []
        for hand in hands:
            prepared = prepare_hand(hand, rs, cut, None)
            t, own, n_seats = prepared.tables, prepared.own, prepared.seats
            kind, mt, field = builtin_policy(policy, rs, n_seats, bonus_rank_of(rs, cut))
            _, _, masks = set_hands(np.array([[own]], np.int64), t, kind, mt,
                                    scoring_params(rs), field, n_seats, False)
            batch_rows.append([sorted(card_name(own[p]) for p in range(len(own))
                                      if int(m) >> p & 1) for m in masks[0, 0]])
        serial = [solver.quick_set(hand, rs, cut, policy=policy) for hand in hands]
        assert [[sorted(row.split()) for row in rows] for rows in serial] == batch_rows
        with cf.ThreadPoolExecutor(4) as threads:
            for _ in range(3):
                assert list(threads.map(lambda hand: solver.quick_set(
                    hand, rs, cut, policy=policy), hands * 5)) == serial * 5

# --- fields and training --------------------------------------------------------------------
def test_field_mixing_weights_the_histograms():
    a = field_from_rows(np.array([[1, 5, 9], [2, 5, 9]]), q_scoop=0.2, q_sweep=0.0)
    b = field_from_rows(np.array([[2, 6, 9]]), q_scoop=0.4, q_sweep=0.2)
    m = mix_fields(a, b, 0.25)
    assert list(m.values[0]) == [1, 2] and m.weights[0] == pytest.approx([0.375, 0.625])
    assert list(m.values[1]) == [5, 6] and m.weights[1] == pytest.approx([0.75, 0.25])
    assert (m.q_scoop, m.q_sweep) == pytest.approx((0.25, 0.05))


def test_training_is_reproducible(models):
    for name, seats in [("classic", 2), ("joker", 4)]:
        again = _tiny_model(name, seats)
        assert len(again.fields[-1]) == len(models[name].fields[-1])
        for field, before in zip(again.fields[-1], models[name].fields[-1]):
            for r in range(3):
                assert (field.values[r] == before.values[r]).all()
                assert (field.weights[r] == before.weights[r]).all()
            assert (field.q_scoop, field.q_sweep) == (before.q_scoop, before.q_sweep)
    again = _tiny_model("classic", 2).fields[-1][0]
    other = _tiny_model("classic", 2, seed=1).fields[-1][0]
    assert len(other.values[2]) != len(again.values[2]) or \
        (other.weights[2] != again.weights[2]).any()


def test_bonus_model_has_a_field_per_bonus_rank(models):
    assert sorted(models["bonus"].fields) == list(range(13))
    assert sorted(models["joker"].fields) == [-1]


def test_model_pickles_without_its_tables(models):
    import pickle
    model = models["classic"]
    model.tables(-1)
    copy = pickle.loads(pickle.dumps(model))
    assert copy._tables == {} and copy.fields[-1][0].q_scoop == model.fields[-1][0].q_scoop


def test_the_training_command_rebuilds_the_same_file(tmp_path):
    """``python -m solver.policy_training`` on a small configuration, twice: the same
    fields (the shipped files are the same command with the default sizes)."""
    from solver.model import load_fields
    from solver.policy_training import main
    args = ["--only", "classic:mandarin:4", "--rounds", "1", "--deals", "60"]
    main(args + ["--out", str(tmp_path / "a")])
    main(args + ["--out", str(tmp_path / "b")])
    name = "model-classic-mandarin-4seats.npz"
    a, b = load_fields(tmp_path / "a" / name), load_fields(tmp_path / "b" / name)
    for r in range(3):
        assert (a[-1][0].values[r] == b[-1][0].values[r]).all()
        assert (a[-1][0].weights[r] == b[-1][0].weights[r]).all()


def test_shipped_models_record_the_configuration_that_built_them():
    """Every shipped model file is one that ``python -m solver.policy_training`` rebuilds
    (TRAINING), and records the self-play that built it."""
    from solver.model import (DATA, HIGH_CARD_GROUPS, HIGH_CARD_POINTS, group_kind,
                              jokers_held, joker_groups, load_model_file, model_file,
                              model_seats)
    from solver.policy_training import DEALS, ROUNDS, TRAINING
    built = set()
    for rule_set, seats in TRAINING:
        rs = solver.rule_set(rule_set)
        path = model_file(rs, model_seats(rs, seats))
        built.add(path.name)
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
        assert {k: meta[k] for k in ("rules", "seats", "rounds", "deals", "seed")} == dict(
            rules=rs.name, seats=seats, rounds=ROUNDS, deals=DEALS, seed=0)
        # As many fields a Bonus rank as the command builds, and their key: one for each
        # number of jokers a hand can hold where the deck has jokers (files of one field
        # were once shipped for `joker` and `two-jokers` while the command built four and
        # three), for each group of high cards in the western scheme, else one.
        fields, key = load_model_file(path)
        kind = group_kind(rs)
        if kind == "high cards":
            assert key.rank_weights == HIGH_CARD_POINTS and key.groups == HIGH_CARD_GROUPS
        else:
            assert key == jokers_held(joker_groups(rs) if kind == "jokers" else 1)
        for rank, groups in fields.items():
            assert len(groups) == key.groups, (path.name, rank)
    assert built == {p.name for p in DATA.glob("model-*.npz")}


def test_each_round_sees_the_model_a_shorter_training_would_give():
    seen = {}
    self_play("classic", 2, rounds=2, deals=150, seed=3,
              each_round=lambda r, model: seen.setdefault(r, model))
    assert sorted(seen) == [0, 1, 2]
    one = self_play("classic", 2, rounds=1, deals=150, seed=3)
    for r in range(3):
        assert (seen[1].fields[-1][0].values[r] == one.fields[-1][0].values[r]).all()
        assert (seen[1].fields[-1][0].weights[r] == one.fields[-1][0].weights[r]).all()


def test_self_play_groups_hands_as_it_is_told():
    """``self_play(grouping=...)`` (benchmarks/grouped_model.py's way to try a key) keeps a
    field for each group of the key it is given, cut at the first round's quantiles: about
    equal groups of the hands dealt."""
    from solver.model import HIGH_CARD_POINTS, GroupKey, cut_at_quantiles
    from solver.policy_training import deal_round
    key = GroupKey(HIGH_CARD_POINTS, 0, ())
    model = self_play("pagat", 2, rounds=1, deals=200, seed=4,
                      grouping=lambda hands: cut_at_quantiles(key, hands, 3))
    assert model.key.rank_weights == HIGH_CARD_POINTS and model.key.groups == 3
    assert len(model.fields[-1]) == 3
    hands, _ = deal_round(solver.rule_set("pagat"), 200, np.random.default_rng([4, 0]))
    shares = np.bincount(model.key.of(hands).ravel(), minlength=3) / hands[..., 0].size
    assert shares.min() > 0.2
