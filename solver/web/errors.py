"""What the study page's server says when something goes wrong: one line, bounded.

Every error a client reads is ``{"error": message}`` with the message on one line and at
most :data:`MAX_MESSAGE` characters (a rules file of 60 KB quoted back in full would be
no clearer); every line the server logs about an unforeseen exception is one line of at
most :data:`MAX_LOG_LINE` characters -- its type, its message and the innermost frames --
never a traceback, which for a ``RecursionError`` would be a quarter of a megabyte a
request.
"""
from __future__ import annotations

import traceback
from pathlib import Path

from starlette.responses import JSONResponse

MAX_MESSAGE = 1000      # characters of an error message a client reads
MAX_LOG_LINE = 600      # characters of a line the server logs about an unforeseen exception
FRAMES = 3              # innermost frames named in that line


def one_line(text, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line (runs of white space as one space), cut to ``limit``
    characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def exception_line(exc: BaseException, limit: int = MAX_LOG_LINE) -> str:
    """An unforeseen exception in one bounded line: ``Type: message (at file:line in
    function < ...)``, the innermost :data:`FRAMES` frames first."""
    frames = traceback.extract_tb(exc.__traceback__)[-FRAMES:]
    where = " < ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}"
                       for f in reversed(frames))
    message = one_line(exc, limit // 2)
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return one_line(f"{text} (at {where})" if where else text, limit)


def error_response(status: int, message, headers=None) -> JSONResponse:
    """The JSON answer ``{"error": message}`` with HTTP ``status``."""
    return JSONResponse({"error": one_line(message)}, status, headers=headers)
