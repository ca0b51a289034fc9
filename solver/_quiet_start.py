"""A Ctrl+C while a command of this package is still starting ends it quietly.

``python3 -m solver`` (or ``solver.georgian``, ``solver.arena``) spends its first second
or two importing numpy, Numba and the package, before its ``main`` runs and can catch a
``KeyboardInterrupt``; a Ctrl+C then would print a traceback of the import machinery.
So the package, imported first, installs :func:`_interrupted` as the SIGINT handler when
(and only when) the process was started as one of its commands, and each command's
``main`` puts Python's own handler back (:func:`restore`) before it starts work, where
its own Ctrl+C handling (the line ``interrupted``, exit code 130, workers stopped)
takes over.  A program that imports the package as a library keeps its handler.
"""
import os
import signal
import sys


def _command_module() -> "str | None":
    """The module this process was started to run with ``-m``, or None."""
    argv = getattr(sys, "orig_argv", [])
    for i, word in enumerate(argv[1:], 1):
        if word == "-m":
            return argv[i + 1] if i + 1 < len(argv) else None
        if word.startswith("-m"):
            return word[2:]
        if not word.startswith("-") or word == "-c":
            return None                # a script, or code: not one of our commands
    return None


def _interrupted(signum, frame) -> None:
    # Mid-import nothing is worth cleaning up, and raising would show the traceback.
    try:
        os.write(2, b"interrupted\n")
    finally:
        os._exit(130)                  # 128 + SIGINT, as a shell reports it


def install() -> None:
    """Make a Ctrl+C during start-up end quietly, if this process is one of our commands."""
    module = _command_module()
    if module and (module == "solver" or module.startswith("solver.")):
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, _interrupted)
        except ValueError:             # not the main thread: signals are not ours
            pass


def restore() -> None:
    """Python's own SIGINT handler again, where :func:`install` replaced it."""
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:
        pass
