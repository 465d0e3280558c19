"""Golden messages (golden.yaml): each is parsed exactly as a GM expects (PARSER.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from moderator.parser import parse_pm

TABLE = yaml.safe_load((Path(__file__).parent / "golden.yaml").read_text(encoding="utf-8"))
CASES = TABLE["cases"]


def _hand(case: dict) -> list[str]:
    hand = case.get("hand", [])
    return TABLE["hands"][hand] if isinstance(hand, str) else hand


def test_the_golden_table_has_at_least_sixty_messages_with_unique_ids():
    ids = [c["id"] for c in CASES]
    assert len(ids) >= 60
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_it_parses_each_golden_message_as_the_player_meant_it(case):
    result = parse_pm(
        case["text"],
        sender=case.get("sender", TABLE["sender"]),
        players=case.get("players", TABLE["players"]),
        hand=_hand(case),
        phase=case.get("phase", "night"),
    ).to_json()
    assert result["inputs"] == case["inputs"]
    expected = case.get("refusals", [])
    assert [r["text"] for r in result["refusals"]] == [r["text"] for r in expected], result["refusals"]
    for got, want in zip(result["refusals"], expected, strict=True):
        assert want["reason"] in got["reason"]
