"""The BBCode of a close's drafts (A2 dawn, A3 dusk, T6 vote post, A5 private notices, the final summary), in plain
Python: a close renders up to nine drafts, and Django's template engine would cost a third of its Python.

Each function takes the context `drafts` builds (the names a template would read) and returns the raw text, which
`drafts.render_bbcode` trims. Escaping: BBCode is plain text, so nothing is HTML-escaped; every value written by a
player or taken from the game goes through `bb` instead (A4: a `[` or `]` becomes the full-width ［ ］, never a tag).
Every `{…}` of an f-string below is a `bb(…)` or a fixed word of ours (tests/security/test_bbcode.py feeds hostile
values to each).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

_BRACKETS = str.maketrans({"[": "［", "]": "］"})


def bb(value: Any) -> str:
    """A value as inert BBCode text (the `|bb` filter of the other templates is this function)."""
    return str(value).translate(_BRACKETS)


def deadline_text(at: datetime | None) -> str:
    """`{{ at|date:"Y-m-d H:i" }}`: Beijing time (the current time zone) to the minute; "" for no time. A close
    formats its next phase's deadline once for every draft that states it."""
    if at is None:
        return ""
    if timezone.is_aware(at):
        at = timezone.localtime(at)
    return f"{at.year:04d}-{at.month:02d}-{at.day:02d} {at.hour:02d}:{at.minute:02d}"


def span(seconds: int) -> str:
    """A phase's length as the posts say it (T1: "24 小时"; a game with shorter phases: "6 小时", "1 小时 30 分钟")."""
    hours, minutes = divmod(max(int(seconds), 0) // 60, 60)
    if not hours:
        return f"{minutes} 分钟"
    return f"{hours} 小时 {minutes} 分钟" if minutes else f"{hours} 小时"


def _played(ctx: dict) -> tuple[bool, str]:
    """How the game is played: whether players enter their own inputs on their private page, and its phase length
    (a context without a game — a test's — is the default game: the forum way, 24 hours)."""
    game = ctx.get("game")
    return bool(getattr(game, "self_entry", False)), span(getattr(game, "phase_seconds", 24 * 3600))


def _lines(template: str, rows: list[dict]) -> str:
    return "".join(template.format(player=bb(r.get("player", "")), phrase=bb(r.get("phrase", ""))) for r in rows)


def winners_text(ctx: dict) -> str:
    """V2: every winner, a 共赢 self-chosen marked as such (was _winners.bbcode)."""
    if not ctx.get("winners"):
        return ""
    winner = ctx.get("winner", "")
    names = [
        bb(w.get("name", "")) + (f"(与{bb(winner)}阵营共赢的自选立场者)" if w.get("co_win") else "")
        for w in ctx["winners"]
    ]
    return f"获胜的游戏者:{'、'.join(names)}。\n"


def tail(ctx: dict) -> str:
    """The end of the dawn and the dusk post: O3 window, T7 默哀期, the victory or the next phase (was _tail.bbcode)."""
    out = ""
    window = ctx.get("window")
    if window:
        third = "1/3" if window == 1 else "2/3"
        own, length = _played(ctx)
        how = (
            "在自己的私人页面提交新的丢牌顺序(底牌不能更换);不交"
            if own
            else "用短消息寄给天神新的丢牌顺序(底牌不能更换);不寄"
        )
        out += (
            f"\n[b]全体游戏者丢掉的牌已达到总牌数的{third}。[/b]从现在起 {length}内,每位活着的游戏者都可以{how}"
            "视为不改。\n"
        )
    if ctx.get("silence"):
        out += (
            f"\n[b]现在只剩{bb(ctx.get('silence_left', ''))}名游戏者,进入默哀期。[/b]"
            "请全体死者和旁观者与天神一起为死者默哀,不再参与任何分析(灌水不限)。\n"
        )
    winner = ctx.get("winner")
    next_phase = ctx.get("next_phase")
    if winner:
        won = {"平局": "平局!", "自选": "自选立场者获胜!"}.get(winner) or f"{bb(winner)}阵营获胜!"
        out += f"\n[b]游戏结束:{won}[/b]\n" + winners_text(ctx)
    elif next_phase:
        at = ctx["deadline"] if "deadline" in ctx else deadline_text(next_phase.ends_at)
        out += f"\n现在是[b]{bb(next_phase.label)}[/b],到 {bb(at)}(北京时间)结束。\n"
    return out + "\n\n"


def dawn(ctx: dict) -> str:
    """A2 (was dawn.bbcode)."""
    quiet = not (
        ctx["attacked"]
        or ctx["failures"]
        or ctx["doom"]
        or ctx["execution_cards"]
        or ctx["deaths"]
        or ctx["saved"]
        or ctx["pardons"]
    )
    out = [f"[b]{bb(ctx['phase'].label)}结束,天亮了。[/b]\n"]
    if quiet:
        out.append("\n昨夜平安无事。\n")
    out.append(_lines("\n昨天被处决的{player}丢掉的是{phrase}。", ctx["execution_cards"]))
    out += [f"\n{bb(p)}被特赦,取回了昨天被处决时丢掉的牌。" for p in ctx["pardons"]]
    out.append(_lines("\n{player}昨夜受到了攻击,他丢了{phrase}。", ctx["attacked"]))
    out.append(_lines("\n{player}因为束魂/巫医失败,损失了{phrase}。", ctx["failures"]))
    out.append(_lines("\n{player}被绝杀,损失了{phrase}。", ctx["doom"]))
    out += [f"\n{bb(p)}昨夜被救活了。他今天可以参加讨论,但不能投票。" for p in ctx["saved"]]
    for d in ctx["deaths"]:
        name = bb(d.get("player", ""))
        camp = f"他的身份是:{bb(d['camp'])}。" if d.get("camp") else ""
        out.append(f"\n[b]{name}的牌已经全部丢光,{name}死亡。{camp}[/b]")
    out.append("\n")
    if ctx["manifestos"]:
        out.append("\n[b]昨夜的杀人宣言:[/b]")
        out += [f"\n[quote]{bb(text)}[/quote]" for text in ctx["manifestos"]]
        out.append("\n")
    out.append(tail(ctx))
    out.append("\n\n")
    return "".join(out)


def dusk(ctx: dict) -> str:
    """A3 (was dusk.bbcode)."""
    out = [f"[b]{bb(ctx['phase'].label)}投票结束。[/b]\n\n[b]加权计票结果:[/b]"]
    if ctx["tally"]:
        out += [f"\n{bb(name)}:{bb(total)} 票" for name, total in ctx["tally"]]
    else:
        out.append("\n今天没有人得票。")
    out.append("\n")
    executed = ctx["executed"]
    if executed:
        out.append(f"\n[b]被处决的是:{'、'.join(bb(e.get('player', '')) for e in executed)}。[/b]")
        out.append(_lines("\n{player}不能被特赦,他丢掉的是{phrase}。", [e for e in executed if e.get("phrase")]))
        out.append("\n")
    else:
        out.append("\n今天没有人被处决。\n")
    out += [f"\n{bb(p)}的圣人特权生效了:投票处决他的游戏者各损失一张牌。" for p in ctx["saints"]]
    out.append(_lines("\n{player}因为圣人特权损失了{phrase}。", ctx["saint_losses"]))
    out.append(_lines("\n{player}被绝杀,损失了{phrase}。", ctx["doom"]))
    for d in ctx["deaths"]:
        name = bb(d.get("player", ""))
        out.append(f"\n[b]{name}的牌已经全部丢光,{name}死亡。他的身份是:{bb(d.get('camp', ''))}。[/b]")
    out.append("\n")
    out.append(tail(ctx))
    out.append("\n\n")
    return "".join(out)


def vote_post(ctx: dict) -> str:
    """T6: the next day's vote thread (was vote_post.bbcode)."""
    next_phase = ctx["next_phase"]
    at = ctx["deadline"] if "deadline" in ctx else deadline_text(next_phase.ends_at)
    if _played(ctx)[0]:
        how = (
            "请活着的游戏者在自己的私人页面投票(先看预览,确认后才算数,以确认的时间为准);"
            "理由可以在本帖跟帖说明。不能附加条件。不投票视为投给自己。\n"
            f"投票截止:{bb(at)}(北京时间)。截止前一小时以前可以在私人页面改票一次。\n"
        )
    else:
        how = (
            "请活着的游戏者在本帖跟帖投票:清楚写明投给谁,并说明理由。不能附加条件。不投票视为投给自己。\n"
            f"投票截止:{bb(at)}(北京时间)。截止前一小时以前可以跟帖改票一次;不得编辑原投票帖。\n"
        )
    out = (
        f"[b]{bb(next_phase.label)}投票帖[/b]\n\n"
        + how
        + "每人的票数等于投票结束时手中的牌数。\n\n"
        + f"可以投票的游戏者:{bb('、'.join(ctx['voters']))}"
    )
    if ctx.get("no_vote"):
        out += f"\n昨夜被救活、今天不能投票:{bb('、'.join(ctx['no_vote']))}"
    return out + "\n\n"


def co_win(ctx: dict) -> str:
    """A5, S4: the co-win notice to the partner, naming nobody (was co_win.bbcode)."""
    return (
        f"{bb(ctx['partner'])},你好!\n\n"
        "天神通知:自选立场者选择了与你[b]共赢[/b]。天神不会告诉你他是谁,也不会告诉他你是谁。\n\n"
    )


LINK_HERE = "(天神发给你的私人链接)"  # where a private draft takes the recipient's link when it is shown (with_link)


def with_link(draft, link: str):
    """A private draft as the 天神 copies it: the recipient's link inside its text (not saved: a link is made from
    the site's address, which a close at the clock does not know)."""
    if link and draft.kind == "private" and LINK_HERE in draft.text:
        draft.text = draft.text.replace(LINK_HERE, f":{link} ")
        draft.bbcode = draft.bbcode.replace(LINK_HERE, f":{link} ")
    return draft


def order_window(ctx: dict) -> str:
    """A5, O3: a living seat may send a new discard order (was order_window.bbcode)."""
    own, length = _played(ctx)
    how = f"在自己的私人页面{LINK_HERE}提交" if own else "用短消息寄给天神"
    return (
        f"{bb(ctx['seat'].name)},你好!\n\n"
        f"现在是改丢牌顺序的时间:{length}内你可以{how}新的丢牌顺序(排在前面的先丢)。\n"
        f"你的底牌“{bb(ctx['bottom'])}”不能更换。{'不交' if own else '不寄'}视为不改。\n\n"
    )


def final_summary(ctx: dict) -> str:
    """The end of the game: the winner, every seat's camp and the cards it still held (was final_summary.bbcode)."""
    winner = ctx["winner"]
    won = {"平局": "平局", "自选": "自选立场者获胜"}.get(winner) or f"{bb(winner)}阵营获胜"
    out = [f"[b]游戏结束:{won}。[/b]\n", winners_text(ctx), "[b]全体身份与手牌公开:[/b]\n"]
    for s in ctx["seats"]:
        stance = f"({bb(s['side'])}·{bb(s['mode'])})" if s["side"] else ""
        alive = "存活" if s["alive"] else "死亡"
        hand = f"剩下的牌:{bb('、'.join(s['hand']))}" if s["hand"] else "没有剩下的牌"
        out.append(f"\n{bb(s['name'])}:{bb(s['camp'])}{stance},{alive};{hand}")
    out.append("\n\n感谢各位参与!\n\n")
    return "".join(out)
