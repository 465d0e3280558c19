"""The snapshot codec (moderator/rules/codec.py): a state stored after a close loads back equal, to the same JSON
text, and a snapshot stored before a field was added still loads (the field's default) — the decoder builds a
dataclass directly only when it has exactly its fields."""

import json
from pathlib import Path

import pytest

from moderator.game.state import Amoeba, evolve
from moderator.rules import Action, SeatSpec, end_phase, open_phase, start_game, submit
from moderator.rules.codec import SNAPSHOT_FORMAT, CodecError, state_dump, state_load


def _played():
    seats = [
        SeatSpec("甲", "杀手", ("庶民", "庶民", "杀手")),
        SeatSpec("乙", "平民", ("束魂", "阿米巴")),
        SeatSpec("丙", "平民", ("巫医",)),
        SeatSpec("丁", "狼人", ("庶民", "庶民", "狼人")),
    ]
    state, verdict = submit(
        start_game(seats), Action("甲", "普通攻击", "杀手", "丙", manifesto="月黑风高[/quote]" * 13)
    )
    assert verdict.accepted, verdict.reason
    state, _ = open_phase(end_phase(state)[0])
    b = state.seat("乙")
    uid = next(c.uid for c in b.hand if c.name == "阿米巴")
    state = state.with_seat(evolve(b, amoebas={uid: Amoeba(form="保镖", done_at=("night", 1), forms_used=("保镖",))}))
    return evolve(state, streaks={("乙", "束魂", "甲"): 2}, passed=frozenset({"丁", "甲"}))


def test_a_snapshot_loads_back_equal_and_dumps_to_the_same_text():
    state = _played()
    text = state_dump(state)
    loaded = state_load(text)
    assert loaded == state and repr(loaded) == repr(state)  # repr: tuples stay tuples, sets stay frozensets
    assert state_dump(loaded) == text
    assert loaded.seat("乙").amoebas and loaded.streaks == {("乙", "束魂", "甲"): 2}


def test_a_snapshot_stored_before_a_field_existed_loads_with_its_default():
    doc = json.loads(state_dump(_played()))["state"]
    del doc["passed"]  # a GameState field
    amoebas = next(s for s in doc["seats"]["~t"] if s["name"] == "乙")["amoebas"]["~d"]
    del amoebas[0][1]["guarding"]  # an Amoeba field
    loaded = state_load(json.dumps(doc, ensure_ascii=False))
    assert loaded.passed == frozenset() and not next(iter(loaded.seat("乙").amoebas.values())).guarding


def test_a_snapshot_stored_with_a_field_the_state_has_since_dropped_loads_as_the_same_state():
    doc = json.loads(state_dump(_played()))
    doc["state"]["next_uid"] = 9  # a GameState field of earlier versions, never read
    assert state_load(json.dumps(doc, ensure_ascii=False)) == _played()


def test_a_snapshot_with_a_field_the_engine_does_not_know_is_refused():
    doc = json.loads(state_dump(_played()))
    doc["state"]["no_such_field"] = 1
    with pytest.raises(TypeError):
        state_load(json.dumps(doc, ensure_ascii=False))


def test_the_one_pass_writer_gives_the_text_json_dumps_gives():
    """state_dump writes the JSON itself; its text is `json.dumps` of the packed state, character for character —
    a snapshot stored before it loads and compares the same (escapes, numbers, tagged keys, sorted sets)."""
    from moderator.rules.codec import _pack

    odd = '\x00\u2028"\\/é[引号]'
    state = evolve(_played(), phase_minutes=1439.5, streaks={("乙", odd, "甲"): 10**20}, passed=frozenset({odd, "丁"}))
    state = evolve(state, votes={odd: 1, "甲": float("inf")})  # a str-keyed dict; numbers json writes its own way
    packed = {"format": SNAPSHOT_FORMAT, "state": _pack(state)}
    assert state_dump(state) == json.dumps(packed, ensure_ascii=False, separators=(",", ":"))


def test_a_snapshot_says_its_format_and_one_stored_before_the_format_was_written_still_loads():
    """Snapshots stored by earlier versions stay in databases and backups: format 1 is the bare state (the file is one
    such snapshot, written by the code before the format existed); it loads as the state it was."""
    assert json.loads(state_dump(_played()))["format"] == SNAPSHOT_FORMAT == 2
    old = (Path(__file__).parent / "data" / "snapshot-format-1.json").read_text(encoding="utf-8")
    assert not old.startswith('{"format"')
    assert state_load(old) == _played()
    assert state_load(state_dump(state_load(old))) == _played()


def test_a_snapshot_of_a_newer_format_is_refused_with_a_sentence():
    doc = json.loads(state_dump(_played()))
    doc["format"] = 3
    with pytest.raises(CodecError, match="快照格式 3 不是这个版本能读的"):
        state_load(json.dumps(doc, ensure_ascii=False))
