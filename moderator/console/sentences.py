"""The audit log as a 天神 reads it: one Chinese sentence per row, never a JSON detail or an internal code."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from moderator.models import AuditLog
from moderator.rules import codec
from moderator.services import intake


def _time(value) -> str:
    at = parse_datetime(value) if isinstance(value, str) else value
    if not isinstance(at, datetime):
        return str(value or "")
    return timezone.localtime(at).strftime("%m-%d %H:%M") if timezone.is_aware(at) else at.strftime("%m-%d %H:%M")


def _hours(seconds) -> str:
    """A duration as a 天神 says it, to the minute: "2 小时", "59 分钟", "1 小时 30 分钟"."""
    hours, minutes = divmod(round(float(seconds or 0) / 60), 60)
    return (
        " ".join(part for part in (f"{hours} 小时" if hours else "", f"{minutes} 分钟" if minutes else "") if part)
        or "不到 1 分钟"
    )


def _item(d: dict) -> str:
    item = {k: v for k, v in d.items() if k != "seat"}
    try:
        return intake.input_sentence(item)
    except (codec.CodecError, KeyError):
        return "一条输入"


def _message(d: dict) -> str:
    inputs = d.get("inputs") or []
    what = ";".join(_item(i) for i in inputs) or "没有读出任何行动"
    left = [r for r in d.get("refusals") or [] if not (isinstance(r, dict) and r.get("choice"))]
    unread = f",{len(left)} 处没有读懂" if left else ""
    edits = [e for e in d.get("manifesto_edits") or [] if isinstance(e, dict)]
    who = "玩家" if d.get("via") else "天神"  # the player's own page (selfentry) or the console
    edited = "".join(
        f";杀人宣言由{who}修改后公布({len(str(e.get('parsed', '')))} 字 → {len(str(e.get('published', '')))} 字,原文不变)"
        for e in edits
    )
    return f"录入消息({d.get('sender', '?')}):{what}{unread}{edited}"


def _edits(d: dict) -> str:
    parts = []
    for e in d.get("edits", []):
        if e.get("op") == "void":
            parts.append(f"作废输入 #{e.get('id')}")
        elif e.get("op") == "add":
            parts.append(f"补录:{_item(e.get('item') or {})}")
    phases = "、".join(d.get("phases") or []) or "没有时段的结果改变"
    reason = f"(原因:{d['reason']})" if d.get("reason") else ""
    return f"更正:{';'.join(parts) or '无'}。重新结算:{phases}{reason}"


def _vote(d: dict) -> str:
    kind = {"original": "投票", "change": "改票", "edited": "原投票帖被编辑过"}
    how = kind.get(d.get("post", ""), "改票" if d.get("change") else "投票")
    return f"录入 {d.get('seat', '?')} 的{how} → {d.get('target', '?')}"


def _drafts(d: dict | None) -> str:
    if d is None:
        return "(旧格式文件:重放出的公告草稿都算已发布)"
    parts = [f"{d.get('marked', 0)} 篇草稿恢复了发布标记"]
    if d.get("kept"):
        parts.append(f"{d['kept']} 篇重放后写法不同或无法重写的公告按原文保留")
    if d.get("dropped"):
        parts.append(f"{d['dropped']} 篇未发布或私信草稿未导入")
    return ";" + ",".join(parts)


SENTENCES: dict[str, Callable[[dict], str]] = {
    AuditLog.Action.GAME_CREATE: lambda d: (
        f"新建游戏「{d['name']}」,{d['seats']} 个座位" + (",玩家在私人页面自行提交" if d.get("self_entry") else "")
    ),
    AuditLog.Action.GAME_RESTORE: lambda d: (
        f"从备份恢复这局游戏,连同 {d.get('history', 0)} 条操作记录"
        + (f";备份里的天神账号这里没有:{'、'.join(d['missing_gms'])}" if d.get("missing_gms") else "")
    ),
    AuditLog.Action.MESSAGE_ENTER: _message,
    AuditLog.Action.ACTION_ENTER: lambda d: f"表单录入 {d.get('seat', '?')}:{_item(d)}",
    AuditLog.Action.VOTE_ENTER: _vote,
    AuditLog.Action.INPUT_VOID: lambda d: (
        f"作废输入 #{d.get('id')}" + (f"(原因:{d['reason']})" if d.get("reason") else "")
    ),
    AuditLog.Action.CORRECTION: _edits,
    AuditLog.Action.GAME_START: lambda d: f"发布《游戏者名单》,第1夜开始于 {_time(d.get('at'))}",
    AuditLog.Action.PHASE_CLOSE: lambda d: f"{d.get('phase', '时段')}按时结束并结算(原定 {_time(d.get('ends_at'))})",
    AuditLog.Action.PHASE_EXTEND: lambda d: (
        f"{d.get('phase', '时段')}延长 {_hours(d.get('by_s'))},到 {_time(d.get('ends_at'))}"
        + (f"(原因:{d['reason']})" if d.get("reason") else "")
    ),
    AuditLog.Action.PHASE_END_EARLY: lambda d: (
        f"{d.get('phase', '时段')}提前结束(原定 {_time(d.get('planned_end'))},"
        f"实际 {_time(d.get('ended_at'))})"
        + (f";当时还没有行动:{'、'.join(d['not_acted'])}" if d.get("not_acted") else ";所有人都已行动")
        + (f";丢牌顺序由系统随机决定:{'、'.join(d['orders_missing'])}" if d.get("orders_missing") else "")
    ),
    AuditLog.Action.GAME_PAUSE: lambda d: f"暂停游戏({d.get('phase', '')}剩余 {_hours(d.get('remaining_s'))})",
    AuditLog.Action.GAME_RESUME: lambda d: f"继续游戏,{d.get('phase', '')}到 {_time(d.get('ends_at'))} 结束",
    AuditLog.Action.SEAT_TOKEN_ROTATE: lambda d: f"更换 {d.get('seat', '?')} 号座位的私人链接(旧链接作废)",
    AuditLog.Action.ANNOUNCEMENT_POSTED: lambda d: f"标记已发到论坛:{d.get('title', '')}",
    AuditLog.Action.ANNOUNCEMENT_UNPOSTED: lambda d: f"撤回已发布标记:{d.get('title', '')}",
    AuditLog.Action.GAME_IMPORT: lambda d: "从导出的文件导入这局游戏,并从头重放" + _drafts(d.get("drafts")),
    AuditLog.Action.SUBSTITUTE: lambda d: f"{d.get('seat', '?')} 号座位:{d.get('new', '?')} 接替 {d.get('old', '?')}",
    AuditLog.Action.REVOTE_DRAFT: lambda d: f"起草重新投票通知:{d.get('title', '')}",
    AuditLog.Action.BULK_ENTER: lambda d: (
        f"批量录入 {len(d.get('messages') or [])} 条消息"
        + (f",跳过 {len(d['skipped'])} 条" if d.get("skipped") else "")
    ),
    AuditLog.Action.SELF_ENTRY: lambda d: (
        f"{d.get('sender', '?')} 在自己的私人页面(链接 #{d.get('link', '?')})提交:"
        + (";".join(_item(i) for i in d.get("inputs") or []) or "没有读出任何行动")
    ),
    AuditLog.Action.SELF_ENTRY_SETTING: lambda d: (
        "打开玩家在私人页面提交" if d.get("on") else "关闭玩家在私人页面提交(改由天神录入)"
    ),
    AuditLog.Action.ADMIN_EDIT: lambda d: (
        f"在管理后台把游戏名从「{d['old']}」改为「{d['new']}」"
        if d["field"] == "name"
        else f"在管理后台把本局的天神从 {'、'.join(d['old']) or '(无)'} 改为 {'、'.join(d['new']) or '(无)'}"
    ),
    AuditLog.Action.GAME_DECLARE_DRAW: lambda d: (
        f"{d.get('phase', '')}宣布平局(V4)"
        + (f",存活:{'、'.join(d['alive'])}" if d.get("alive") else "")
        + (";系统当时显示僵局" if d.get("deadlock_shown") else ";系统当时没有显示僵局,由天神判断")
    ),
}


def _unknown(action: str) -> str:
    """An act shown by its name: the vocabulary's label, or a stored name from before it (never an English code)."""
    if action in AuditLog.Action.values:
        return AuditLog.Action(action).label
    return "其他操作" if action.isascii() else action


def audit_sentence(row: AuditLog) -> str:
    """One audit row as a sentence; an action this table cannot say is shown by its name (`AuditLog.Action`'s label),
    with no detail dump (an internal English code never reaches the page)."""
    detail = row.detail if isinstance(row.detail, dict) else {}
    build = SENTENCES.get(row.action)
    if build is None:
        return _unknown(row.action)
    try:
        return build(detail)
    except (KeyError, TypeError, ValueError, AttributeError):
        return _unknown(row.action)
