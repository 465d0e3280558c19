"""`python -m bench.names` (`make lint`): a public name two modules define is reported, but for the table games'
interface, which every game module implements."""

from pathlib import Path

from bench import names
from tables.rules.moves import TableGame

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = """
from typing import Any, Protocol

class TableGame(Protocol):
    KIND: str

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]: ...
"""


def _checkout(tmp_path: Path, files: dict[str, str]) -> Path:
    for path, text in {"tables/rules/moves.py": PROTOCOL, **files}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    return tmp_path


def _run(root: Path, capsys) -> tuple[int, str]:
    status = names.main(["moderator", "nights", "tables", "--root", str(root)])
    return status, capsys.readouterr().out


def test_a_name_two_modules_define_is_reported_with_both_modules(tmp_path, capsys):
    root = _checkout(
        tmp_path, {"moderator/services/clock.py": "log = 1\n", "nights/night.py": "if True:\n    log = 2\n"}
    )
    status, out = _run(root, capsys)
    assert status == 1
    assert "log: defined in 2 modules: moderator/services/clock.py, nights/night.py" in out
    (root / "nights/night.py").write_text("_log = 2\n", encoding="utf-8")  # private to its module: allowed
    assert _run(root, capsys)[0] == 0


def test_the_game_modules_may_each_define_the_protocol_members_and_nothing_else_twice(tmp_path, capsys):
    game = "KIND = 'x'\n\ndef view(state, viewer):\n    return {}\n\nSTART_HAND, DRAW = 4, 2\n"
    root = _checkout(tmp_path, {"tables/rules/noir.py": game, "tables/rules/sanguosha.py": game})
    status, out = _run(root, capsys)
    assert status == 1
    assert "DRAW: defined in 2 modules" in out and "START_HAND: defined in 2 modules" in out
    assert "KIND" not in out and "view" not in out
    (root / "moderator/rules").mkdir(parents=True)
    (root / "moderator/rules/views.py").write_text("def view(state):\n    return {}\n", encoding="utf-8")
    status, out = _run(root, capsys)
    assert (
        "view: defined in 3 modules: moderator/rules/views.py, tables/rules/noir.py, tables/rules/sanguosha.py" in out
    )


def test_the_allowed_members_are_the_protocol_s_and_the_checkout_defines_every_other_name_once(capsys):
    assert names.protocol_members(ROOT) == {n for n in vars(TableGame) if not n.startswith("_")} | set(
        TableGame.__annotations__
    )
    status = names.main(["--root", str(ROOT)])
    assert status == 0, capsys.readouterr().out
