"""The 复盘 of a finished game: a post for the forum, read after the game. Per phase, what was sent and what happened
in a few lines, each seat's AP folded into one line, the corrections and substitutions said where they happened,
without clause IDs; the full step list stays on the 天神's 为什么 pages (moderator/services/explain.py)."""

from __future__ import annotations

import re
from datetime import datetime

from moderator.game.trace import CLAUSE, Step
from moderator.models import AuditLog, Game, Input, Phase, SeatHolder
from moderator.rules import codec
from moderator.services import storage
from moderator.services.drafts import BLANK_LINES
from moderator.services.explain import Holders, PhaseTrace, ReviewNotReady, game_trace, held_at, seat_holders_of
from moderator.services.posts import bb

# A step the post leaves to the 为什么 pages: the bookkeeping behind a line it keeps.
SKIPPED = (
    ("AP1", ""),
    ("AP3", ""),
    ("N14", "行动点数:"),
    ("O4", "丢牌顺序:"),
    ("B5", ""),
    ("D2", ""),
    ("O3", "不开放"),
    ("T7", "不宣布"),
    ("T7", "已宣布过"),
    ("V1–V4", "胜负未分"),
)
# Clause IDs inside a sentence: "(N7/N8, D1)" goes, ",B4)" goes, the words stay.
CITED = re.compile(rf"[((]\s*(?:{CLAUSE.pattern}(?:/{CLAUSE.pattern})?[,,、 ]*)+[))]")
TRAILING = re.compile(rf"[,,]\s*{CLAUSE.pattern}(?=[))])")


def plain(sentence: str) -> str:
    """A step's sentence without its clause citations (the 复盘 is read by players, not by the rulebook)."""
    return TRAILING.sub("", CITED.sub("", sentence))


def _kept(step: Step) -> bool:
    said = step.sentence
    if step.clause == "O4" and said.startswith("丢牌:") and ("丢掉" not in said or "原因:处决" in said):
        return False  # which hit took which card, or the execution's card: the line beside it says it
    if step.clause in ("N1", "N2", "N3", "N4", "N5", "N6") and "生效" in said:
        return False  # an attack that landed: its loss line says what it took
    if (said.startswith(("攻击:", "救活:")) and "抓到" in said) or said.startswith("救活:"):
        return False  # the catch line says whom the binding or healing saved and which attacks it voided
    if step.clause in ("N13", "N14", "A2") and not said.startswith(("修正:", "纵火:")):
        return False  # what was sent is in the phase's first line; the manifestos are folded into one
    return not any(step.clause == c and words in said for c, words in SKIPPED)


def _manifestos(trace: PhaseTrace) -> list[str]:
    """The night's 杀人宣言, folded into one line: whose, on which attack, how long."""
    said = [
        s.sentence.split("是", 1)[1].replace("所附,", ",").split(",公布")[0] for s in trace.close if s.clause == "A2"
    ]
    return [f"杀人宣言 {len(said)} 篇(公布时不署名):{';'.join(said)}"] if said else []


def _what(step: Step) -> str:
    """ "攻击:甲用杀手牌…" → "甲用杀手牌…": the topic word before the colon is the post's, not the reader's (a
    杀人宣言 keeps its own)."""
    if step.clause == "A2" or ":" not in step.sentence[:8]:
        return plain(step.sentence.replace("杀人宣言:", "杀人宣言"))
    return plain(step.sentence.split(":", 1)[1])


def _deal(game: Game, holders: Holders) -> list[str]:
    """Each seat as dealt (camp, hand), the order it sent or was given (O1), and who held it later (S5)."""
    night1 = game.phases.filter(kind=Phase.Kind.NIGHT, number=1).first()
    orders: dict[int, Input] = {}
    if night1 is not None:
        for rec in night1.inputs.filter(kind=Input.Kind.ORDER).order_by("forum_at", "id"):
            verdict = storage.stored_verdict(rec)
            if not storage.voided(rec) and verdict is not None and verdict.accepted:
                orders[rec.seat_id] = rec
    names = dict(game.seats.values_list("number", "player_name"))
    out = []
    for seat in game.seats.order_by("number"):
        rows = holders.get(seat.player_name, [])
        first = rows[0][1] if rows else seat.player_name
        line = f"{first}({seat.camp}):发到 {'、'.join(seat.dealt_hand)}"
        order = orders.get(seat.pk)
        if order is not None:
            sent = codec.describe(order.kind, order.payload, names)
            line += f";{sent.replace('丢牌顺序:', '丢牌顺序(从先丢到底牌):')}"
        elif game.hands_are_orders:
            line += ";发到的顺序就是丢牌顺序(最后一张是底牌)"
        later = [name for _since, name in rows[1:]]
        if later:
            line += f";后来由 {'、'.join(later)} 接替"
        out.append(line)
    return out


def _inputs_said(trace: PhaseTrace) -> list[str]:
    """What was sent, in one line; what was refused or voided, each with why."""
    sent, refused = [], []
    for step in trace.inputs:
        body = step.sentence.removeprefix("输入:")
        who_said, _, verdict = body.rpartition(":")
        if verdict.startswith("接受") or not who_said:
            said = re.sub(r"^(\S+) \d\d-\d\d \d\d:\d\d ", r"\1 ", who_said or body)
            if step.clause != "D3":  # a vote: the tally line names every voter
                sent.append(said)
        else:
            said = re.sub(r"^(\S+) \d\d-\d\d \d\d:\d\d ", r"\1 ", body)
            refused.append(plain(said.replace(":拒绝,", ":没有被接受——").replace(":已被天神作废", ":天神作废")))
    out = [f"行动:{';'.join(sent)}"] if sent else []
    return out + refused


def _ledger(game: Game, holders: Holders) -> list[str]:
    """The AP ledger folded into one line per seat: each phase it changed in, what came in, what went out, the
    balance left (the ledger's rows are on the 天神's pages)."""
    state = storage.game_replay(game).state
    out = []
    for seat in state.seats:
        rows = holders.get(seat.name, [])
        who = "→".join(name for _since, name in rows) or seat.name
        by_phase: dict[str, list] = {}
        for row in seat.ledger:
            by_phase.setdefault(row.phase, []).append(row)
        parts = []
        for label, mine in by_phase.items():
            got = sum(r.delta for r in mine if r.delta > 0)
            spent = -sum(r.delta for r in mine if r.delta < 0)
            parts.append(f"{label} +{got}" + (f" −{spent}" if spent else "") + f" 余 {mine[-1].balance}")
        out.append(f"{who}:{';'.join(parts)}" if parts else f"{who}:没有行动点数变化")
    return out


def _substitutions(game: Game, phase: Phase) -> list[str]:
    out = []
    for h in SeatHolder.objects.filter(seat__game=game, reason="替补", since__gte=phase.starts_at).order_by("since"):
        if h.since >= phase.ends_at:
            continue
        before = h.seat.holders.filter(since__lt=h.since).order_by("-since", "-id").first()
        old = before.player_name if before else "?"
        out.append(
            f"替补:{h.player_name}接替{old}(手牌、丢牌顺序、行动点数和历史都留在座位上;这个时段延长 12 小时);"
            f"{old}的私人链接作废,之后由{h.player_name}的新私人链接提交"
        )
    return out


def _corrections(game: Game, holders: Holders) -> dict[str, list[str]]:
    """Each correction, under the first phase it changed: what was added or voided, and why."""
    names = {**dict(game.seats.values_list("number", "player_name"))}
    out: dict[str, list[str]] = {}
    for log in AuditLog.objects.filter(game=game, action=AuditLog.Action.CORRECTION).order_by("at", "id"):
        what, touched = [], []
        for edit in log.detail.get("edits", []):
            if edit.get("op") == "void":
                rec = Input.objects.filter(pk=edit.get("id"), game=game).select_related("seat", "phase").first()
                if rec is not None:
                    touched.append(rec.phase.label)
                    who = held_at(holders, rec.forum_at).get(rec.seat.player_name, rec.seat.player_name)
                    what.append(f"作废 {who} {codec.describe(rec.kind, rec.payload, names)}")
            elif edit.get("op") == "add":
                seat = game.seats.filter(pk=edit.get("seat_id")).first()
                who = seat.player_name if seat else "?"
                touched += [p.label for p in game.phases.filter(pk=edit.get("phase_id"))]
                if edit.get("forum_at"):  # the player who held the seat when the message was sent (S5)
                    who = held_at(holders, datetime.fromisoformat(edit["forum_at"])).get(who, who)
                what.append(f"补录 {who} {codec.describe_item(edit.get('item') or {})}")
        phases = touched or log.detail.get("phases") or []  # where the edit is; the phases it changed may be none
        reason = log.detail.get("reason") or ""
        if phases and what:
            redone = "结算已按更正重算" if log.detail.get("phases") else "结算结果不变"
            line = f"天神更正:{';'.join(what)}" + (f"(原因:{reason})" if reason else "") + f",{redone}"
            out.setdefault(phases[0], []).append(line)
    return out


def _phase_lines(game: Game, trace: PhaseTrace, fixes: dict[str, list[str]]) -> list[str]:
    lines = _substitutions(game, trace.phase)
    lines += [_what(s) for s in trace.opening if s.clause in ("AP2",) or s.sentence.startswith("纵火")]
    lines += _inputs_said(trace) + _manifestos(trace) + [_what(s) for s in trace.close if _kept(s)]
    return lines + fixes.get(trace.phase.label, [])


def post(game: Game) -> tuple[str, str]:
    """The 复盘 as (BBCode, plain text)."""
    if game.status != Game.Status.FINISHED:
        raise ReviewNotReady("游戏结束之后才能生成复盘帖:结束之前,结算过程不能公开(A1–A5)。")
    holders = seat_holders_of(game)
    fixes = _corrections(game, holders)
    blocks: list[tuple[str, list[str]]] = [("开局:身份、发到的牌和丢牌顺序", _deal(game, holders))]
    for trace in game_trace(game):
        blocks.append((trace.phase.label, _phase_lines(game, trace, fixes) or ["没有发生什么。"]))
    blocks.append(("行动点数(每人一行:各时段得到、花掉、剩下)", _ledger(game, holders)))
    won = {"平局": "平局", "自选": "自选立场者获胜"}.get(game.winner or "") or f"{game.winner}阵营获胜"
    title = f"【{game.name}】复盘:{won}"
    bbcode = [f"[b]{bb(title)}[/b]\n"]
    text = [f"{title}\n"]
    for heading, lines in blocks:
        bbcode.append(f"\n[b]{bb(heading)}[/b]\n[list]\n" + "".join(f"[*]{bb(line)}\n" for line in lines) + "[/list]\n")
        text.append(f"\n{heading}\n" + "".join(f"· {line}\n" for line in lines))
    tail = "\n每一步的规则依据,天神可以在控制台的“为什么”页面查看。感谢各位参与!\n"
    bbcode.append(tail)
    text.append(tail)
    return BLANK_LINES.sub("\n\n", "".join(bbcode)), "".join(text)
