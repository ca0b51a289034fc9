"""Progress bars on stderr for long work: a batch's hands (:func:`solver.solve_many`)
and the opponent hands of a solve of many deals (:mod:`solver.sampling`).  A bar is drawn
by tqdm; ``progress=None`` (the default everywhere) draws it only when stderr is a
terminal and ``SOLVER_QUIET=1`` is not set (``python3 -m solver --quiet`` sets it)."""
from __future__ import annotations

import sys
from typing import Optional

from ._jit import notices_enabled


def shown(progress: Optional[bool] = None) -> bool:
    """Whether to draw a bar: ``progress`` if given, else whether stderr is a terminal
    and the notices are not turned off (``SOLVER_QUIET=1``)."""
    if progress is not None:
        return progress
    return sys.stderr.isatty() and notices_enabled()


class _NoBar:
    def update(self, n):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def bar(progress: Optional[bool], total: Optional[int], desc: Optional[str], unit: str):
    """A context manager giving a tqdm bar on stderr (``update(n)``: n more done) when
    :func:`shown` ``(progress)``, else one that draws nothing."""
    if not shown(progress):
        return _NoBar()
    from tqdm import tqdm
    # (Millions of opponent hands read better as 2.7M/6.0M; a few hands as 3/3.)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr,
                unit_scale=total is not None and total >= 100_000)


def time_left(points, total: int, round_size: int) -> Optional[float]:
    """Seconds left of work of ``total`` units done in rounds of ``round_size`` units,
    from the ``points`` heard so far, ``(time, done)`` each in order: the work left at
    the pace of the whole rounds from the second on (from the first point of the second
    round to the first point of the latest round begun); None until a third round has
    begun.

    A training's first round sets the hands with strongest-back-first, about three times
    as fast as the model of the rounds after it, and each round ends with a pause (the
    model's fitting) that no deal counts.  Measured from the start, the estimate grew
    from 24 s to a minute as the later rounds came (the real time left: a minute and a
    half); measured to any point within a round, it jumps at each pause.  Measured over
    whole rounds, pauses included, it falls as the time does.

    >>> points = [(0.0, 100), (1.0, 1100), (3.0, 1300), (4.0, 2100), (5.0, 2300)]
    >>> time_left(points[:3], 3000, round_size=1000) is None       # still the second round
    True
    >>> time_left(points, 3000, round_size=1000)                    # 3 s a 1000 deals
    2.1
    """
    starts = {}                          # round -> its first point
    for t, d in points:
        starts.setdefault((d - 1) // round_size, (t, d))
    latest = max(starts, default=0)
    if latest < 2:
        return None
    (t1, d1), (tk, dk) = starts[1], starts[latest]
    if tk <= t1:                 # (heard together: no pace yet)
        return None
    left = (total - points[-1][1]) * (tk - t1) / (dk - d1)
    # Work left is never "0.0 s" left: a tenth at least, until it is done.
    return max(round(left, 1), 0.1) if points[-1][1] < total else 0.0
