"""The drafts of the announcements, rendered from data (A1–A5): the events of a close → a context → BBCode (a
close's drafts through `posts`, in Python; the notices the 天神 posts by hand through templates), and the plain text
from the same render. Nothing here reads or writes the database: `announce` stores the drafts as rows."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import NamedTuple

from django.template.loader import render_to_string

from moderator.game.settle import winners
from moderator.game.state import CloseResult, GameState, evolve
from moderator.models import Announcement, Game, Phase
from moderator.rules.views import final_reveal, revealed_camp
from moderator.services import posts

NUMERALS = "零一两三四五六七八九十"
BBCODE_TAG = re.compile(r"\[/?(?:b|i|u|quote|color|size|list|\*)(?:=[^\]]*)?\]")
# A quote's text holds no bracket (templatetags.bbcode escapes every value), so it cannot close its quote early.
QUOTE = re.compile(r"\[quote\](.*?)\[/quote\]", re.S)
# Every character str.splitlines() (and a text box, a reader, a forum editor) breaks a line at: a lone CR inside a
# manifesto must not start a line of the plain text without its "> ".
LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
BLANK_LINES = re.compile(r"\n{3,}")
# What renders a draft: a template's name (the notices the 天神 posts by hand) or a function of `posts` (a close's).
Renderer = str | Callable[[dict], str]


class Draft(NamedTuple):
    """A draft as a close writes it, before it is an `Announcement` row: its game and phase are the close's."""

    kind: str
    recipient: str
    title: str
    bbcode: str
    text: str
    events: list


def count(n: int) -> str:
    return NUMERALS[n] if n < len(NUMERALS) else str(n)


def cards_phrase(privilege: int, common: int) -> str:
    """A1: "一张特权牌和一张庶民牌" — by type only, never which card."""
    parts = [f"{count(n)}张{kind}牌" for n, kind in ((privilege, "特权"), (common, "庶民")) if n]
    return "和".join(parts)


def bbcode_plain(bbcode: str) -> str:
    """The plain-text twin of a draft. A quote (a 杀人宣言, written by a player) keeps a "> " on each of its lines,
    so that a forged "…死亡。" inside it never reads like the 天神's own line."""
    quoted = QUOTE.sub(lambda m: "\n".join(f"> {line}" for line in LINE_BREAK.split(m.group(1))), bbcode)
    return BBCODE_TAG.sub("", quoted)


def _losses(events: list[dict], causes: tuple[str, ...]) -> list[dict]:
    by_player: dict[str, dict[str, int]] = defaultdict(lambda: {"特权": 0, "庶民": 0})
    for e in events:
        if e["type"] == "loss" and e["cause"] in causes and e["announced"]:
            by_player[e["player"]][e["card_type"]] += 1
    return [{"player": p, "phrase": cards_phrase(k["特权"], k["庶民"])} for p, k in by_player.items()]


def _typed(events: list[dict], cause: str) -> list[dict]:
    return [
        {"player": e["player"], "phrase": cards_phrase(e["card_type"] == "特权", e["card_type"] == "庶民")}
        for e in events
        if e["type"] == "loss" and e["cause"] == cause and e["announced"]
    ]


def _common(events: list[dict], result: CloseResult, next_phase: Phase | None) -> dict:
    return {
        "deaths": [e for e in events if e["type"] == "death"],
        "window": next((e["mark"] for e in events if e["type"] == "window"), None),
        "silence": result.silence,
        "silence_left": count(next((e.get("alive", 3) for e in events if e["type"] == "silence"), 3)),  # T7
        "winner": result.winner,
        "winners": next((e.get("winners", []) for e in events if e["type"] == "victory"), []),  # V2: both co-winners
        "next_phase": next_phase,
        "deadline": posts.deadline_text(next_phase.ends_at) if next_phase is not None else "",  # formatted once a close
        "doom": _typed(events, "绝杀"),
    }


def dawn_context(result: CloseResult) -> dict:
    """A2: losses by type, named 绝杀 and 束魂/巫医 failures, saved players, yesterday's executed cards, pardons,
    deaths (camp only for day deaths), the night's 杀人宣言 without authors, windows, 默哀期, victory."""
    events = list(result.events)
    return {
        "attacked": _losses(events, ("攻击",)),
        "failures": _typed(events, "束魂") + _typed(events, "巫医"),
        "saved": list(result.saved),
        "execution_cards": [
            {"player": e["player"], "phrase": cards_phrase(e["card_type"] == "特权", e["card_type"] == "庶民")}
            for e in events
            if e["type"] == "execution_card"
        ],
        "pardons": [e["player"] for e in events if e["type"] == "pardon"],
        "manifestos": [e["text"] for e in events if e["type"] == "manifesto"],
    }


def dusk_context(result: CloseResult, seats: list[str] | None = None) -> dict:
    """A3: the weighted tally (highest first, ties in seat order), executions, 圣人 and day 绝杀 losses, day deaths
    with camps, window, 默哀期, victory."""
    events = list(result.events)
    seat_of = {name: i for i, name in enumerate(seats or [])}
    announced_now = {e["player"]: e for e in events if e["type"] == "loss" and e["cause"] == "处决" and e["announced"]}
    return {
        "tally": sorted(result.tally.items(), key=lambda kv: (-kv[1], seat_of.get(kv[0], 0))),
        "executed": [
            {
                "player": p,
                "phrase": cards_phrase(announced_now[p]["card_type"] == "特权", announced_now[p]["card_type"] == "庶民")
                if p in announced_now
                else "",
            }
            for p in result.executed
        ],
        "saints": [e["player"] for e in events if e["type"] == "saint"],
        "saint_losses": _typed(events, "圣人"),
    }


def public_post(
    *,
    game: Game,
    phase: Phase,
    result: CloseResult,
    next_phase,
    seats: list[str] | None = None,
    state: GameState | None = None,
) -> tuple[Renderer, dict]:
    """The renderer and context of the close's public post: dawn (A2) after a night, dusk (A3) after a day (ties in
    the tally in `seats` order). `next_phase`: what the close opens (a `Phase`, or the close's `NextPhase`);
    `state`: the state after the close, for a self-chosen day death's stance (V5, as the final reveal says it)."""
    events = list(result.events)
    ctx = {"game": game, "phase": phase, **_common(events, result, next_phase)}
    ctx["deaths"] = [{**d, "camp": revealed_camp(state, d["player"], d.get("camp"))} for d in ctx["deaths"]]
    if phase.kind == Phase.Kind.NIGHT:
        return posts.dawn, {**ctx, **dawn_context(result)}
    return posts.dusk, {**ctx, **dusk_context(result, seats)}


def render_bbcode(template: Renderer, ctx: dict) -> str:
    """A draft's BBCode as it is stored and previewed (plain text: `plain`): a close's drafts through `posts`, the
    other notices through their templates."""
    raw = render_to_string(template, ctx) if isinstance(template, str) else template(ctx)
    return BLANK_LINES.sub("\n\n", raw.strip())


def close_drafts(*, game: Game, phase: Phase, state: GameState, result: CloseResult, next_phase) -> list[Draft]:
    """Every draft of a close, rendered, in the order they are stored: the public post (dawn or dusk), the vote post
    of the day it opens, the private notices, and the final summary when the game is won. `next_phase`: what the
    close opens (a `Phase`, or the close's `closing.NextPhase`: its kind, number, end and label), None when none."""
    events = list(result.events)
    seats = [s.name for s in state.seats]
    render, ctx = public_post(game=game, phase=phase, result=result, next_phase=next_phase, seats=seats, state=state)
    made = []
    if phase.kind == Phase.Kind.NIGHT:
        title = f"【{game.name}】{phase.label}结束,天亮了"
        made.append(draft_make(Announcement.Kind.DAWN, title, render, ctx, events))
        if next_phase is not None:
            voters = [s.name for s in state.alive if s.name not in result.saved]  # N7/N8: the saved do not vote
            vote_ctx = {**ctx, "alive": [s.name for s in state.alive], "voters": voters, "no_vote": list(result.saved)}
            title = f"【{game.name}】{next_phase.label}投票帖"
            made.append(draft_make(Announcement.Kind.VOTE_POST, title, posts.vote_post, vote_ctx, []))
    else:
        title = f"【{game.name}】{phase.label}投票结果,天黑了"
        made.append(draft_make(Announcement.Kind.DUSK, title, render, ctx, events))
    made += _private_notices(game, state, events)
    if result.winner:
        made.append(final_summary_draft(game=game, phase=phase, state=state, winner=result.winner))
    return made


def draft_make(kind, title, template: Renderer, ctx, events, recipient="") -> Draft:
    """A draft, rendered."""
    bbcode = render_bbcode(template, ctx)
    return Draft(kind, recipient, title, bbcode, bbcode_plain(bbcode), events)


def _private_notices(game: Game, state: GameState, events: list[dict]) -> list[Draft]:
    """A5: the co-win notice to the partner (S4, naming nobody), and order-change reminders (O3)."""
    made = []
    for e in events:
        if e["type"] == "co_win" and e["partner"]:
            title = f"致{e['partner']}:共赢通知"
            made.append(
                draft_make(Announcement.Kind.PRIVATE, title, posts.co_win, {"partner": e["partner"]}, [e], e["partner"])
            )
        if e["type"] == "window":
            for seat in state.alive:
                ctx = {"game": game, "seat": seat, "bottom": seat.hand[-1].name if seat.hand else ""}
                title = f"致{seat.name}:可以修改丢牌顺序"
                made.append(draft_make(Announcement.Kind.PRIVATE, title, posts.order_window, ctx, [e], seat.name))
    return made


def final_summary_draft(*, game: Game, phase: Phase, state: GameState, winner: str) -> Draft:
    """The end of the game: the winner, and every seat's camp and the cards it still held (nothing is secret now)."""
    won = evolve(state, winner=winner)  # a declared draw (V4) is not in the state yet
    ctx = {"game": game, "phase": phase, "seats": final_reveal(state), "winner": winner, "winners": winners(won)}
    title = f"【{game.name}】游戏结束:全体身份与手牌"
    events = [{"type": "victory", "winner": winner}]  # a draft of the close: a correction may supersede it
    return draft_make(Announcement.Kind.NOTICE, title, posts.final_summary, ctx, events)
