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
