"""A director for one electronic 三国杀 game that reaches every house rule of seed 002 (with 暗魂): it chooses, at
each step, one of the forms the pages offer to some seat, so that the loyalist goes out first and its 罗汉 absorbs a
hit, the loyalist is reborn from three sacrifices, the renegade goes out and its 祝由 possesses somebody, a rebel goes
out and its 玄武 swaps a card, the three left wait out the countdown and the game ends.

Pure: it reads the state and the rules' forms; the browser test sends what it chooses through the pages."""

from __future__ import annotations

from typing import Any

from tables.rules import GAMES

sgs = GAMES["sanguosha"]  # its rules and its view, as the site uses them


def _roles(s: Any) -> tuple[int, int, list[int]]:
    loyal = s.roles.index(sgs.LOYAL)
    renegade = s.roles.index(sgs.RENEGADE)
    rebels = [p for p, r in enumerate(s.roles) if r == sgs.REBEL]
    return loyal, renegade, rebels


def _countdown_bit(s: Any) -> bool:
    return any("所有人同时各失去 1 点体力" in e["text"] for e in s.log)


def targets(s: Any) -> set[int]:
    """Whom the table is out to put out now."""
    loyal, renegade, rebels = _roles(s)
    if not _was_out(s, loyal):
        return {loyal}
    if not _was_out(s, renegade):
        return {renegade}
    if not any(_was_out(s, r) for r in rebels):
        return set(rebels)
    if not _countdown_bit(s):
        return set()
    return {p for p in range(len(s.players)) if s.alive[p]}


def _was_out(s: Any, p: int) -> bool:
    return any(victim == p for _, victim in s.kills)


def choose(s: Any) -> tuple[int, dict[str, Any], dict[str, list[str]]]:
    """(seat, form, posted values) for the next step."""
    n = len(s.players)
    loyal = s.roles.index(sgs.LOYAL)
    want = targets(s)
    # a ghost first, as soon as it may act (罗汉: on the first [杀] after the loyalist is out)
    for p in range(n):
        for f in sgs.forms(s, p):
            if f["type"] == "ghost":
                return p, f, {"target": [str(f["params"][0]["choices"][0][0])]}
    who = sgs.view(s, None)["to_act"]
    seat = who if isinstance(who, int) else who[0]
    forms = {f["type"]: f for f in sgs.forms(s, seat)}
    assert forms, (s.phase, seat)
    if "choose_general" in forms:
        f = forms["choose_general"]
        return seat, f, {"general": [str(f["params"][0]["choices"][0][0])]}
    if "sacrifice" in forms and not s.alive[loyal] and s.ghosts[loyal] is None and not s.reborn[loyal]:
        f = forms["sacrifice"]
        if any(str(c[0]) == str(loyal) for c in f["params"][0]["choices"]):
            return seat, f, {"target": [str(loyal)], "card": [str(f["params"][1]["choices"][0][0])]}
    if "sha" in forms:
        f = forms["sha"]
        aim = [int(c[0]) for c in f["params"][0]["choices"] if int(c[0]) in want and int(c[0]) != seat]
        if aim and "jiu" in forms and s.hands[seat].count(sgs.JIU):
            return seat, forms["jiu"], {}
        if aim:
            return seat, f, {"target": [str(aim[0])]}
    if "tao" in forms and seat not in want:
        return seat, forms["tao"], {}
    if "end_play" in forms:
        return seat, forms["end_play"], {}
    if "take" in forms:
        if seat in want or "shan" not in forms:
            return seat, forms["take"], {}
        return seat, forms["shan"], {}
    if "pass" in forms:
        victim = s.pending["victim"]
        if victim not in want and "rescue" in forms:
            return seat, forms["rescue"], {"card": [str(forms["rescue"]["params"][0]["choices"][0][0])]}
        return seat, forms["pass"], {}
    if "discard" in forms:
        f = forms["discard"]
        k = f["params"][0]["count"]
        keep = {sgs.SHAN: 0, sgs.TAO: 1, sgs.JIU: 2, sgs.SHA: 3}
        return seat, f, {"cards": sorted(s.hands[seat], key=keep.__getitem__)[:k]}
    raise AssertionError(f"no plan for {sorted(forms)}")
