"""A game exported before the one input log (format 1: three tables of inputs) imports and replays to the verdicts
it had (the architecture issue's acceptance). The fixture is the sample game (bench.sample) as main
exported it then, with the verdicts main had stored."""

import json
from pathlib import Path

import pytest

from moderator.models import Input
from moderator.services import storage, transfer

pytestmark = pytest.mark.django_db
HERE = Path(__file__).parent / "fixtures"


def test_a_format_1_export_imports_and_replays_to_the_same_verdicts():
    data = json.loads((HERE / "export_format1.json").read_text(encoding="utf-8"))
    before = json.loads((HERE / "export_format1_verdicts.json").read_text(encoding="utf-8"))
    game = transfer.import_game(data, name="导入的旧局")
    after = [
        {"seq": r.seq, "status": r.status, "reason": r.reason}
        for r in Input.objects.filter(game=game).select_related("void", "verdict").order_by("seq")
    ]
    assert [(r["seq"], r["status"]) for r in after] == [(r["seq"], r["status"]) for r in before]
    refused = [(r["seq"], r["reason"]) for r in before if r["status"] == "refused"]
    assert refused and refused == [(r["seq"], r["reason"]) for r in after if r["status"] == "refused"]
    assert storage.game_replay(game).state == storage.game_replay(game, full=True).state
    assert transfer.export_game(game)["format"] == "direnjie-game/2"
