"""Announcement drafts (A1–A5): events of a close → context → templates (BBCode), plain text from the same render."""

from __future__ import annotations

import re
from collections import defaultdict

from django.template.loader import render_to_string

from moderator.models import Announcement, Game, Phase
from moderator.rules.state import CloseResult, GameState

NUMERALS = "零一两三四五六七八九十"
BBCODE_TAG = re.compile(r"\[/?(?:b|i|u|quote|color|size|list|\*)(?:=[^\]]*)?\]")
# A quote's text holds no bracket (templatetags.bbcode escapes every value), so it cannot close its quote early.
QUOTE = re.compile(r"\[quote\](.*?)\[/quote\]", re.S)


def count(n: int) -> str:
    return NUMERALS[n] if n < len(NUMERALS) else str(n)


def cards_phrase(privilege: int, common: int) -> str:
    """A1: "一张特权牌和一张庶民牌" — by type only, never which card."""
    parts = [f"{count(n)}张{kind}牌" for n, kind in ((privilege, "特权"), (common, "庶民")) if n]
    return "和".join(parts)


def plain(bbcode: str) -> str:
    """The plain-text twin of a draft. A quote (a 杀人宣言, written by a player) keeps a "> " on each of its lines,
    so that a forged "…死亡。" inside it never reads like the 天神's own line."""
    quoted = QUOTE.sub(lambda m: "\n".join(f"> {line}" for line in m.group(1).split("\n")), bbcode)
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
        "winner": result.winner,
        "next_phase": next_phase,
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


def dusk_context(result: CloseResult) -> dict:
    """A3: the weighted tally, executions, 圣人 and day 绝杀 losses, day deaths with camps, window, 默哀期, victory."""
    events = list(result.events)
    announced_now = {e["player"]: e for e in events if e["type"] == "loss" and e["cause"] == "处决" and e["announced"]}
    return {
        "tally": sorted(result.tally.items(), key=lambda kv: -kv[1]),
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


def write_announcements(
    *, game: Game, phase: Phase, state: GameState, result: CloseResult, next_phase: Phase | None
) -> list[Announcement]:
    events = list(result.events)
    ctx = {"game": game, "phase": phase, **_common(events, result, next_phase)}
    made = []
    if phase.kind == Phase.Kind.NIGHT:
        ctx.update(dawn_context(result))
        made.append(
            _draft(
                game,
                phase,
                Announcement.Kind.DAWN,
                f"【{game.name}】{phase.label}结束,天亮了",
                "announcements/dawn.bbcode",
                ctx,
                events,
            )
        )
        if next_phase is not None:
            vote_ctx = {**ctx, "alive": [s.name for s in state.alive], "no_vote": list(result.saved)}
            made.append(
                _draft(
                    game,
                    phase,
                    Announcement.Kind.VOTE_POST,
                    f"【{game.name}】{next_phase.label}投票帖",
                    "announcements/vote_post.bbcode",
                    vote_ctx,
                    [],
                )
            )
    else:
        ctx.update(dusk_context(result))
        made.append(
            _draft(
                game,
                phase,
                Announcement.Kind.DUSK,
                f"【{game.name}】{phase.label}投票结果,天黑了",
                "announcements/dusk.bbcode",
                ctx,
                events,
            )
        )
    made += _private_notices(game, phase, state, events)
    return made


def _draft(game, phase, kind, title, template, ctx, events, recipient="") -> Announcement:
    bbcode = render_to_string(template, ctx).strip()
    bbcode = re.sub(r"\n{3,}", "\n\n", bbcode)
    return Announcement.objects.create(
        game=game,
        phase=phase,
        kind=kind,
        recipient=recipient,
        title=title,
        bbcode=bbcode,
        text=plain(bbcode),
        events=events,
    )


def _private_notices(game, phase, state: GameState, events: list[dict]) -> list[Announcement]:
    """A5: the co-win notice to the partner (S4, naming nobody), and order-change reminders (O3)."""
    made = []
    for e in events:
        if e["type"] == "co_win" and e["partner"]:
            made.append(
                _draft(
                    game,
                    phase,
                    Announcement.Kind.PRIVATE,
                    f"致{e['partner']}:共赢通知",
                    "announcements/co_win.bbcode",
                    {"partner": e["partner"]},
                    [e],
                    e["partner"],
                )
            )
        if e["type"] == "window":
            for seat in state.alive:
                made.append(
                    _draft(
                        game,
                        phase,
                        Announcement.Kind.PRIVATE,
                        f"致{seat.name}:可以修改丢牌顺序",
                        "announcements/order_window.bbcode",
                        {"seat": seat, "bottom": seat.hand[-1].name if seat.hand else ""},
                        [e],
                        seat.name,
                    )
                )
    return made
