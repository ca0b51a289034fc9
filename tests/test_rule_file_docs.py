"""docs/rule-files.md, the reference of rule-set files, and the format agree: its table of
keys is the layout's (solver.rule_file.KEYS), it lists every category and automatic-win
name a file may use, its example is the shipped classic file, and its error examples are
the messages the loader gives."""
import re
from pathlib import Path

import pytest

from solver.rule_file import KEYS
from solver.rules import AUTOMATIC_WINS, CATEGORIES, FRONT_CATEGORIES, RULES_DIR, rule_set

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rule-files.md"


def keys_table() -> str:
    """The page's table of keys, from the layout (paste it in when a key is added)."""
    rows = ["| key | value | default | meaning |", "|---|---|---|---|"]
    for k in KEYS:
        default = k.default if k.default == "none" or " " in k.default and not \
            k.default.startswith("[") else f"`{k.default}`"
        rows.append(f"| `{k.path}` | {k.kind} | {default} | {k.meaning} |")
    return "\n".join(rows)


def fenced(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_the_page_lists_every_key_with_its_default():
    text = PAGE.read_text(encoding="utf-8")
    assert "<!-- table: keys -->\n" + keys_table() + "\n" in text


def test_the_page_lists_every_name_a_table_of_names_may_use():
    text = PAGE.read_text(encoding="utf-8")
    categories = text[text.index("<!-- names: categories -->"):]
    categories = categories[:categories.index("\n\n")]
    assert re.findall(r"`(\w+)`", categories) == list(CATEGORIES)
    front = re.search(r"<!-- names: front -->\n(.*?)\n\n", text, flags=re.S).group(1)
    assert re.findall(r"`(\w+)`", front) == list(FRONT_CATEGORIES)
    wins = re.search(r"<!-- names: automatic wins -->\n(.*?)\n\n", text, flags=re.S).group(1)
    assert re.findall(r"`(\w+)`", wins) == list(AUTOMATIC_WINS)


def test_the_example_is_the_shipped_classic_file():
    text = PAGE.read_text(encoding="utf-8")
    assert (RULES_DIR / "classic.toml").read_text(encoding="utf-8") in fenced(text, "toml")


def test_the_pages_error_examples_are_the_loaders_messages(tmp_path):
    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"<!-- errors -->\n```console\n(.*?)```", text, flags=re.S).group(1)
    commands = re.findall(r"^\$ (.*)\n(.*)$", block, flags=re.M)
    assert len(commands) >= 3
    for command, message in commands:
        # "$ printf '...' > house.toml && python3 -m solver rules show house.toml"
        content = re.match(r"printf '(.*)' > house\.toml", command).group(1)
        path = tmp_path / "house.toml"
        path.write_text(content.encode().decode("unicode_escape"))
        with pytest.raises(ValueError) as caught:
            rule_set(path)
        assert message == f"python3 -m solver: error: {caught.value}".replace(
            str(path), "house.toml")


def test_the_pages_table_of_ranges_is_the_layouts():
    """'What a file must be' groups the ranges of KEYS: every key with a range is in it
    once, with that range (a key added to KEYS with a range goes in a row here too)."""
    text = PAGE.read_text(encoding="utf-8")
    table = re.search(r"<!-- table: ranges -->\n(.*?)\n\n", text, flags=re.S).group(1)
    listed = {}
    for row in table.splitlines()[2:]:
        keys, span = [cell.strip() for cell in row.strip().strip("|").split("|")]
        low, high = map(int, re.fullmatch(r"(-?\d+) to (-?\d+)", span).groups())
        for path in re.findall(r"`([\w.]+)`", keys):
            assert path not in listed, path
            listed[path] = (low, high)
    assert listed == {k.path: k.bounds for k in KEYS if k.bounds is not None}


def test_the_pages_figures_are_the_codes():
    """The largest counts, the kernels' limit, and the sizes the readers allow, as the
    rule-file page, the sessions page and the command-line guide give them."""
    from solver import _inputs, scoring
    from solver.rule_file import MAX_MULTIPLIER, MAX_UNITS
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    m, x = MAX_UNITS, MAX_MULTIPLIER
    assert f"every count at {m} and every multiplier at {x}" in text
    largest = 4 * (3 * 2 * m * x + 2 * m * x + 2 * m)
    assert f"4 × (3 × ({m} + {m}) × {x} + 2 × {m} × {x} + 2 × {m}) = {largest:,}" in text
    assert f"exact up to {scoring.DEAL_UNITS_LIMIT:,} units a deal" in text
    assert f"a regular file of at most {_inputs.size_text(_inputs.RULE_FILE_BYTES)}" in text
    for page in ("sessions.md", "guide/command-line.md"):
        words = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())
        assert f"at most {_inputs.size_text(_inputs.BATCH_FILE_BYTES)}" in words, page
        assert f"longer than {_inputs.size_text(_inputs.LINE_BYTES)}" in words, page
