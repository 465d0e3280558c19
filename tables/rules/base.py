"""Shared plumbing for the table-tracker rules modules.

Pure Python: no Django. Every game module exposes the same small interface::

    KIND, TITLE, MIN_PLAYERS, MAX_PLAYERS
    new_game(players, seed, options=None) -> State
    apply(state, action) -> (new_state, events)      # validates, raises RuleError
    legal(state, action) -> None                      # raises RuleError when apply would
    winner(state) -> list[int] | None                 # winning seats once the game is over
    score(state) -> dict[int, int] | None
    view(state, viewer) -> dict                       # viewer: seat index, or None for a spectator
    forms(state, seat) -> list[dict]                  # the actions that seat may take now (for the UI)

States are dataclasses holding only JSON types (lists, dicts with string keys, str, int, bool, None); ``to_dict`` /
``from_dict`` round-trip them through plain JSON.  ``apply`` never mutates its input: it works on a clone.

Randomness: ``new_game`` draws from ``random.Random(seed)``.  Every later random draw (a reshuffle, a card taken at
random from a hand) uses ``random.Random(f"{seed}:{n}")`` where ``n`` is a counter stored in the state, so replaying
the same actions from ``new_game`` always rebuilds the same state.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Mapping
from typing import Any, Self


class RuleError(ValueError):
    """An action that the rules do not allow. The message (Chinese) says what was wrong and what is accepted."""


@dataclasses.dataclass
class TableState:
    """Base class: JSON round-trip and cloning for a game's state dataclass."""

    def to_dict(self) -> dict[str, Any]:
        # A JSON round trip is the deep copy: states hold only JSON types, and the C codec is several times faster
        # than copy.deepcopy on a long log (the whole-game fuzz spent most of its time here).
        return _json_copy({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})

    @classmethod
    def from_dict(cls, data: dict[str, Any], copy: bool = True) -> Self:
        """``copy=False`` is for data nobody else holds (a row just read and dropped after): the state then shares its
        lists with ``data``, which saves a copy of the whole log."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise RuleError(f"状态数据含有未知字段:{sorted(unknown)}")
        return cls(**(_json_copy(data) if copy else data))

    def clone(self) -> Self:
        # One JSON round trip, not two (``from_dict(to_dict())`` copied twice): the same JSON-typed copy at half the
        # cost; every ``apply`` starts with a clone, and random play tries many refused actions.
        return type(self)(**self.to_dict())


def _json_copy(data: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(data, ensure_ascii=False))
    return copied


def later_rng(state: Any) -> random.Random:
    """A fresh generator for one random draw after setup; advances the state's counter."""
    state.rng_count += 1
    return random.Random(f"{state.seed}:{state.rng_count}")


def next_living(s: Any, seat: int, step: int) -> int:
    """The next living seat ``step`` away (-1: counter-clockwise, the next in turn order of a game played to the
    right); the seat itself when nobody else lives."""
    n = len(s.alive)
    for k in range(1, n + 1):
        candidate = (seat + step * k) % n
        if s.alive[candidate]:
            return candidate
    return seat


def emit(state: Any, text: str, to: list[int] | None = None) -> None:
    """Append an event to the state's log. ``to`` None = public; otherwise only those seats see it."""
    state.log.append({"text": text, "to": sorted(set(to)) if to is not None else None})


def visible_log(log: list[dict[str, Any]], viewer: int | None) -> list[str]:
    return [e["text"] for e in log if e["to"] is None or (viewer is not None and viewer in e["to"])]


def dispatch(
    state: Any,
    action: Any,
    expected: Callable[[Any], tuple[int | list[int], list[str]]],
    handlers: Mapping[str, Callable[[Any, int, dict[str, Any]], None]],
    names: dict[str, str],
) -> tuple[Any, list[dict[str, Any]]]:
    """The shared preamble of every game's ``apply``: clone, check who acts and what, run the handler.

    ``expected(state)`` gives the seat(s) that may act now and the action types open to them (raising RuleError when
    the game is over); ``names`` gives each action type's Chinese name, so no message shows an internal code.
    """
    kind = action_type(action)
    seat = seat_param(state, action)
    who, allowed = expected(state)  # read before the copy: a move out of turn costs no copy of the state
    seats = [who] if isinstance(who, int) else list(who)
    open_now = "、".join(f"「{names.get(k, k)}」" for k in allowed)
    if seat not in seats:
        waiting = "、".join(state.players[p] for p in seats)
        raise RuleError(f"现在应由 {waiting} 行动(可以{open_now}),不是 {state.players[seat]}。")
    if kind not in allowed:
        what = f"「{names[kind]}」" if kind in names else "这个动作"
        raise RuleError(f"现在不能{what}。现在可以:{open_now}。")
    s = state.clone()
    start = len(s.log)
    handlers[kind](s, seat, action)
    return s, s.log[start:]


def legal_via(apply: Callable[[Any, Any], tuple[Any, list[dict[str, Any]]]]) -> Callable[[Any, Any], None]:
    """A game's ``legal``: raises exactly when its ``apply`` would (``apply`` never mutates, so it can just try)."""

    def legal(state: Any, action: Any) -> None:
        apply(state, action)

    return legal


def require(condition: bool, message: str) -> None:
    if not condition:
        raise RuleError(message)


def action_type(action: Any) -> str:
    require(isinstance(action, dict), "动作必须是一个字典,例如 {'type': ..., 'player': 座位号}。")
    kind = action.get("type")
    require(isinstance(kind, str) and kind != "", "动作缺少 type(动作类型)。")
    return kind


def seat_param(state: Any, action: dict[str, Any], key: str = "player", what: str = "玩家") -> int:
    """An integer seat index in range, else RuleError."""
    value = action.get(key)
    n = len(state.players)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise RuleError(f"{what}必须是 0 到 {n - 1} 之间的座位号,收到的是 {value!r}。")
    return value


def int_param(action: dict[str, Any], key: str, allowed: list[int] | range, what: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        shown = "、".join(str(v) for v in allowed)
        raise RuleError(f"{what}必须是 {shown} 之一,收到的是 {value!r}。")
    return value


def str_param(
    action: dict[str, Any], key: str, allowed: list[str] | tuple[str, ...] | Mapping[str, str], what: str
) -> str:
    """One of ``allowed``; a mapping gives each accepted value's name, which the message shows instead of the code."""
    value = action.get(key)
    if value not in allowed:
        names = list(allowed.values()) if isinstance(allowed, Mapping) else list(allowed)
        raise RuleError(f"{what}只能是 {'、'.join(names)} 之一。")
    return str(value)


def cards_param(action: dict[str, Any], key: str = "cards") -> list[str]:
    value = action.get(key)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RuleError(f"{key} 必须是牌名列表,收到的是 {value!r}。")
    return list(value)


def take_from(hand: list[str], cards: list[str], whose: str = "你的手牌") -> None:
    """Remove ``cards`` (a multiset) from ``hand`` in place, or RuleError naming what is missing."""
    remaining = list(hand)
    for card in cards:
        if card not in remaining:
            raise RuleError(f"{whose}中没有足够的「{card}」。现有手牌:{'、'.join(hand) or '(无)'}。")
        remaining.remove(card)
    hand[:] = remaining


def check_players(players: list[str], low: int, high: int) -> list[str]:
    require(isinstance(players, list) and all(isinstance(p, str) for p in players), "玩家必须是名字列表。")
    names = [p.strip() for p in players]
    require(all(names), "玩家名字不能为空。")
    require(len(set(names)) == len(names), "玩家名字不能重复。")
    require(low <= len(names) <= high, f"本游戏需要 {low}–{high} 名玩家,收到 {len(names)} 名。")
    return names


def param(
    name: str, label: str, kind: str, choices: list[tuple[Any, str]] | None = None, count: int | None = None
) -> dict[str, Any]:
    """One parameter of a UI form.

    kind: hidden (fixed value) | seat | int | choice (str) | source ("deck"/"none" or a seat) | cardset (space-separated
    cards → list) | multi (list of str; ``count`` = how many to pick) | seats (list of int) | sources (up to two
    sources → list) | number (an integer typed in) | text (free text, e.g. a reason).
    """
    return {"name": name, "label": label, "kind": kind, "choices": [list(c) for c in (choices or [])], "count": count}


def form(kind: str, label: str, *params: dict[str, Any], help: str = "") -> dict[str, Any]:
    return {"type": kind, "label": label, "params": list(params), "help": help}


def action_from_form(spec: dict[str, Any], values: dict[str, list[str]]) -> dict[str, Any]:
    """Turn posted strings (name -> list of values) into an action for the form ``spec`` (see ``param``)."""
    action: dict[str, Any] = {"type": spec["type"]}
    for p in spec["params"]:
        name, kind, label = p["name"], p["kind"], p["label"] or p["name"]
        if kind == "hidden":
            action[name] = p["choices"][0][0]
            continue
        raw = [v.strip() for v in values.get(name, []) if v is not None and v.strip() != ""]
        if kind in ("multi", "seats", "sources"):
            require(len(raw) <= 30, f"「{label}」选得太多了。")
            for v in raw:
                _offered(p, v, label)
            action[name] = [_convert(kind, v, label) for v in raw]
            continue
        require(bool(raw), f"请填写「{label}」。")
        _offered(p, raw[0], label)
        action[name] = _convert(kind, raw[0], label)
    return action


def _offered(spec: dict[str, Any], value: str, label: str) -> None:
    """A value posted for a field with choices must be one the form offered: a tampered form gets a sentence naming
    the offered choices by their labels, never the rules' internal codes (``row``, ``col``, seat numbers)."""
    choices = spec["choices"]
    if not choices or spec["kind"] in ("hidden", "number", "text", "cardset"):
        return
    if any(str(c[0]) == value for c in choices):
        return
    offered = "、".join(str(c[1] or c[0]) for c in choices[:12]) + ("……" if len(choices) > 12 else "")
    raise RuleError(f"「{label}」只能从表单给出的选项中选:{offered}。收到的「{value[:20]}」不是其中之一。")


def random_form_values(
    spec: dict[str, Any], rng: random.Random, *, free_fields: bool = False
) -> dict[str, list[str]] | None:
    """Posted strings a player could send through the form ``spec``, drawn with ``rng`` (fuzz and play-out tests).

    Choices come from the form; with ``free_fields`` a number field gets a small integer (negative ones too) and a
    text field a short note, otherwise a form with such a field is skipped like one with nothing to choose (None)."""
    values: dict[str, list[str]] = {}
    for p in spec["params"]:
        options = [str(c[0]) for c in p["choices"]]
        kind = p["kind"]
        if kind == "hidden":
            continue
        if kind in ("multi", "seats"):
            k = p["count"] if p["count"] is not None else rng.choice([1, 1, 2])
            if k > len(options):
                return None
            values[p["name"]] = rng.sample(options, k)
        elif kind == "sources":
            values[p["name"]] = [rng.choice(options) for _ in range(rng.choice([0, 1, 2, 2]))] if options else []
        elif free_fields and kind == "number":
            values[p["name"]] = [str(rng.randint(-2, 9))]
        elif free_fields and kind == "text":
            values[p["name"]] = ["记错了"]
        else:
            if not options:
                return None
            values[p["name"]] = [rng.choice(options)]
    return values


INTEGER = re.compile(r"-?[0-9]{1,6}")
TEXT_MAX = 200


def _convert(kind: str, value: str, label: str) -> Any:
    """One posted string → an action value, with bounds: nothing a browser can send raises anything but RuleError."""
    require(len(value) <= TEXT_MAX, f"「{label}」太长了(最多 {TEXT_MAX} 个字)。")
    whole = INTEGER.fullmatch(value) is not None
    if kind in ("seat", "int", "seats", "number"):
        require(whole, f"「{label}」必须是不超过六位的整数,收到「{value[:20]}」。")
        return int(value)
    if kind in ("source", "sources"):
        return int(value) if whole else value
    if kind == "cardset":
        cards = value.split()
        require(len(cards) <= 10, f"「{label}」最多填 10 张牌。")
        return cards
    return value
