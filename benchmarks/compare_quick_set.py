"""``solver.quick_set`` against an older copy of it: the same outputs and the same errors
on many seeded random hands, and the time a hand of each.

    mkdir -p /tmp/qs-old && git archive main solver | tar -x -C /tmp/qs-old
    mv /tmp/qs-old/solver /tmp/qs-old/solver_old       # the package imports relatively
    python3 benchmarks/compare_quick_set.py --old /tmp/qs-old --hands 100000
    python3 benchmarks/compare_quick_set.py --old /tmp/qs-old --hands 0 --timing

Sameness: for each case (rule set, table size, cut cards), ``--hands`` hands of the
deck (seeded), each passed in one of several forms (canonical text; lower case and
``10``; phone emoji ``A♠️``; commas; a list of codes; a list of texts; UTF-8 bytes),
the cut card as text or as a code, now and then another built-in policy
(``"sbf"``, ``"field"``); both versions must return the same rows.  Then the
same bad inputs (unknown card, a card twice, a card short, a cut card in the hand or
not a card, a bad table size or policy) must raise the same exception with the same
message, each once on a fresh cache and once after a good call with the same other
arguments.

Timing (``--timing``): per rule set, 1000 hands as text, old and new in alternating
rounds on one thread, each in a process of its own (see ``_timing_worker``); the median
of the rounds' CPU time (``time.thread_time``) a hand.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import numba
import numpy as np

# (label, rule set, players, cut cards (one a hand, in turn))
CASES = [("classic 2p", "classic", 2, None), ("classic 4p", "classic", 4, None),
         ("pagat", "pagat", None, None), ("classic:mandarin", "classic:mandarin", None, None),
         ("joker 4p", "joker", 4, None),
         ("bonus 4p", "bonus", 4, ("7c", "As", "2d", "Kh", "Ts", "5s"))]
FORMS = ("text", "text", "text", "lower", "emoji", "commas", "codes", "texts", "bytes")
POLICIES = (None,) * 10 + ("table", "sbf", "field")
EMOJI = {"s": "♠\ufe0f", "h": "♥\ufe0f", "d": "♦\ufe0f", "c": "♣"}


def hand_in_form(codes, form, card_name):
    names = [card_name(int(c)) for c in codes]
    if form == "text":
        return " ".join(names)
    if form == "lower":
        return " ".join(n.lower().replace("t", "10", 1) if n[0] == "T" else n.lower()
                        for n in names)
    if form == "emoji":
        return " ".join(n if n == "Jk" else n[0] + EMOJI[n[1]] for n in names)
    if form == "commas":
        return ", ".join(names)
    if form == "codes":
        return [int(c) for c in codes]
    if form == "texts":
        return names
    return " ".join(names).encode()


def outcome(f, *args, **kwargs):
    """What a call gives: its result, or ("raised", its exception's type, message)."""
    try:
        return f(*args, **kwargs)
    except Exception as e:          # noqa: BLE001 - the type is compared too
        return ("raised", type(e).__name__, str(e))


def same_outputs(old, new, label, rules, players, cuts, n_hands, seed):
    rs = new.rule_set(rules)
    deck = new.cards.deck_codes(rs)
    rng = np.random.default_rng(seed)
    for i in range(n_hands):
        cut = cuts[i % len(cuts)] if cuts else None
        cut_codes = new.cards.parse_codes(cut, rs) if cut else []
        free = [c for c in deck if c not in cut_codes]
        codes = rng.choice(free, rs.cards_dealt, replace=False)
        hand = hand_in_form(codes, FORMS[i % len(FORMS)], new.cards.card_name)
        if cut and i % 5 == 4:
            cut = cut_codes[0]                               # the cut card as a code
        policy = POLICIES[i % len(POLICIES)]
        a = old.quick_set(hand, rules, cut, players=players, policy=policy)
        b = new.quick_set(hand, rules, cut, players=players, policy=policy)
        assert a == b, (label, i, hand, cut, a, b)
    return n_hands


def bad_calls():
    """(args, kwargs) of calls both versions must refuse alike (and two that look bad
    but are not: a comma too many, a cut spade whose second copy is free)."""
    good13 = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c"
    good16 = "As As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c 8c 8d"
    good17 = good16 + " Jk"
    return [
        ((good13.replace("7c", "Zz"), "classic"), {}),                   # unknown card
        ((good13.replace("7c", "7x"), "classic"), {}),
        ((good13.replace("7c", "1c"), "pagat"), {}),
        ((good13.replace("7c", "As"), "classic"), {}),                   # a card twice
        ((good13.replace("7c", "2h"), "classic:mandarin"), {}),
        ((good16.replace("8d", "As"), "bonus", "7c"), {}),               # a third As
        ((good17.replace("8d", "Jk Jk Jk"), "joker"), {}),               # four jokers
        ((good13.replace("7c", "Jk"), "classic"), {}),                   # no jokers
        ((good13.replace(" 7c", ""), "classic"), {}),                    # a card short
        ((good13 + " 8s", "classic"), {}),                               # a card over
        ((good17 + " 3h", "joker"), {}),
        (("", "classic"), {}),
        ((good13.replace("7c", "AsKs"), "classic"), {}),                 # compact words
        ((good13.replace("7c", "7c,,"), "classic"), {}),
        ((good13.encode("latin-1") + b"\xff", "classic"), {}),            # bad bytes
        (([12, 12] + list(range(13, 24)), "classic"), {}),               # codes twice
        ((list(range(52, 65)), "classic"), {}),                          # a second spade
        ((list(range(12)) + [70], "classic"), {}),
        ((good16, "bonus", "7c"), {}),                                   # cut in the hand
        ((good16, "bonus", "As"), {}),                                   # both As held
        ((good16, "bonus", "Ks"), {}),                                   # Ks: one left
        ((good16, "bonus", "Jk"), {}), ((good16, "bonus", "Zz"), {}),    # bad cut cards
        ((good16, "bonus", "7c 8c"), {}), ((good16, "bonus", 99), {}),
        ((good16, "bonus", 7.0), {}), ((good16, "bonus"), {}),
        ((good13, "classic", "7c"), {}),
        ((good13, "classic"), {"players": 5}), ((good13, "classic"), {"players": True}),
        ((good17, "joker"), {"players": 2}),
        ((good13, "classic"), {"policy": "nope"}), ((good13, "classic"), {"policy": 3}),
        ((good13.replace("7c", "Zz"), "classic"), {"players": 5}),       # which first
        ((good13.replace("7c", "Zz"), "classic"), {"policy": "nope"}),
        ((good13, "poker"), {}),
        ((None, "classic"), {}), ((2.5, "classic"), {}),
    ]


def same_errors(old, new):
    """Each bad call twice on each version: on a fresh cache, and after a good call
    with the same rules, cut, players and policy (the cached path)."""
    good = {"classic": "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c",
            "pagat": "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c",
            "classic:mandarin": "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c",
            "joker": "As As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c 8c 8d Jk",
            "bonus": "Ah Kh Qh Jh Th 9h 9d 9c 2h 2d 5c 6c 3c 8c 8d 3h"}
    refused = accepted = 0
    for args, kwargs in bad_calls():
        for module in (old, new):
            getattr(module.quickset, "_SETUPS", {}).clear()
        first = [outcome(m.quick_set, *args, **kwargs) for m in (old, new)]
        if args[1] in good:
            warm = (good[args[1]],) + args[1:]
            for m in (old, new):
                outcome(m.quick_set, *warm, **kwargs)
        again = [outcome(m.quick_set, *args, **kwargs) for m in (old, new)]
        assert first[0] == first[1] == again[0] == again[1], (args, kwargs, first, again)
        if first[0][0] == "raised":
            refused += 1
        else:
            accepted += 1
    return refused, accepted


def _timing_worker(package, old_dir, conn, rounds, n_hands):
    """One version's side of the timing, in a process of its own: Numba keeps one
    process-wide cache of argument types by their layout, and the two versions' row
    tables (NamedTuples of the same name and fields) share a layout but not a type, so
    in one process the second version to run would miss that cache on every call."""
    sys.path.insert(0, old_dir)
    numba.set_num_threads(1)
    module = __import__(package)
    for rules, n, cut in TIMED:
        rs = module.rule_set(rules)
        exclude = module.cards.parse_codes(cut, rs) if cut else []
        deck = [c for c in module.cards.deck_codes(rs) if c not in exclude]
        rng = np.random.default_rng(7)
        hands = [" ".join(module.cards.card_name(int(c))
                          for c in rng.choice(deck, n, replace=False))
                 for _ in range(n_hands)]
        module.quick_set(hands[0], rules, cut)                          # warm
        for _ in range(rounds):
            conn.recv()                                                 # our turn
            t0 = time.thread_time()
            for hand in hands:
                module.quick_set(hand, rules, cut)
            conn.send((time.thread_time() - t0) / n_hands * 1e6)


TIMED = [("joker", 17, None), ("bonus", 16, "7c"), ("classic", 13, None),
         ("pagat", 13, None), ("classic:mandarin", 13, None)]


def timing(old_dir, rounds=9, n_hands=1000):
    """Old and new in two processes taking turns, a round each (so that both see the
    same load on a shared machine)."""
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    sides = {}
    for name, package in (("old", "solver_old"), ("new", "solver")):
        ours, theirs = ctx.Pipe()
        ctx.Process(target=_timing_worker, args=(package, old_dir, theirs, rounds, n_hands),
                    daemon=True).start()
        sides[name] = ours
    print(f"{'rule set':18s} {'old µs':>8s} {'new µs':>8s} {'new/old':>8s}")
    for rules, _, _ in TIMED:
        times = {"old": [], "new": []}
        for _ in range(rounds):
            for name, conn in sides.items():
                conn.send("go")
                times[name].append(conn.recv())
        a, b = statistics.median(times["old"]), statistics.median(times["new"])
        print(f"{rules:18s} {a:8.1f} {b:8.1f} {b / a:8.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="folder holding the package solver_old")
    parser.add_argument("--hands", type=int, default=100_000, help="hands a case")
    parser.add_argument("--timing", action="store_true")
    args = parser.parse_args()
    numba.set_num_threads(1)
    sys.path.insert(0, args.old)
    import solver
    import solver_old
    if args.hands:
        for k, (label, rules, players, cuts) in enumerate(CASES):
            n = same_outputs(solver_old, solver, label, rules, players, cuts, args.hands, k)
            print(f"{label:18s} {n} hands: same rows", flush=True)
        refused, accepted = same_errors(solver_old, solver)
        print(f"bad inputs: {refused} calls refused with the same errors "
              f"({accepted} edge cases accepted alike)", flush=True)
    if args.timing:
        timing(args.old)


if __name__ == "__main__":
    main()
