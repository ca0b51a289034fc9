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
