"""Reading what a user names: a file that must be a regular file of bounded size, and
lines of bounded length.

Every path the package reads on a user's word -- a rule-set file (``--rules PATH``,
:func:`solver.rule_set`), a batch of hands (``solve --batch FILE``, ``review --batch
FILE``, :func:`solver.review_many`), an arena's saved settings -- is opened by
:func:`open_regular` or read by :func:`read_bytes`, so that a FIFO (which would block
until someone writes to it), a device (``/dev/zero`` never ends), a symbolic link to
either, a directory or a file larger than its limit is one line of error, at once,
never a hang, a ``MemoryError`` or a traceback.  Lines come through :func:`lines`, which
reads a line of any length in pieces of at most its limit: a line that is too long is
reported as that line's error and skipped without being held whole.

The limits (docs/rule-files.md, docs/sessions.md) are far above any real input: the
shipped rule-set files are under 3 KB and a batch line under 200 bytes.
"""
from __future__ import annotations

import os
import stat
from typing import BinaryIO, Iterator

RULE_FILE_BYTES = 1 << 20          # 1 MiB: a rule-set file
BATCH_FILE_BYTES = 1 << 28         # 256 MiB: a batch of hands (about a million lines)
SAVED_FILE_BYTES = 1 << 28         # 256 MiB: an arena's saved settings (JSON)
LINE_BYTES = 1 << 16               # 64 KiB: one line of a batch of hands

# What a file that is not a regular file is, for the message.
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def size_text(n: int) -> str:
    """``n`` bytes for a message: ``1 MiB``, ``64 KiB``, ``300 bytes``.

    >>> size_text(1 << 20), size_text(1 << 16), size_text(300)
    ('1 MiB', '64 KiB', '300 bytes')
    """
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f}".rstrip("0").rstrip(".") + f" {unit}"
    return f"{n} bytes"


class NoSuchFile(ValueError, FileNotFoundError):
    """A file that does not exist: a ``ValueError`` as every bad input is, and still the
    ``FileNotFoundError`` an ``open`` would have raised."""


class UnreadableFile(ValueError, OSError):
    """A file the system would not open (no permission, say): a ``ValueError`` and the
    ``OSError``."""


def open_regular(path: "str | os.PathLike", what: str, limit: int) -> BinaryIO:
    """``path`` opened for reading bytes, or a ``ValueError`` of one line naming it and
    ``what`` it was to be (``"rule-set file"``) when it does not exist (:class:`NoSuchFile`),
    cannot be opened (:class:`UnreadableFile`),
    is not a regular file (the symbolic links to it followed) or holds more than
    ``limit`` bytes.  The file is opened first and then examined (``fstat``), so what is
    examined is what is read; a FIFO is opened without waiting for a writer."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise NoSuchFile(f"{path}: no such {what}") from None
    except OSError as e:
        raise UnreadableFile(f"{path}: cannot read the {what} ({e.strerror or e})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)),
                        "a special file")
            raise ValueError(f"{path}: cannot read the {what}: it is {kind}, not a "
                             f"regular file")
        if info.st_size > limit:
            raise ValueError(f"{path}: the {what} is {size_text(info.st_size)}; the limit "
                             f"is {size_text(limit)}")
        if flags & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: "str | os.PathLike", what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_regular`); never more
    than ``limit`` of them, even where the file grows while it is read."""
    with open_regular(path, what, limit) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{path}: the {what} is larger than the limit of "
                         f"{size_text(limit)}")
    return data


def read_text(path: "str | os.PathLike", what: str, limit: int) -> str:
    """The text (UTF-8, a leading byte-order mark dropped) of the regular file ``path``
    (see :func:`read_bytes`); text that is not UTF-8 is a ``ValueError`` naming the
    byte and its line."""
    data = read_bytes(path, what, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ValueError(f"{path}: cannot read the {what}: byte 0x{data[e.start]:02x} on "
                         f"line {line} is not UTF-8 (is it a text file?)") from None
    return text[1:] if text.startswith("\ufeff") else text


class LineTooLong(ValueError):
    """A line longer than the limit of :func:`lines` (its error, in the line's place)."""


def lines(stream, limit: int = LINE_BYTES, *, source: str = "",
          total: "int | None" = None) -> Iterator["bytes | LineTooLong"]:
    """The lines of ``stream`` (a binary or text file object), each as bytes with its
    line ending, or a :class:`LineTooLong` in the place of a line longer than ``limit``
    bytes, which is read in pieces and dropped, never held whole.  ``total``: a
    ``ValueError`` (naming ``source``) once more bytes than that have been read (a
    stream has no size to look at first: standard input)."""
    seen = 0
    while True:
        line = stream.readline(limit + 1)
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogateescape")
        if not line:
            return
        seen += len(line)
        if len(line) > limit and not line.endswith(b"\n"):
            while True:                                 # the rest of the line, dropped
                rest = stream.readline(LINE_BYTES)
                if not rest:
                    break
                seen += len(rest if isinstance(rest, bytes) else rest.encode())
                if total is not None and seen > total:
                    break
                if rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                    break
            line = LineTooLong(f"longer than {size_text(limit)} (a line is one hand)")
        if total is not None and seen > total:
            raise ValueError(f"{source}: more than {size_text(total)}; the limit of a "
                             f"batch of hands")
        yield line
