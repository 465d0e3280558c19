"""The environment table of docs/operations.md names every variable moderator/settings.py reads, and each other row
names a variable something in the project reads (make, compose, a command, the tests); and every log line carries its
time, level and logger."""

from __future__ import annotations

import logging
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _table() -> set[str]:
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    table = text.split("Every setting the code reads", 1)[1].split("\n\n", 2)[1]
    names = set()
    for row in table.splitlines()[2:]:
        names |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1]))
    return names


def _read_by_settings() -> set[str]:
    code = (ROOT / "moderator" / "settings.py").read_text()
    patterns = (r'os\.environ\.get\("([A-Z0-9_]+)"', r'_(?:flag|list)\("([A-Z0-9_]+)"', r'env="([A-Z0-9_]+)"')
    patterns += (r'"([A-Z0-9_]+)" in os\.environ',)
    return {name for pattern in patterns for name in re.findall(pattern, code)}


def test_the_environment_table_lists_every_variable_the_settings_read():
    read = _read_by_settings()
    assert {"SECRET_KEY", "CONN_MAX_AGE", "CLOCK_BATCH_SIZE", "PAGES_REVALIDATE_SECONDS"} <= read  # the reader works
    assert read - _table() == set()


def test_every_other_row_of_the_table_is_read_somewhere_in_the_project():
    sources = [ROOT / "Makefile", ROOT / "compose.yaml", ROOT / "Procfile", ROOT / "tests" / "conftest.py"]
    sources += list((ROOT / "moderator" / "management" / "commands").glob("*.py"))
    text = "\n".join(path.read_text(encoding="utf-8") for path in sources)
    for name in _table() - _read_by_settings():
        assert re.search(rf"\b{name}\b", text), f"{name} is in the table but nothing reads it"


def test_a_log_line_has_the_time_the_level_and_the_logger():
    (handler,) = (h for h in logging.getLogger().handlers if h.name == "console")  # settings.LOGGING's
    record = logging.getLogger("moderator.tasks").makeRecord(
        "moderator.tasks", logging.WARNING, __file__, 1, "扫描落后 %d 秒", (12,), None
    )
    line = handler.format(record)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING moderator\.tasks 扫描落后 12 秒", line), line
