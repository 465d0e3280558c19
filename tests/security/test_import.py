"""An import is checked against the declared schema (moderator/services/transfer_schema.py) before a row
is written: wrong types, out-of-range numbers, unknown cards and phase kinds, phases out of order, oversize files
and JSON tricks are refused with the first problem named — never a 500, never garbage stored. Formats 1 and 2 of
a real export still import."""

from __future__ import annotations

import copy
import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from bench.sample import sample_game
from moderator.models import Game
from moderator.services import storage, transfer
from moderator.services.transfer_schema import MAX_BYTES
from tests.tokens import signed

pytestmark = pytest.mark.django_db


def _export(game: Game) -> dict:
    return json.loads(json.dumps(transfer.export_game(game)))


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker):
    """A real export of the played sample game, made once for the module's attacks (each changes its own deep copy):
    the game is played in a transaction rolled back at once, so no test sees its rows."""
    with django_db_blocker.unblock(), transaction.atomic():
        data = _export(sample_game().game)
        transaction.set_rollback(True)
    return data


def _post(client, body: bytes):
    games = Game.objects.count()
    response = client.post(
        "/games/import/",
        {**signed(client, "console_import"), "file": SimpleUploadedFile("g.json", body), "name": "导入"},
    )
    return response, Game.objects.count() - games


def _refused(client, body: bytes, *words: str) -> str:
    response, made = _post(client, body)
    page = response.content.decode()
    assert response.status_code == 200 and made == 0, page[:500]
    for word in words:
        assert word in page, (word, page[page.find("无法") - 50 : page.find("无法") + 200])
    return page


def _with(data: dict, change) -> bytes:
    data = copy.deepcopy(data)
    change(data)
    return json.dumps(data, ensure_ascii=False).encode()


def _v1(data: dict) -> dict:
    """The same game in format 1 (three tables: per-kind fields, status and reason)."""
    data = copy.deepcopy(data)
    old = []
    for i in data["inputs"]:
        p, base = i["payload"], {k: i[k] for k in ("phase", "seat", "forum_at", "seq", "message")}
        base |= {"status": "voided" if i["void"] is not None else "", "reason": i["void"] or ""}
        if i["kind"] == "order":
            old.append(base | {"kind": "order", "order": p["order"], "source": p.get("source", "player"), "seed": None})
        elif i["kind"] == "vote":
            change = "change" in p
            target = p["change"] if change else p["for"]
            old.append(base | {"kind": "vote", "target": target, "change": change, "edited": bool(p.get("edited"))})
        elif i["kind"] == "action":
            old.append(base | {"kind": "action", **p})
    data["inputs"], data["format"] = old, "direnjie-game/1"
    return data


def _state(game):
    return [(s.name, s.names, s.ap, s.alive) for s in storage.game_replay(game).state.seats]


@pytest.mark.parametrize("fmt", [2, 1])
def test_a_real_export_in_either_format_imports_and_replays_to_the_same_state(gm_client, sample, fmt):
    data = _export(sample.game) if fmt == 2 else _v1(_export(sample.game))
    response, made = _post(gm_client, json.dumps(data, ensure_ascii=False).encode())
    assert response.status_code == 302 and made == 1
    assert _state(Game.objects.get(name="导入")) == _state(sample.game)


ATTACKS = {
    "game_as_list": (lambda d: d.update(game=[1, 2]), ["game"]),
    "initial_ap_string": (lambda d: d["game"].update(initial_ap="lots"), ["initial_ap"]),
    "duplicate_seats": (lambda d: d["seats"][1].update(number=1), ["座位号"]),
    "null_ends_at": (lambda d: d["phases"][0].update(ends_at=None), ["ends_at"]),
    "huge_int": (lambda d: d["inputs"][0].update(seq=2**80), ["seq"]),
    "huge_seat": (lambda d: d["seats"][0].update(number=2**63), ["number"]),
    "unknown_card_in_hand": (lambda d: d["seats"][0]["dealt_hand"].append("核弹"), ["dealt_hand"]),
    "unknown_card_in_deck": (lambda d: d["game"]["deck"].append("核弹"), ["deck"]),
    "unknown_phase_kind": (lambda d: d["phases"][0].update(kind="dusk"), ["kind"]),
    "unknown_use": (
        lambda d: next(i for i in d["inputs"] if i["kind"] == "action")["payload"].update(use="核爆"),
        ["use"],
    ),
    "huge_message": (
        lambda d: d["messages"].append(
            {"id": 9, "seat": 1, "sender_name": "甲", "text": "死" * 50_001, "forum_at": d["phases"][0]["starts_at"]}
        ),
        ["text"],
    ),
    "phase_ends_before_it_starts": (
        lambda d: d["phases"][-1].update(ends_at=d["phases"][-1]["starts_at"]),
        ["结束时间必须晚于开始时间"],
    ),
    "phases_out_of_order": (lambda d: d["phases"].reverse(), ["时段"]),
    "year_one": (lambda d: d["phases"][0].update(starts_at="0001-01-01T00:00:00+00:00"), ["2000"]),
    "naive_time": (lambda d: d["inputs"][0].update(forum_at="2024-01-01T00:00:00"), ["时区"]),
    "input_of_a_missing_seat": (lambda d: d["inputs"][0].update(seat=9), ["座位"]),
    "input_of_a_missing_phase": (lambda d: d["inputs"][0].update(phase=99), ["时段"]),
    "long_name": (lambda d: d["seats"][0].update(player_name="名" * 61), ["player_name"]),
    "unknown_format": (lambda d: d.update(format="direnjie-game/9"), ["format"]),
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_malformed_export_is_refused_with_the_first_problem_named(gm_client, exported, attack):
    change, words = ATTACKS[attack]
    _refused(gm_client, _with(exported, change), "无法导入", *words)


@pytest.mark.parametrize(
    "body",
    [
        b'{"format": "direnjie-game/2", "game": {"phase_seconds": Infinity}}',
        b'{"format": "direnjie-game/2", "game": NaN}',
        b'{"format": "direnjie-game/2", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"format": "direnjie-game/2", "x": ' + b"[" * 50 + b"]" * 50 + b"}",
        b'{"format": "direnjie-game/2", "seq": 1' + b"0" * 5000 + b"}",
        b"\xff\xfe not utf-8",
        b"[]",
        b"null",
    ],
    ids=["infinity", "nan", "deep_100k", "deep_50", "int_5000_digits", "not_utf8", "list", "null"],
)
def test_json_tricks_are_refused(gm_client, body):
    _refused(gm_client, body, "无法导入")


def test_an_oversize_upload_is_refused_before_it_is_read(gm_client):
    page = _refused(gm_client, b" " * (MAX_BYTES + 1))
    assert "文件太大" in page


def _refusal(page: str) -> str:
    """The refusal as the 天神 reads it: the form's error line, without tags."""
    text = html.unescape(re.sub(r"<[^>]+>", "\n", page))
    return next(line.strip() for line in text.splitlines() if "无法导入" in line)


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_refusal_is_a_chinese_sentence_naming_the_files_own_words_only(gm_client, exported, attack):
    """Only the file's own keys and values may appear in English (where the problem is); what is wrong is said in
    Chinese — never pydantic's "Input should be …", a Python repr or the prefix twice."""
    change, _ = ATTACKS[attack]
    body = _with(exported, change)
    said = _refusal(_refused(gm_client, body))
    assert said.count("无法导入") == 1 and "'" not in said, said
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9-]*", re.sub(r"\d{4}-\d\d-\d\dT[0-9:+]+", " ", said)))
    own = set(re.findall(r"[A-Za-z_][A-Za-z_0-9-]*", body.decode()))
    assert words <= own | {"JSON", "MB", "KB", "UTF-8"}, (said, words - own)
