"""Every file a user names is read by one reader (solver._inputs): only a regular file,
no larger than its limit, and a line no longer than its limit -- so a FIFO, /dev/zero, a
link to either, a directory, a huge file, a 50 MB line or TOML and JSON nested thousands
deep are one line of error, at once, never a hang, a MemoryError or a traceback
(docs/rule-files.md#what-a-file-must-be, docs/sessions.md)."""
import io
import os
import sys
import tracemalloc

import pytest

import solver
from solver import __main__ as cli
from solver import _inputs, arena
from solver.rule_file import RuleFileError
from solver.rules import rule_set
from solver.session import review_many

POSIX = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"),
                           reason="FIFOs and /dev/zero are POSIX's")


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_arena(capsys, *argv):
    code = arena.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def specials(tmp_path):
    """Each kind of path that is not a readable regular file, by what the error says."""
    paths = {"a directory": tmp_path / "dir.toml"}
    paths["a directory"].mkdir()
    if hasattr(os, "mkfifo") and os.path.exists("/dev/zero"):
        os.mkfifo(tmp_path / "fifo.toml")
        paths["a FIFO"] = tmp_path / "fifo.toml"
        paths["a character device"] = tmp_path / "zero.toml"
        os.symlink("/dev/zero", paths["a character device"])
        paths["a FIFO (named pipe), not"] = tmp_path / "to-fifo.toml"
        os.symlink(tmp_path / "fifo.toml", paths["a FIFO (named pipe), not"])
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(_inputs.BATCH_FILE_BYTES + 1)          # (sparse: no disk used)
    paths["the limit is"] = huge
    return paths


def test_a_rule_set_path_that_is_no_regular_file_or_too_large_is_one_line(specials):
    for what, path in specials.items():
        with pytest.raises(ValueError) as caught:
            rule_set(path)
        message = str(caught.value)
        assert message.startswith(f"{path}: ") and what in message and "\n" not in message
    with pytest.raises(ValueError, match=r": the rule-set file is 256 MiB; the limit is 1 MiB"):
        solver.RuleSet.from_file(specials["the limit is"])


def test_every_command_line_read_of_such_a_path_is_one_line(capsys, specials, tmp_path):
    """--rules PATH (here deal, and the arena's), solve --batch, review --batch and the
    arena's saved settings."""
    for what, path in specials.items():
        for argv in (["deal", "--rules", path], ["solve", "--batch", path],
                     ["review", "--batch", path]):
            code, out, err = run(capsys, *argv)
            assert code == 2 and not out and what in one_line(err), (argv, err)
        code, out, err = run_arena(capsys, "match", f"saved:{path}", "random", "--rules",
                                   "classic")
        assert code == 2 and not out and one_line(err).startswith(
            f"python3 -m solver.arena: error: {path}: ") and what in err, err
    assert "the limit is 256 MiB" in run(capsys, "solve", "--batch",
                                         specials["the limit is"])[2]


def test_a_missing_file_is_still_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such hand history"):
        review_many(tmp_path / "missing.jsonl", rules="classic")
    with pytest.raises(ValueError, match="no such rule-set file"):
        rule_set(tmp_path / "missing.toml")


@POSIX
def test_reading_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    """Opened without blocking, examined, refused: a writer never comes (a blocking
    open would wait for ever)."""
    os.mkfifo(tmp_path / "f.toml")
    with pytest.raises(ValueError, match="it is a FIFO"):
        _inputs.read_text(tmp_path / "f.toml", "rule-set file", 100)


def test_a_file_that_grows_past_its_limit_while_read_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "r.toml"
    path.write_text("x" * 50)
    monkeypatch.setattr(os, "fstat", lambda fd, real=os.fstat: os.stat_result(
        (*real(fd)[:6], 10, *real(fd)[7:])))             # (it said 10 bytes when opened)
    with pytest.raises(ValueError, match="larger than the limit of 40 bytes"):
        _inputs.read_bytes(path, "rule-set file", 40)


# --- nesting and long values ------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "a = " + "[" * 20000 + "]" * 20000,                 # an array 20,000 deep
    "a = " + "{b = " * 20000 + "1" + "}" * 20000,       # inline tables
    "[deck]\njokers = " + "9" * 5000,                   # more digits than Python reads
], ids=["arrays", "inline tables", "digits"])
def test_toml_nested_too_deeply_is_one_line(tmp_path, capsys, text):
    path = tmp_path / "nested.toml"
    path.write_text(text)
    with pytest.raises(RuleFileError, match=r"invalid TOML: "):
        rule_set(path)
    code, out, err = run(capsys, "deal", "--rules", path)
    assert code == 2 and "invalid TOML" in one_line(err) and len(err) < 300


@pytest.mark.parametrize("text", [
    "x." * 20000 + "y = 1\n",                           # a table 20,000 deep (dotted)
    "[" + "x." * 20000 + "y]\n",
    "[deal]\nseats = [" + "2, " * 100000 + "2]\n",      # a value of 100,001 items
    "[deal]\nseats = " + "[" * 900 + "]" * 900 + "\n",  # deep, but not too deep to parse
    "name = '" + "n" * 100000 + "'\n[deck]\njokers = 9\n",
], ids=["dotted", "header", "long list", "nested list", "long name"])
def test_a_huge_or_deep_value_is_shown_short_in_its_one_line(tmp_path, text):
    path = tmp_path / "big.toml"
    path.write_text(text)
    with pytest.raises(RuleFileError) as caught:
        rule_set(path)
    message = str(caught.value)
    assert "\n" not in message and len(message) < len(str(path)) + 300, message


def test_a_byte_order_mark_is_accepted(tmp_path, capsys):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'name = "bom"\n[scoring]\nmajority_bonus = 1\n')
    assert rule_set(path).name == "bom" and rule_set(path).majority_bonus == 1
    assert solver.RuleSet.from_toml("\ufeff" + rule_set("pagat").to_toml()) == rule_set("pagat")
    batch = tmp_path / "hands.txt"
    batch.write_bytes(b"\xef\xbb\xbf" + b"As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c\n")
    entries, bad = cli._read_batch(str(batch), None)
    assert bad == [] and entries[0][0].startswith("As Kd")


# --- a line's length ---------------------------------------------------------------------------
class EndlessLine(io.RawIOBase):
    """A stream whose first line is ``size`` bytes of 'x' (made as it is read, never
    whole), then the lines of ``rest``."""

    def __init__(self, size: int, rest: bytes):
        self.left, self.rest = size, io.BytesIO(b"\n" + rest)
        self.name = "endless.jsonl"

    def readline(self, size=-1):
        if self.left:
            n = self.left if size < 0 else min(size, self.left)
            self.left -= n
            return b"x" * n
        return self.rest.readline(size)


def test_a_50_megabyte_line_is_that_lines_error_read_in_small_pieces():
    """review_many of a stream: the 50 MB line is line 1's error, the line after it is
    read as line 2 (here JSON 30,000 deep: its error too), and the memory used stays
    far below the line's size."""
    deep = b"[" * 30000 + b"]" * 30000 + b"\n"
    tracemalloc.start()
    try:
        report = review_many(EndlessLine(50 << 20, deep + b"{not json\n"), rules="classic")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [(s.line, s.message) for s in report.skipped] == [
        (1, "longer than 64 KiB (a line is one hand)"),
        (2, "not a hand: JSON nested too deeply"),
        (3, "not JSON: Expecting property name enclosed in double quotes at column 2")]
    assert peak < 4 << 20, peak


def test_a_long_line_in_a_batch_file_is_that_lines_error(tmp_path, capsys):
    path = tmp_path / "hands.txt"
    path.write_bytes(b"As " * 400_000 + b"\nAs Kd\n")
    code, out, err = run(capsys, "solve", "--batch", path, "--rules", "classic")
    assert code == 2 and not out
    assert err.splitlines() == [
        f"python3 -m solver: skipped {path} line 1: longer than 64 KiB (a line is one hand)",
        f"python3 -m solver: skipped {path} line 2: the classic rule set deals 13 cards, not 2",
        f"python3 -m solver: error: {path}: no hands to solve (2 lines skipped)"]


def test_review_batch_reads_standard_input_a_line_at_a_time(capsys, monkeypatch):
    data = (b'{"cards": "' + b"x" * 200_000 + b'"}\n' + b'{"cards": ' + b"[" * 30000
            + b"]" * 30000 + b"}\n" + b"cards,setting\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run(capsys, "review", "--batch", "-", "--rules", "classic", "--quiet")
    assert code == 2 and not out
    assert "standard input line 1: longer than 64 KiB" in err
    assert "standard input line 2: not a hand: JSON nested too deeply" in err
    assert "standard input line 3: not JSON" in err
    assert "Traceback" not in err and len(err) < 1000


def test_a_long_value_on_a_line_is_shown_short(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text('{"cards": "As", "setting": "x", "id": ' + "[" * 500 + "]" * 500 + "}\n"
                    + '{"cards": "As", "setting": "x", "' + "k" * 60000 + '": 1}\n')
    report = review_many(path, rules="classic")
    assert [s.line for s in report.skipped] == [1, 2]
    assert all(len(s.message) < 200 for s in report.skipped), report.skipped


def test_lines_caps_what_a_stream_may_give_in_all():
    stream = io.BytesIO(b"ab\n" * 100)
    with pytest.raises(ValueError, match="standard input: more than 30 bytes"):
        list(_inputs.lines(stream, 10, source="standard input", total=30))
    assert [line for line in _inputs.lines(io.StringIO("a\nbb\n"), 10)] == [b"a\n", b"bb\n"]


def test_a_csv_quote_left_open_is_a_lines_error_not_a_traceback(tmp_path, capsys):
    """An open quote runs CSV's field on over the next lines until the csv module's field
    limit: that is the line's error, and the lines after it are read."""
    path = tmp_path / "h.csv"
    path.write_text("cards,setting\n\"" + ("x" * 60000 + "\n") * 3
                    + "As,Kd\n")
    report = review_many(path, rules="classic")
    assert report.skipped[0].message.startswith("not CSV: field larger than field limit")
    assert report.skipped[-1].line == 5 and len(report.skipped) >= 2
    code, out, err = run(capsys, "review", "--batch", path, "--rules", "classic", "--quiet")
    assert code == 2 and "Traceback" not in err and "not CSV" in err
