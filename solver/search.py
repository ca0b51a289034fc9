"""Exact search over every arrangement of 13 of a hand's cards (jitted).

A hand of ``n`` cards (13, 16 or 17) is addressed by *positions* 0..n-1; a subset is an
``n``-bit mask of positions.  Row strength is handled as ordinals (dense, and ordered like
values; see :mod:`solver.tables`).

Why pruning by dominance is exact
---------------------------------
Fix the opponents' settings of every sample.  Raising one of our rows' values, while that
row's bonus units (the rule set's bonus table entry for the row and category) do not
drop, never lowers our score against any opponent in any scheme: a lost row can only
turn into a tie or a win, a tie only into a win; a row we win pays the bonus of our
category, which did not drop (Eastern pays ``max(1, bonus)``, Mandarin adds it); a row we
lose pays the opponent's bonus, unchanged; scoops, shots and home runs we make can only
appear, those made against us only disappear, and a foul or a declared automatic win
elsewhere does not depend on our rows at all.  So arrangement X *dominates* Y when, row by
row, ``value_X >= value_Y`` and ``bonus_X >= bonus_Y``; X then scores at least as much as
Y against every sample, hence in mean.  The best legal arrangement is therefore among
the legal arrangements that no other legal arrangement dominates, and those are all this
module returns.  In ``bonus`` the bonus units are not monotone in strength (a Middle
straight flush outranks bonus quads but earns 2, not 5), which is why bonus units are a
dimension of their own and not implied by value.

How the non-dominated set is found without visiting 171 million arrangements
---------------------------------------------------------------------------------
Backs are visited strongest first.  A Back is skipped outright when a bound of every
arrangement it could head -- its own value and bonus, the strongest Middle of the other
cards no stronger than it, the best Middle bonus of such Middles, and the strongest
Front of the other cards -- is dominated by a candidate already found (so is every
arrangement it heads).  For each other Back B, Middles M are visited strongest first
among those disjoint from B with ``M <= B``; the Front is then the strongest 3 of the remaining cards below M (every rule
set's Front bonus grows with strength, checked by :func:`front_bonus_is_monotone`, so the
strongest legal Front dominates the others).  A later (weaker) M is kept only if no
earlier kept M of this B has a Front and a Middle bonus at least as good.  Finally the
candidates of all Backs are filtered for dominance across Backs.
"""
from __future__ import annotations

import numpy as np

from ._jit import njit
from .kernels import ordinal3, ordinal_of_word5
from .rules import RuleSet, dominance_premise_failure, front_premise_failure
from .scoring import row_bonus


def front_bonus_is_monotone(rules: RuleSet) -> bool:
    """Whether a stronger Front never earns fewer units than a weaker one when it wins
    (bonus table, and Front-trips points), the premise of taking the strongest legal
    Front (:func:`solver.rules.front_premise_failure`, which a rule-set file must pass
    to load).  True for every shipped rule set; :func:`solver.solve` checks it."""
    return front_premise_failure(rules) is None


def dominance_failure(rules: RuleSet) -> "str | None":
    """Why pruning by dominance (this module's docstring) would not be exact under
    ``rules``, or None where it is (:func:`solver.rules.dominance_premise_failure`, which
    a rule-set file must pass to load)."""
    failure = dominance_premise_failure(rules)
    return None if failure is None else failure.reason


@njit
def cards_of_mask(mask, codes):
    """The card codes at the positions set in ``mask`` (a row of at most 13 cards)."""
    out = np.empty(13, np.int64)
    k = 0
    for i in range(codes.shape[0]):
        if mask >> i & 1:
            out[k] = codes[i]
            k += 1
    return out[:k]


@njit
def argsort_desc(keys, digits):
    """The indices of ``keys`` (non-negative, below ``256 ** digits``) ordered by key,
    highest first, equal keys in index order: ``np.argsort(-keys, kind="mergesort")``.

    A least-significant-digit radix sort, one stable counting pass per byte: plain loops
    that compile in a fraction of the time NumPy's generic sort takes to compile (a
    first run is mostly compiling)."""
    n = keys.shape[0]
    order = np.empty(n, np.int64)
    for i in range(n):
        order[i] = i
    spare = np.empty(n, np.int64)
    start = np.empty(257, np.int64)
    for d in range(digits):
        shift = 8 * d
        for b in range(257):
            start[b] = 0
        for i in range(n):
            start[256 - ((keys[order[i]] >> shift) & 255)] += 1   # high bytes first
        for b in range(256):
            start[b + 1] += start[b]
        for i in range(n):
            b = 255 - ((keys[order[i]] >> shift) & 255)
            spare[start[b]] = order[i]
            start[b] += 1
        order, spare = spare, order
    return order


@njit
def five_subsets(codes, t):
    """Masks and ordinals of every 5-card subset of the hand, in lexicographic order.

    The lookup of :func:`solver.kernels.ordinal5`, from shared sums: a subset is a pair of
    cards a < b and a triple of later cards, whose words (sums of ``card_word``, see
    :mod:`solver.tables`) and masks are made once, in lexicographic order, so that a
    pair's triples are the suffix from ``first[b + 1]`` and the loop over them is long and
    simple."""
    n = codes.shape[0]
    count = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120
    masks = np.empty(count, np.int64)
    ords = np.empty(count, np.int64)
    word = t.card_word[codes]
    n3 = n * (n - 1) * (n - 2) // 6
    words3 = np.empty(n3, np.int64)
    masks3 = np.empty(n3, np.int64)
    first = np.empty(n + 1, np.int64)        # first[c]: first triple of cards c and above
    q = 0
    for c in range(n):
        first[c] = q
        for d in range(c + 1, n):
            for e in range(d + 1, n):
                words3[q] = word[c] + word[d] + word[e]
                masks3[q] = (1 << c) | (1 << d) | (1 << e)
                q += 1
    first[n] = n3
    k = 0
    for a in range(n):
        for b in range(a + 1, n):
            w, m = word[a] + word[b], (1 << a) | (1 << b)
            # Views, so that every index in the loop counts from 0: Numba then drops its
            # test for a negative index (a third of the time, side by side).
            tail_words, tail_masks = words3[first[b + 1]:], masks3[first[b + 1]:]
            size = tail_words.shape[0]
            out_masks, out_ords = masks[k:k + size], ords[k:k + size]
            for i in range(size):
                out_masks[i] = m | tail_masks[i]
                out_ords[i] = ordinal_of_word5(w + tail_words[i], t)
            k += size
    return masks, ords


@njit
def three_subsets(codes, t):
    """Masks and ordinals of every 3-card subset of the hand."""
    n = codes.shape[0]
    count = n * (n - 1) * (n - 2) // 6
    masks = np.empty(count, np.int64)
    ords = np.empty(count, np.int64)
    k = 0
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                masks[k] = (1 << a) | (1 << b) | (1 << c)
                ords[k] = ordinal3(codes[a], codes[b], codes[c], t)
                k += 1
    return masks, ords


@njit
def fronts_by_positions(codes, t):
    """Every 3-card Front of the hand: its ordinal addressed by positions [x, y, z]
    (x < y < z), and the masks and ordinals as lists (in that order of positions)."""
    n = codes.shape[0]
    by_pos = np.empty((n, n, n), np.int32)   # (only [x, y, z] with x < y < z is read)
    count = n * (n - 1) * (n - 2) // 6
    masks = np.empty(count, np.int64)
    ords = np.empty(count, np.int64)
    i = 0
    for x in range(n):
        for y in range(x + 1, n):
            for z in range(y + 1, n):
                o = ordinal3(codes[x], codes[y], codes[z], t)
                by_pos[x, y, z] = o
                masks[i] = (1 << x) | (1 << y) | (1 << z)
                ords[i] = o
                i += 1
    return by_pos, masks, ords


@njit(inline="always")
def best_front_below(rest, cap, n, by_pos, pos):
    """(ordinal, mask) of the strongest Front of the positions in ``rest`` with ordinal
    below ``cap``; ordinal 0 when there is none.  ``pos``: scratch of at least n ints.
    (A Back and a Middle leave 3 to 7 cards: at most 35 lookups.)"""
    k = 0
    for x in range(n):
        if rest >> x & 1:
            pos[k] = x
            k += 1
    best = 0
    best_mask = 0
    for i in range(k):
        for j in range(i + 1, k):
            for l in range(j + 1, k):
                o = by_pos[pos[i], pos[j], pos[l]]
                if best < o < cap:
                    best = o
                    best_mask = (1 << pos[i]) | (1 << pos[j]) | (1 << pos[l])
    return best, best_mask


@njit
def _dominator(kept, n_kept, cand, hint):
    """The index of a kept row (of kept[:n_kept]) that is >= cand in every column (one
    that dominates it), or -1: row ``hint`` first, when it is one (>= 0), then the first.
    (One row often dominates a run of consecutive Backs: tried first, it saves most of
    the scan.  The test is written out twice: one loop over the hint and then the rows,
    or a helper for the test, ran 12% and 300% slower.)"""
    if hint >= 0:
        ok = True
        for c in range(cand.shape[0]):
            if kept[hint, c] < cand[c]:
                ok = False
                break
        if ok:
            return hint
    for i in range(n_kept):
        ok = True
        for c in range(cand.shape[0]):
            if kept[i, c] < cand[c]:
                ok = False
                break
        if ok:
            return i
    return -1


@njit
def _doubled(a):
    """A copy of a 2-D int64 array with twice the rows (callers grow only when full: a call
    per append would cost more than the search itself)."""
    b = np.empty((2 * a.shape[0], a.shape[1]), np.int64)     # (a.dtype: 2 s to compile)
    # An explicit loop: a slice assignment compiles Numba's shape-mismatch error message
    # with it, 3 s of a first run's compiling.
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            b[i, j] = a[i, j]
    return b


@njit
def _candidates_of_back(pb, full, sorted_masks, sorted_ords, first, bonus5_m, bonus5_b,
                        later_bonus_m, by_pos, pos, front_bound, kept, cand, n_cand):
    """Append to ``cand`` the (Back pb, Middle, Front) arrangements not dominated by
    another with the same Back; return the new count, or -1 when an array is full.
    ``front_bound``: the strongest Front the Back's cards leave."""
    n5 = sorted_ords.shape[0]
    n = by_pos.shape[0]
    mb = sorted_masks[pb]
    probe = np.empty(2, np.int64)
    n_kept = np.int64(0)
    for pm in range(first[pb], n5):
        mm = sorted_masks[pm]
        if mm & mb:
            continue
        om = sorted_ords[pm]
        probe[0] = bonus5_m[pm]
        probe[1] = min(front_bound, om - 1)   # a bound of this Middle's Front
        if _dominator(kept, n_kept, probe, np.int64(-1)) >= 0:
            continue
        of, mf = best_front_below(full ^ mb ^ mm, om, n, by_pos, pos)
        if of == 0:
            continue                          # no legal Front below this Middle
        probe[1] = of
        if _dominator(kept, n_kept, probe, np.int64(-1)) >= 0:
            continue
        if n_kept == kept.shape[0] or n_cand == cand.shape[0]:
            return -1
        kept[n_kept, 0] = probe[0]
        kept[n_kept, 1] = probe[1]
        n_kept += 1
        cand[n_cand, 0] = sorted_ords[pb]
        cand[n_cand, 1] = bonus5_b[pb]
        cand[n_cand, 2] = om
        cand[n_cand, 3] = probe[0]
        cand[n_cand, 4] = probe[1]
        cand[n_cand, 5] = mb
        cand[n_cand, 6] = mm
        cand[n_cand, 7] = mf
        n_cand += 1
        if probe[1] == front_bound and probe[0] >= later_bonus_m[pm]:
            break                             # every later Middle is dominated
    return n_cand


@njit
def nondominated_arrangements(codes, t, params):
    """Every legal arrangement of 13 of ``codes`` that no other legal one dominates.

    Returns ``(masks, ords)``: masks[i] = (front, middle, back) position masks and
    ords[i] = their ordinals, strongest Back first.
    """
    n = codes.shape[0]
    full = (1 << n) - 1
    masks5, ords5 = five_subsets(codes, t)
    n5 = ords5.shape[0]
    # (Counts as np.int64, not literals: a literal argument compiles a callee again, for
    # that value, and a first run is mostly compiling.)
    order = argsort_desc(ords5, np.int64(2))
    sorted_ords = ords5[order]
    # first[p]: the first sorted position whose ordinal equals sorted_ords[p], so a scan
    # from there visits exactly the subsets no stronger than subset p.
    first = np.empty(n5, np.int64)
    for p in range(n5):
        first[p] = p if p == 0 or sorted_ords[p] != sorted_ords[p - 1] else first[p - 1]
    sorted_masks = masks5[order]
    bonus5_m = np.empty(n5, np.int64)
    bonus5_b = np.empty(n5, np.int64)
    for p in range(n5):
        v = t.values[sorted_ords[p]]
        bonus5_m[p] = row_bonus(params, 1, v)
        bonus5_b[p] = row_bonus(params, 2, v)
    # later_bonus_m[p]: the best Middle bonus at sorted position p or after.
    later_bonus_m = bonus5_m.copy()
    for p in range(n5 - 2, -1, -1):
        later_bonus_m[p] = max(later_bonus_m[p], later_bonus_m[p + 1])
    by_pos, masks3, ords3 = fronts_by_positions(codes, t)
    pos = np.empty(n, np.int64)

    # Candidates: columns back ord, back bonus, middle ord, middle bonus, front ord, then
    # back/middle/front masks.
    cand = np.empty((4096, 8), np.int64)
    kept = np.empty((64, 2), np.int64)       # per Back: (middle bonus, front ord)
    n_cand = np.int64(0)
    front_order = argsort_desc(ords3, np.int64(2))
    bound = np.empty(5, np.int64)
    hint = np.int64(-1)                  # the candidate that last ruled out a Back
    for pb in range(n5):
        # Skip the Back when even an arrangement of its strongest possible Middle (no
        # stronger than it, of its cards' complement) and Front (the best its cards leave)
        # is dominated by a candidate found with a stronger Back: every arrangement it
        # heads is dominated too.
        mb = sorted_masks[pb]
        mid = 0
        for pm in range(first[pb], n5):
            if sorted_masks[pm] & mb == 0:
                mid = sorted_ords[pm]
                break
        if mid == 0:
            continue                      # no Middle at all
        f_bound = 0
        for i in front_order:
            if masks3[i] & mb == 0:
                f_bound = ords3[i]
                break
        bound[0] = sorted_ords[pb]
        bound[1] = bonus5_b[pb]
        bound[2] = mid
        bound[3] = later_bonus_m[first[pb]]
        bound[4] = min(f_bound, mid - 1)
        found = _dominator(cand, n_cand, bound, hint)
        if found >= 0:
            hint = found
            continue
        while True:
            done = _candidates_of_back(pb, full, sorted_masks, sorted_ords, first, bonus5_m,
                                       bonus5_b, later_bonus_m, by_pos, pos, f_bound, kept,
                                       cand, n_cand)
            if done >= 0:
                n_cand = done
                break
            # Out of room: grow and redo this Back.  (Growing inside the hot loop, by
            # reassigning the arrays there, slows Numba's loop several times over.)
            cand = _doubled(cand)
            kept = _doubled(kept)
    cand = cand[:n_cand]
    # Across Backs: strongest (back, middle, front) first, so a dominating candidate is
    # always met before the ones it dominates.
    key = (cand[:, 0] << 32) | (cand[:, 2] << 16) | cand[:, 4]
    order = argsort_desc(key, np.int64(6))
    final = np.empty((n_cand, 5), np.int64)
    n_final = np.int64(0)
    out_masks = np.empty((n_cand, 3), np.int64)
    out_ords = np.empty((n_cand, 3), np.int64)
    hint = np.int64(-1)
    for i in order:
        row = cand[i, :5]
        found = _dominator(final, n_final, row, hint)
        if found >= 0:
            hint = found
            continue
        for c in range(5):               # (not a slice assignment: see _doubled)
            final[n_final, c] = row[c]
        out_masks[n_final, 0] = cand[i, 7]
        out_masks[n_final, 1] = cand[i, 6]
        out_masks[n_final, 2] = cand[i, 5]
        out_ords[n_final, 0] = cand[i, 4]
        out_ords[n_final, 1] = cand[i, 2]
        out_ords[n_final, 2] = cand[i, 0]
        n_final += 1
    return out_masks[:n_final], out_ords[:n_final]
