"""What the package's command lines share: ``python3 -m solver`` (:mod:`solver.__main__`)
and ``python3 -m solver.arena`` build their parsers from :class:`Parser` and
:class:`Formatter` and run their commands through :func:`run_command`, so both have the
same conventions: one shown default per option, a usage error or bad input as one line
on stderr (exit code 2, the library's words turned into the command line's by
:func:`solver._checks.cli_words`), Ctrl+C as the line ``interrupted`` (exit code 130,
within about a second), and a closed pipe ending the command quietly.

It sits below every front end and imports nothing of the solver but
:mod:`solver._checks`, so a front end never imports another to borrow these.
"""
from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import signal
import sys
import textwrap
import threading
import time

from ._checks import cli_words


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit code 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class Formatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Shows every default but None and False (those say theirs in the help text), and
    wraps help texts at spaces only (argparse's wrapping also breaks after a hyphen,
    inside an option's name: '--' at the end of one line, 'declare' on the next)."""

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False,
                             break_long_words=False)

    def _get_help_string(self, action):
        if action.default is None or action.default is False \
                or "%(default)" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's commands and their parsers (a command added to the parser is found
    here: the error for a mistyped command lists it)."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def command_options(parser: argparse.ArgumentParser, command: "str | None") -> dict[str, str]:
    """A command's options by name without the dashes (``{"cut": "--cut", ...}``)."""
    sub = subparsers(parser).get(command)
    actions = sub._actions if sub is not None else []
    return {option[2:]: option for action in actions for option in action.option_strings
            if option.startswith("--")}


def run_command(command, prog: str, options: dict[str, str], *,
                watch_interrupts: bool = True) -> int:
    """``command()``'s exit code, with the command line's conventions around it: a
    ``ValueError`` or ``OSError`` is one line on stderr in the command line's words
    (``options``: :func:`command_options`) and exit code 2; Ctrl+C is the line
    ``interrupted`` and 130 (128 + SIGINT, as a shell reports it), within about a second
    (``watch_interrupts``: :func:`interrupts_watched`); a reader that stopped reading
    (``| head -1``) ends it quietly with exit code 0, as if the reader had read it all
    (the output that could not be written is dropped).  Whether the reader goes before
    the last write or after it is a race (the whole output may fit in the pipe at once),
    so a closed pipe must not change the exit code: else the same command, text or
    ``--json``, exits 0 one time and 1 the next."""
    with interrupts_watched() if watch_interrupts else contextlib.nullcontext():
        try:
            try:
                code = command()
                sys.stdout.flush()          # (a closed pipe is found here, not at exit)
                return code
            except BrokenPipeError:
                # Python flushes stdout again at exit: point it at nothing, so that it
                # does not complain there.  The command had done its work: its output
                # was only not all read.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)
                return 0
            except (ValueError, OSError) as err:
                message = cli_words(" ".join(str(err).split()), options)
                print(f"{prog}: error: {message}", file=sys.stderr)
                return 2
        except KeyboardInterrupt:
            say_interrupted()
            return 130
        except SystemError as err:
            if not interrupted_in_c(err):
                raise
            say_interrupted()
            return 130


def interrupted_in_c(err: BaseException) -> bool:
    """Whether ``err`` is a Ctrl+C that reached Python while C code (Numba's dispatcher,
    NumPy) was running Python for a moment: the C code went on and returned a result with
    the KeyboardInterrupt set, which Python turns into ``SystemError: ... returned a
    result with an exception set``, the interrupt its cause (seen once in a suite run:
    tests/test_cli.py checks that such an error is one line ``interrupted``, 130).  C code
    that called C code that ran Python (the dispatcher a NumPy call, say) makes it a
    SystemError caused by such a SystemError, and so on: the interrupt is then the cause
    at the end of a chain of them (a suite run once ended in a SystemError whose
    traceback was not kept, so which chain it was is not known)."""
    seen = set()
    while isinstance(err, SystemError) and id(err) not in seen:
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return isinstance(err, KeyboardInterrupt)


# After Ctrl+C the process ends within this many seconds, even while its main thread is in
# a call that cannot see the interrupt (Numba compiling a kernel on a first run, say).
INTERRUPT_GRACE = 1.0
_interrupted_said = threading.Lock()


def say_interrupted() -> None:
    """The line ``interrupted`` on stderr, once a process."""
    if _interrupted_said.acquire(blocking=False):
        print("interrupted", file=sys.stderr, flush=True)


@contextlib.contextmanager
def interrupts_watched():
    """Within the block, a Ctrl+C ends the process INTERRUPT_GRACE seconds later if it
    has not ended by then (with the line ``interrupted``, exit code 130, and the worker
    processes it started stopped).  The ``KeyboardInterrupt`` reaches the main thread
    only between two of Python's steps, and a long call in C (LLVM compiling a kernel)
    holds it back for seconds; the signal itself wakes a thread at once
    (``signal.set_wakeup_fd``).  Only in the main thread (elsewhere signals are not
    ours); the wake-up descriptor and ``sys.unraisablehook`` are restored after the
    block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    before = signal.set_wakeup_fd(write)

    def watch():
        while True:
            try:
                woken = os.read(read, 64)
            except OSError:
                return
            if not woken:                                  # (the block has ended)
                os.close(read)
                return
            if signal.SIGINT in woken:
                time.sleep(INTERRUPT_GRACE)
                for child in multiprocessing.active_children():
                    child.terminate()
                say_interrupted()
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(Exception):
                        stream.flush()
                os._exit(130)

    def unraisable(report, default=sys.unraisablehook):
        # A KeyboardInterrupt raised where Python cannot pass it on (in a callback of
        # LLVM's, while Numba compiles) is dropped, and the process ended as above,
        # rather than reported with a traceback.
        if not isinstance(report.exc_value, KeyboardInterrupt):
            default(report)

    threading.Thread(target=watch, name="interrupt-watch", daemon=True).start()
    sys.unraisablehook, hook_before = unraisable, sys.unraisablehook
    try:
        yield
    finally:
        signal.set_wakeup_fd(before)
        os.close(write)
        sys.unraisablehook = hook_before
