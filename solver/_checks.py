"""Argument checks shared by the public functions: one message style, one place.

Every check raises ``ValueError`` naming the argument and what is wrong with it, so bad
input never reaches numpy (a cryptic error), ``int()`` (a silent truncation) or a kernel.
"""
from __future__ import annotations

import inspect
import re
from typing import Mapping, Optional

import numpy as np


def is_int(value) -> bool:
    """A real integer: ``int`` or a numpy integer, but not ``bool`` (nor a float, even 12.0)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value, minimum: Optional[int] = None,
              maximum: Optional[int] = None) -> int:
    """``value`` as an ``int``, or a ``ValueError`` naming ``name`` when it is not a real
    integer (see :func:`is_int`) or lies outside ``minimum..maximum``.

    >>> check_int("samples", 10, 1)
    10
    >>> check_int("samples", 2.5, 1)
    Traceback (most recent call last):
    ...
    ValueError: samples must be an integer, not 2.5 (float)
    >>> check_int("players", True)
    Traceback (most recent call last):
    ...
    ValueError: players must be an integer, not True (bool)
    >>> check_int("top", -1, 0)
    Traceback (most recent call last):
    ...
    ValueError: top must be at least 0, not -1
    """
    if not is_int(value):
        raise ValueError(f"{name} must be an integer, not {value!r} ({type(value).__name__})")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, not {value}")
    return value


def function_name(function) -> str:
    """How an error names a caller's function: its qualified name (``<lambda>`` too)."""
    return getattr(function, "__qualname__", None) or repr(function)


def check_signature(function, who: str, takes: str) -> None:
    """A ``ValueError`` naming ``who`` when ``function`` cannot be called with the three
    arguments of a setter, ``takes`` (``"(hand, rules, cut)"``): said once, up front,
    rather than a ``TypeError`` a hand.  A function whose signature Python cannot tell
    (some built-ins) is let through."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(None, None, None)
    except TypeError:
        raise ValueError(f"{who} must take {takes}, but its signature is "
                         f"{signature}") from None


def cli_words(message: str, options: Mapping[str, str]) -> str:
    """A library error ``message`` in a command line's words: an argument written as
    Python writes it (``cut='4c'``, ``samples=0``, ``samples must be ...``) as the option
    it is there (``--cut 4c``, ``--samples 0``, ``--samples must be ...``).  ``options``:
    the command's options by argument name (``{"cut": "--cut"}``); other words stay.

    >>> cli_words("the bonus rule set needs the cut card, e.g. cut='4c'", {"cut": "--cut"})
    'the bonus rule set needs the cut card, e.g. --cut 4c'
    >>> cli_words("samples must be at least 1, not 0", {"samples": "--samples"})
    '--samples must be at least 1, not 0'
    """
    names = "|".join(re.escape(name) for name in sorted(options, key=len, reverse=True))
    if not names:
        return message

    def option(match: re.Match) -> str:
        value = next((v for v in match.group("value", "quoted") if v is not None), None)
        return options[match.group("name")] + (f" {value}" if value else "")

    # name=value, name='value' or a bare name= ("with no samples=").
    message = re.sub(rf"(?<![\w.-])(?P<name>{names})=(?:'(?P<quoted>[^']*)'|"
                     rf"(?P<value>[^\s,;:()']+))?", option, message)
    # "name must be ..." and "name: ..." where a message starts with the argument.
    return re.sub(rf"(?:^|(?<=: ))(?P<name>{names})(?= must\b|: )",
                  lambda m: options[m.group("name")], message)
