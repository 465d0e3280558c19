"""The one codec of the house: an input as the parser and the scenarios write it (an *item*), as it is stored (a
*payload*), as the engine takes it, and as the 天神 reads it (a sentence). It is the only place that branches on the
kind of an input; a new kind is one entry here.

Also the state codec: a `GameState` to JSON and back, for the snapshot stored after each closed phase.

Items use the docs/scenarios.md / docs/parser.md vocabulary, with players by name:
    action  {"use": "束魂", "card": "束魂", "target": "阿飞", "position": -2, "into": …, "manifesto": …, "change": true}
    vote    {"for": "阿飞"} (an original vote) or {"change": "阿飞"} (a change post), "edited": true (D3)
    order   {"order": ["庶民", …, "束魂"]}, "source": "random" and "seed" for an order drawn by O1
    pass    {"pass": true} ("今晚空过": T5 waits for the player no longer)
Payloads are the same with every player written as a seat number, so that a substitute (S5) keeps the seat's inputs.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from moderator.game import state as st

ACTION, VOTE, ORDER, PASS = "action", "vote", "order", "pass"
INPUT_KINDS = (ACTION, VOTE, ORDER, PASS)
ACTION_KEYS = ("card", "use", "target", "position", "into", "side", "mode", "manifesto", "change")
_PLAYER_KEYS = {ACTION: ("target",), VOTE: ("for", "change"), ORDER: (), PASS: ()}
_ITEM_KEYS = {
    ACTION: ACTION_KEYS,
    VOTE: ("for", "change", "edited"),
    ORDER: ("order", "source", "seed"),
    PASS: ("pass",),
}


class CodecError(ValueError):
    """An item or payload that is not an input; the message says what would be accepted (in Chinese)."""


def kind_of(item: Mapping[str, Any]) -> str:
    """The kind of an item: an order has `order`; a vote has `for`, or `change` naming a player with no `use`."""
    if "order" in item:
        return ORDER
    if item.get("pass"):
        return PASS
    if "use" in item:
        return ACTION
    if "for" in item or "change" in item or item.get("edited"):  # {"edited": true}: an edited post, original unknown
        return VOTE
    raise CodecError("看不出这是什么输入:需要特权(use)、投票(for / change)、丢牌顺序(order)或空过(pass)")


def encode(item: Mapping[str, Any], seat_of: Mapping[str, int]) -> tuple[str, dict[str, Any]]:
    """An item (players by name) → (kind, payload) with players by seat number; unknown players are refused."""
    kind = kind_of(item)
    payload: dict[str, Any] = {}
    for key in _ITEM_KEYS[kind]:
        value = item.get(key)
        if value is None or value == "" or value is False:
            continue
        if key in _PLAYER_KEYS[kind]:
            if value not in seat_of:
                raise CodecError(f"没有叫“{value}”的玩家")
            value = seat_of[value]
        elif key == "order":
            value = list(value)
        payload[key] = value
    if kind == ACTION and not payload.get("use"):
        raise CodecError("特权行动需要写明用哪项特权")
    return kind, payload


def decode(kind: str, payload: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """(kind, payload) → the item, players by their current name."""
    item = dict(payload)
    for key in _PLAYER_KEYS[kind]:
        if key in item and isinstance(item[key], int) and not isinstance(item[key], bool):
            item[key] = names[item[key]]
    return item


def to_engine(
    kind: str, payload: Mapping[str, Any], *, by: str, at: float, names: Mapping[int, str]
) -> st.Action | st.Vote | st.Order | st.Pass:
    """What the rules engine validates: the stored input as sent by `by`, `at` minutes into the phase (T3)."""
    return item_to_engine(decode(kind, payload, names), by=by, at=at)


def item_to_engine(item: Mapping[str, Any], *, by: str, at: float) -> st.Action | st.Vote | st.Order | st.Pass:
    kind = kind_of(item)
    if kind == PASS:
        return st.Pass(by, at)
    if kind == ORDER:
        return st.Order(by, tuple(item["order"]), at)
    if kind == VOTE:
        return st.Vote(by, item.get("for"), item.get("change"), at, bool(item.get("edited")))
    fields = {k: item[k] for k in ACTION_KEYS if item.get(k) is not None}
    fields["change"] = bool(fields.get("change"))
    return st.Action(by=by, at=at, **fields)


def from_engine(inp: st.Action | st.Vote | st.Order | st.Pass) -> dict[str, Any]:
    """An engine input (a scenario step) → the item."""
    if isinstance(inp, st.Pass):
        return {"pass": True}
    if isinstance(inp, st.Order):
        return {"order": list(inp.order)}
    if isinstance(inp, st.Vote):
        item: dict[str, Any] = {"for": inp.target} if inp.change is None else {"change": inp.change}
        if inp.edited and inp.target is None and inp.change is None:
            return {"edited": True}  # D3: the original target cannot be known
        return {**item, "edited": True} if inp.edited else item
    item = {k: getattr(inp, k) for k in ACTION_KEYS if getattr(inp, k) not in (None, "", False)}
    return item


def describe(kind: str, payload: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The sentence a 天神 reads of a stored input."""
    return describe_item(decode(kind, payload, names))


def describe_item(item: Mapping[str, Any]) -> str:
    """The sentence a 天神 reads: `束魂 → 阿飞`, `投票 → 阿飞`, `丢牌顺序:庶民、束魂〔底牌〕`."""
    kind = kind_of(item)
    if kind == PASS:
        return "空过(本时段不行动)"
    if kind == ORDER:
        cards = list(item["order"])
        text = "丢牌顺序:" + "、".join([*cards[:-1], f"{cards[-1]}〔底牌〕"] if cards else [])
        return text + ("(系统随机,O1)" if item.get("source") == "random" else "")
    if kind == VOTE:
        if not item.get("change") and not item.get("for"):
            return "原投票帖被编辑过,原投票对象无法得知(D3)"
        text = f"改票 → {item['change']}" if item.get("change") else f"投票 → {item['for']}"
        return text + ("(原帖被编辑过)" if item.get("edited") else "")
    return _describe_action(item)


def _describe_action(item: Mapping[str, Any]) -> str:
    use = item["use"]
    if use == "立场":
        return f"立场:{item.get('side') or '未写阵营'} {item.get('mode') or ''}".rstrip()
    text = use
    if item.get("card") and item["card"] != use:
        text += f"({item['card']})"
    if item.get("change"):
        text = f"更换对象:{text}"
    if item.get("target"):
        text += f" → {item['target']}"
    position = item.get("position")
    if position:
        text += f",{'第' if position > 0 else '倒数第'}{abs(position)}张"
    if item.get("into"):
        text += f",变成{item['into']}"
    return text


# --- the state codec (snapshots) -----------------------------------------------------------------------------------

# The tag each stored dataclass carries ("~"), fixed here and not taken from the class's name, so a class can be
# renamed without touching stored snapshots (the pure seat was `Seat`, now `SeatState`: its tag stays "Seat").
_TAGS: dict[type, str] = {
    st.Card: "Card",
    st.Amoeba: "Amoeba",
    st.SeatState: "Seat",
    st.Action: "Action",
    st.Vote: "Vote",
    st.Order: "Order",
    st.Pass: "Pass",
    st.LedgerRow: "LedgerRow",
    st.VoteState: "VoteState",
    st.PendingExecution: "PendingExecution",
    st.Arson: "Arson",
    st.CloseResult: "CloseResult",
    st.GameState: "GameState",
}
_TYPES: dict[str, type] = {tag: t for t, tag in _TAGS.items()}


_FIELDS: dict[type, tuple[str, ...]] = {t: tuple(f.name for f in dataclasses.fields(t)) for t in _TYPES.values()}
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _pack(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _FIELDS.get(kind)
    if names is not None:  # the fields read from the instance's dict, scalars kept without a call (a close packs
        fields = value.__dict__  # thousands of them: this is most of a snapshot's cost)
        packed = {}
        for name in names:
            field = fields[name]
            packed[name] = field if type(field) in _SCALARS else _pack(field)
        packed["~"] = _TAGS[kind]
        return packed
    if kind is tuple:
        return {"~t": [v if type(v) in _SCALARS else _pack(v) for v in value]}
    if kind is frozenset:
        return {"~s": sorted((_pack(v) for v in value), key=repr)}
    if kind is dict:
        if all(type(k) is str and not k.startswith("~") for k in value):
            return {k: _pack(v) for k, v in value.items()}
        return {"~d": [[_pack(k), _pack(v)] for k, v in value.items()]}
    if kind is list:
        return [_pack(v) for v in value]
    raise CodecError(f"快照里不能有 {kind.__name__}")


_FIELD_SETS: dict[str, tuple[type, frozenset[str], bool]] = {
    name: (t, frozenset(_FIELDS[t]), hasattr(t, "__post_init__")) for name, t in _TYPES.items()
}
_new, _set = object.__new__, object.__setattr__
# Fields that snapshots stored by earlier versions carry and the state no longer has: read and left out. Any other
# unknown field is refused (`__init__`).
_DROPPED: dict[str, frozenset[str]] = {"GameState": frozenset({"next_uid"})}


def _tagged(value: dict[str, Any]) -> Any:
    """json.loads' object_hook: each JSON object, its members already decoded (innermost first), as what `_pack`
    made it from. A dataclass with exactly its fields is built as `state.evolve` builds one (its fields set, then
    `__post_init__`); one stored before a field was added or after one was dropped goes through `__init__`, which
    fills the defaults (or refuses)."""
    tag = value.pop("~", None)
    if tag is not None:
        cls, names, post = _FIELD_SETS[tag]
        if value.keys() != names:
            for name in _DROPPED.get(tag, ()):
                value.pop(name, None)
            return cls(**value)
        new: Any = _new(cls)
        _set(new, "__dict__", value)  # the decoder's fresh dict, in field order, becomes the instance's
        if post:
            new.__post_init__()
        return new
    if "~t" in value:
        return tuple(value["~t"])
    if "~s" in value:
        return frozenset(value["~s"])
    if "~d" in value:
        return {k: v for k, v in value["~d"]}
    return value


SNAPSHOT_FORMAT = 2  # 1: the bare state (stored before the format was written); 2: {"format": 2, "state": …}
_FORMAT_HEAD = '{"format":' + str(SNAPSHOT_FORMAT) + ',"state":'


def state_dump(state: st.GameState) -> str:
    """The state as JSON text, with its format: `{"format":2,"state":…}`, the state being every field of every frozen
    dataclass (tagged by its fixed tag in `_TAGS`, never its class name), tuples, sets and non-string keys
    tagged.

    Written in one pass (`_write`), not `_pack`ed into dicts for `json.dumps` to walk again: the text is the one
    `json.dumps(_pack(state), ensure_ascii=False, separators=(",", ":"))` gives, character for character (the same
    string escape, number forms and key order; tests/engine/test_state_codec.py compares them)."""
    out: list[str] = [_FORMAT_HEAD]
    _write(state, out)
    out.append("}")
    return "".join(out)


_string = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) escapes a string with (C)
_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
# Per dataclass: the text before each field's value ('{"uid":', ',"name":') and the closing tag (',"~":"Card"}').
_KEYS: dict[type, tuple[tuple[tuple[str, str], ...], str]] = {
    t: (
        tuple((name, ("{" if i == 0 else ",") + _string(name) + ":") for i, name in enumerate(names)),
        ("," if names else "{") + '"~":' + _string(_TAGS[t]) + "}",
    )
    for t, names in _FIELDS.items()
}


def _write(value: Any, out: list[str]) -> None:
    """`_pack` and `json.dumps` in one: `value`'s JSON text appended to `out`."""
    kind = type(value)
    if kind is str:
        out.append(_string(value))
    elif kind is int:
        out.append(int.__repr__(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is float:
        out.append(_json(value))
    elif kind in _KEYS:
        keys, close = _KEYS[kind]
        fields = value.__dict__
        for name, key in keys:  # a string, a whole number or None without a call: most fields are one
            v = fields[name]
            if type(v) is str:
                out.append(key + _string(v))
            elif type(v) is int:
                out.append(key + int.__repr__(v))
            elif v is None:
                out.append(key + "null")
            else:
                out.append(key)
                _write(v, out)
        out.append(close)
    elif kind is tuple:
        sep = '{"~t":['
        for v in value:
            if type(v) is str:
                out.append(sep + _string(v))
            else:
                out.append(sep)
                _write(v, out)
            sep = ","
        out.append("]}" if value else '{"~t":[]}')
    elif kind is frozenset:  # sorted by the repr of the packed members, as `_pack` sorts them (a string: itself)
        if all(type(v) is str for v in value):
            out.append('{"~s":[' + ",".join([_string(v) for v in sorted(value, key=repr)]) + "]}")
        else:
            out.append('{"~s":' + _json(_pack(value)["~s"]) + "}")
    elif kind is dict:
        if all(type(k) is str and not k.startswith("~") for k in value):
            sep = "{"
            for k, v in value.items():
                out.append(sep + _string(k) + ":")
                _write(v, out)
                sep = ","
            out.append("}" if value else "{}")
        else:
            out.append('{"~d":[')
            for i, (k, v) in enumerate(value.items()):
                out.append(",[" if i else "[")
                _write(k, out)
                out.append(",")
                _write(v, out)
                out.append("]")
            out.append("]}")
    elif kind is list:
        out.append("[")
        for i, v in enumerate(value):
            if i:
                out.append(",")
            _write(v, out)
        out.append("]")
    else:
        raise CodecError(f"快照里不能有 {kind.__name__}")


_decode = json.JSONDecoder(object_hook=_tagged).decode


def state_load(text: str) -> st.GameState:
    """A stored snapshot back as the state, whatever format it was written in (1: the bare state; 2: with its
    format). A snapshot of a newer format than this code knows is refused, not guessed."""
    doc = _decode(text)
    if isinstance(doc, dict) and "format" in doc:
        if doc["format"] not in (1, SNAPSHOT_FORMAT) or set(doc) != {"format", "state"}:
            raise CodecError(f"快照格式 {doc['format']!r} 不是这个版本能读的(能读 1–{SNAPSHOT_FORMAT}):请先升级程序")
        doc = doc["state"]
    if not isinstance(doc, st.GameState):
        raise CodecError("快照不是游戏状态")
    return doc
