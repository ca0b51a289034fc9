"""The one place for Numba options, so every kernel is compiled the same way.

``cache=True`` keeps compiled kernels on disk between processes; ``nogil`` lets callers
run kernels from threads.  Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain
Python (slow, but it lets coverage and debuggers see inside them).
"""
import numba

def njit(*args, **kwargs):
    """``numba.njit`` with the project's defaults (cache, nogil, no fastmath)."""
    options = dict(cache=True, nogil=True)
    options.update(kwargs)
    if args and callable(args[0]):
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)
