"""A seven-player game played through the console in Chromium, from creation to a winner, as a new 天神
plays it. Every privilege of docs/rules.md N1–N14 and M (and the S4 stance, a pass, the 保镖) is used at least once; a
vote change, an edited vote post, a substitution, a correction, early ends with their confirmation, an O3 order
change, bulk paste, and export/import are all on the way. After every phase the public page and every private page
are checked against what A1–A5 allow, and the posts say what the rules make public.

The table (typed on the creation form, so nothing depends on a seed) and the plan were played first through the pure
engine; the outcome the test checks is what docs/rules.md gives: the civilians win at the end of night 5.

A phase's PMs come as the 天神 copies them from the forum's inbox, one batch pasted whole (bulk paste, one preview
row per PM, one confirm); night 1's two attacks and day 1's vote post and 庇佑 go one PM at a time through the
paste → preview → confirm page (pinned on its own by test_gm_flow.py, test_manifesto_trim_browser.py and
tests/console). The checks read the public and private pages' HTML over HTTP (an unrendered GET in the browser's
context): each rendered page load costs Chromium about 0.1 s of CPU, and the test made some 300 of them."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from cards.catalogue import USES
from moderator import rules
from moderator.models import Announcement, Game, Input, Phase
from moderator.rules import codec
from moderator.services import storage
from tests.browser.console_kit import MANIFESTO, action, flash, local, login, now_local, shot, vote
from tests.pages.pages_scan import (
    AP_WORDS,
    SECRET_WORDS,
    archive,
    found,
    hand_shown,
    shown_camps,
    without_archive,
    without_camps,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Seat order; camps and hands as the 天神 types them on the creation form (S1, S3: dealt, not yet in discard order).
TABLE = [
    ("狄仁杰", "杀手", "杀手、狙击手、保镖、庶民、庶民"),
    ("李元芳", "狼人", "狼人、束魂、巫医、庶民、庶民"),
    ("曾泰", "自选", "阿米巴、诅咒/庇佑、防弹衣/狼毒、庶民、庶民"),
    ("狄如燕", "平民", "狙击手、禁锢/反狙击、绝杀/特赦、保镖、庶民"),
    ("张环", "平民", "束魂、纵火/圣人、阿米巴、庶民、庶民"),
    ("李朗", "平民", "巫医、绝杀/特赦、诅咒/庇佑、保镖、庶民"),
    ("虎敬晖", "平民", "防弹衣/狼毒、禁锢/反狙击、纵火/圣人、阿米巴、庶民"),
]
# O1: every player's discard order, sent by PM on night 1 (first lost first; the last is the 底牌, O2).
ORDERS = {
    "狄仁杰": "庶民、庶民、狙击手、保镖、杀手",
    "李元芳": "庶民、庶民、束魂、巫医、狼人",
    "曾泰": "庶民、诅咒/庇佑、庶民、防弹衣/狼毒、阿米巴",
    "狄如燕": "保镖、庶民、狙击手、禁锢/反狙击、绝杀/特赦",
    "张环": "庶民、阿米巴、庶民、纵火/圣人、束魂",
    "李朗": "庶民、保镖、巫医、诅咒/庇佑、绝杀/特赦",
    "虎敬晖": "庶民、阿米巴、防弹衣/狼毒、禁锢/反狙击、纵火/圣人",
}
SUB = "风清扬"  # takes over 张环's seat on day 2 (T4, S5)


def _gm_pages(page, game, by_button: bool = False):
    """Marks every draft posted on the forum (only then are they public), then checks the public page and every private
    page (A1–A5): the public page names no card and no AP outside the posts; a private page shows its own camp and
    exactly its own hand as the rules hold it (in discard order once an order exists, O1).

    `by_button`: the first draft is marked by clicking its button (the page reloads with the flash); the others (all
    of them otherwise) by submitting each draft's own form as its button does (its fields, its one-time token) from
    the page, without a page load after each; then the drafts page says every one is posted."""
    drafts = f"/gm/{game.pk}/announcements/"
    page.goto(drafts)
    if by_button:
        page.locator("button.post").first.click()
        assert "已标记为已发布" in flash(page)
    unposted = int(page.inner_text("#unposted").split()[0]) if page.locator("#unposted").count() else 0
    answers = page.evaluate(
        """async () => {
            const forms = [...document.querySelectorAll("form")].filter(f => f.querySelector("button.post"));
            const answers = [];
            for (const form of forms) {
                const r = await fetch(form.action, {method: "POST", body: new FormData(form), redirect: "manual"});
                answers.push(r.type);
            }
            return answers;
        }"""
    )
    assert answers == ["opaqueredirect"] * unposted  # each answered with the redirect back to the drafts
    seats = list(game.seats.order_by("number"))
    shown, body, *private = _html(page, drafts, f"/games/{game.pk}/", *[f"/p/{seat.token}/" for seat in seats])
    assert "所有草稿都已发布" in shown
    game.refresh_from_db()
    final = re.compile(r'<section id="final">.*?</section>', re.S)
    assert bool(final.search(body)) == (game.status == Game.Status.FINISHED)  # hands are revealed only at the end
    dead_camps = dict(shown_camps(body))  # V5: the camp of a day death is public, a night death's is not
    assert all(game.seats.get(player_name=name).camp == camp for name, camp in dead_camps.items())
    assert found(without_camps(without_archive(final.sub(" ", body))), [*SECRET_WORDS, *AP_WORDS]) == []
    state = storage.game_replay(game).state
    for seat, text in zip(seats, private, strict=True):
        assert seat.camp in text
        me = state.seat(seat.player_name)
        if me.alive and state.ordered and seat.player_name in state.ordered:
            assert hand_shown(text) == list(me.names), seat.player_name
        assert f'<strong class="ap">{me.ap}</strong>' in text  # the balance the ledger adds up to (AP6)
    return body


def _html(page, *urls: str) -> list[str]:
    """Pages' HTML as the server sends it (GETs from the page, with the browser's cookies), all at once and without
    rendering them: the checks read the HTML, and a rendered page load costs Chromium ~0.1 s of CPU."""
    answers = page.evaluate(
        "urls => Promise.all(urls.map(u => fetch(u).then(async r => [r.status, await r.text()])))", list(urls)
    )
    assert [status for status, _ in answers] == [200] * len(urls), [
        (u, a[0]) for u, a in zip(urls, answers, strict=True)
    ]
    return [text for _, text in answers]


def _dashboard(page, game) -> None:
    """The dashboard, loaded unless the browser is on it already (a confirm redirects there, with its flash)."""
    if urlsplit(page.url).path != f"/gm/{game.pk}/":
        page.goto(f"/gm/{game.pk}/")


def _posts(body: str) -> str:
    return "\n".join(f"{title}\n{text}" for title, text in archive(body))


def _vote(page, game, voter: str, target: str, post: str = "original") -> str:
    """console_kit.vote, from the vote page the last vote left the browser on (the form is fresh: the confirm
    redirects there) instead of loading it again."""
    if urlsplit(page.url).path != f"/gm/{game.pk}/votes/":
        return vote(page, game, voter, target, post=post)
    page.select_option("#id_seat", str(game.seats.get(player_name=voter).pk))
    page.fill("#id_forum_at", now_local())
    page.check(f"input[name=post][value={post}]")
    page.select_option("#id_target", str(game.seats.get(player_name=target).pk))
    with page.expect_navigation():
        page.click("#vote-form button[type=submit]")
    return flash(page)


def _post(body: str, title: str) -> str:
    """The text of the public post whose title says `title` (not a corrected one)."""
    texts = [text for t, text in archive(body) if title in t and "已更正" not in t]
    assert len(texts) == 1, (title, [t for t, _ in archive(body)])
    return texts[0]


def _end(page, game, label, waiting: list[str] | None = None):
    """T5: the confirmation page names who has not acted; the phase closes only after the 天神 confirms."""
    _dashboard(page, game)
    page.click("#end-phase")
    page.wait_for_selector("#confirm-end")
    said = page.inner_text("#waiting")
    if waiting:
        assert all(name in said for name in waiting), said
        page.check("input[name=force]")
    else:
        assert "所有活着的玩家都已行动" in said, said
    shown = page.inner_text("#dryrun .dryrun-post")  # the post the close will draft, shown before the confirm
    page.click("#confirm-end")
    assert f"{label}已提前结束并结算" in flash(page)
    kind = Announcement.Kind.DAWN if label.endswith("夜") else Announcement.Kind.DUSK
    post = Announcement.objects.get(game=game, kind=kind, title__contains=f"{label}", corrected_at__isnull=True)
    tail = "现在是"  # the next deadline counts from the click: a minute later if the click crossed one
    assert post.text.split(tail)[0].strip() == shown.split(tail)[0].strip()


def _pm(page, game, who: str, text: str, refused: int = 0, vote_post: bool = False) -> None:
    """Paste a PM (or a vote post), read the preview (what was understood, what it costs), confirm."""
    page.goto(f"/gm/{game.pk}/{'vote-post' if vote_post else 'pm'}/")
    page.select_option("#id_seat", str(game.seats.get(player_name=who).pk))
    page.fill("#id_forum_at", now_local())
    page.fill("#id_text", text)
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    preview = page.inner_text("body")
    assert preview.count("将被拒绝") == refused, preview
    assert "没有读出任何行动" not in preview, preview
    page.click("#confirm")
    assert f"{refused} 项被拒绝" in flash(page)


def _pms(page, game, label: str, pms: list[tuple[str, str]]) -> None:
    """A batch of PMs pasted whole (bulk intake), as a 天神 copies them from the forum's inbox: one row per
    PM with what it does, one confirm; every PM is stored as its own message, judged in the order pasted (T3), so
    the result equals entering them one by one. Every PM reads at least one input and none is refused (what _pm
    checks of one PM). Each body names its phase: the phases follow each other within a minute, and the same
    author, minute and words would be a duplicate message (a second 束魂李元芳 on the next night)."""
    at = timezone.localtime(timezone.now()).strftime("%Y-%m-%d %H:%M")
    page.goto(f"/gm/{game.pk}/bulk/")
    if page.input_value("#id_mode") != "pms":  # a day opens the page on 投票帖
        page.select_option("#id_mode", "pms")
    page.fill("#id_paste", "\n".join(f"=== {who} {at}\n{label}:{body}\n" for who, body in pms))
    page.wait_for_selector("#bulk-summary")
    assert f"预览({label}):{len(pms)} 条帖子,将保存 {len(pms)} 条,跳过 0 条" in page.inner_text("#bulk-summary")
    rows = page.eval_on_selector_all("#bulk-preview tr.kept", "els => els.map(e => e.innerText)")
    assert len(rows) == len(pms)
    for row, (who, body) in zip(rows, pms, strict=True):
        assert "将被接受" in row and "将被拒绝" not in row and "没有读懂" not in row, (who, body, row)
    page.click("#bulk-confirm")
    told = flash(page)
    assert f"保存了 {len(pms)} 条消息({len(pms)} 项被接受,0 项被拒绝)" in told, told  # one input each


def _phpwind(posts: list[tuple[str, str]], at: str, edited: frozenset[str]) -> str:
    """The thread as the seed forum's PHPWind page copies: the profile block above each post, "Posted: … | N 楼"
    under it, "[ 此贴被X在…重新编辑 ]" on an edited post."""
    out = ["本页主题: 【七人局】投票帖 打印 | 加为IE收藏 | 复制链接", ""]
    for k, (who, body) in enumerate(posts):
        out += [
            who,
            "级别: 侠客",
            "",
            "",
            "精华: 0",
            "发帖: 120",
            "威望: 10 点",
            "金钱: 512 静电币",
            "最后登录:2024-03-05",
        ]
        out += ["", body] + ([f"[ 此贴被{who}在{at}重新编辑 ]"] if who in edited else [])
        out.append(f"Posted: {at} | {k + 1} 楼" if k else f"Posted: {at} | [楼 主]")
    return "\n".join([*out, "帖子浏览记录 版块浏览记录", "Powered by PHPWind"])


def _thread(
    page, game, day: str, posts: list[tuple[str, str]], saved: int, edited: frozenset[str] | None = None
) -> None:
    """A day's vote thread pasted whole (bulk intake): one preview, one confirm. (The test's days follow each other
    within a minute: the same author, minute and words would be a duplicate post, so each post names its day.)
    `edited`: the thread is the seed forum's PHPWind page, these authors' posts shown edited (D3)."""
    at = timezone.localtime(timezone.now()).strftime("%Y-%m-%d %H:%M")
    posts = [(who, f"{day}:{body}") for who, body in posts]
    page.goto(f"/gm/{game.pk}/bulk/")
    if edited is None:
        page.fill("#id_paste", "\n".join(f"=== {who} {at}\n{body}\n" for who, body in posts))
    else:
        page.fill("#id_paste", _phpwind(posts, at, edited))
    page.wait_for_selector("#bulk-summary")
    if edited is not None:
        authors = page.eval_on_selector_all("#bulk-preview input[name$=author]", "els => els.map(e => e.value)")
        assert authors == [who for who, _ in posts]  # every row is its poster's, never "Posted"
        assert all(
            "原投票帖被编辑过" in page.inner_text(f"#bulk-row-{k + 1}") for k, (w, _) in enumerate(posts) if w in edited
        )
    assert f"将保存 {saved} 条" in page.inner_text("#bulk-summary")
    page.click("#bulk-confirm")
    page.wait_for_selector(".flash .success")
    assert f"保存了 {saved} 条消息" in page.inner_text(".flash")


def _attack(text: str) -> str:
    return f"{text}。杀人宣言:{MANIFESTO}"


def test_a_gm_plays_a_seven_player_game_to_a_winner_through_the_console(page, django_user_model):
    page.on("dialog", lambda d: d.accept())
    login(page, django_user_model)
    page.goto("/")
    page.click("#my-games")
    page.click("text=新建一局游戏")
    page.fill("#id_name", "七人局")
    page.fill("#id_players", "\n".join(name for name, _, _ in TABLE))
    page.fill("#id_camps", ",".join(camp for _, camp, _ in TABLE))
    page.fill("#id_hands", "\n".join(hand for _, _, hand in TABLE))
    page.click("button[type=submit]")
    page.wait_for_selector("#start-game")
    game = Game.objects.get(name="七人局")
    first = game.seats.get(number=1)
    assert f"/p/{first.token}/" in page.input_value(f"#deal-{first.pk}")  # the deal PM carries the link (A5)
    shot(page, "playthrough_setup")
    page.fill("#id_at", local(timezone.now() - timedelta(minutes=30)))
    page.click("#start-game")
    page.wait_for_selector("text=第1夜")
    assert page.inner_text("#seats").count("尚未决定") == 7  # no order yet, no 底牌 (O1)

    # ---- Night 1: orders (O1), the S4 stance, attacks (N1, N3), 束魂 and 治疗 catch them (N7, N8), 防弹衣 and
    # 狼毒 (N9), 反狙击 (N10). The orders, the stance and the plain privileges come as one batch of PMs (bulk paste);
    # the attacks (with their 杀人宣言) one PM at a time: paste, preview, confirm.
    night1 = [(name, f"天神好,我的丢牌顺序:{order}") for name, order in ORDERS.items()]
    night1 += [
        ("曾泰", "我选杀手,共赢"),
        ("张环", "束魂张环"),
        ("李朗", "治疗李朗"),
        ("曾泰", "狼毒"),
        ("狄如燕", "反狙击"),
    ]
    _pms(page, game, "第1夜", night1)
    _pm(page, game, "狄仁杰", _attack("今晚杀张环"))
    _pm(page, game, "李元芳", _attack("咬李朗"))
    assert "已接受" in action(page, game, "虎敬晖", "防弹衣")
    page.goto(f"/gm/{game.pk}/")
    assert page.inner_text("#seats").count("尚未决定") == 0
    shot(page, "playthrough_dashboard")
    _end(page, game, "第1夜")
    posts = _posts(_gm_pages(page, game, by_button=True))
    assert "张环昨夜被救活了" in posts and "李朗昨夜被救活了" in posts  # N7, N8, A2
    assert "受到了攻击" not in posts
    notice = Announcement.objects.get(game=game, kind=Announcement.Kind.PRIVATE, title__contains="共赢")
    assert notice.recipient == "狄仁杰" and "曾泰" not in notice.text  # S4: the partner is told, nobody is named

    # ---- Day 1: a saved player may not vote (N7), an edited original forfeits the change (D3), a change post,
    # a pasted vote post, 庇佑 (N13), a silent player votes for himself (D1).
    assert "已拒绝" in _vote(page, game, "李朗", "狄仁杰")
    assert "已接受" in _vote(page, game, "虎敬晖", "狄仁杰")
    assert "已接受" in _vote(page, game, "曾泰", "李朗", post="edited")
    assert "已接受" in _vote(page, game, "李元芳", "李朗")
    assert "已接受" in _vote(page, game, "李元芳", "狄仁杰", post="change")
    assert "已拒绝" in _vote(page, game, "曾泰", "虎敬晖", post="change")
    _pm(page, game, "狄仁杰", "投李朗,理由:他昨晚太安静", vote_post=True)
    _pm(page, game, "曾泰", "庇佑狄仁杰")
    shot(page, "playthrough_votes")
    _end(page, game, "第1天", waiting=["狄如燕"])
    posts = _posts(_gm_pages(page, game))
    assert "李朗:10 票" in posts and "狄仁杰:9 票" in posts and "狄如燕:5 票" in posts
    assert re.search(r"被处决的是:(狄仁杰、李朗|李朗、狄仁杰)。", posts)

    # ---- Night 2: 特赦 (N12), 一击必杀 (N2), 禁锢 voids the wolf's attack (N10), 纵火 (N14), 变形 (M1), a pass (T5).
    _pms(
        page,
        game,
        "第2夜",
        [
            ("狄如燕", "特赦李朗"),
            ("狄仁杰", _attack("一击必杀虎敬晖")),
            ("虎敬晖", "禁锢李元芳"),
            ("李元芳", _attack("咬张环")),
            ("张环", "纵火李元芳"),
            ("曾泰", "阿米巴变形成束魂"),
        ],
    )
    assert "已接受" in action(page, game, "李朗", None)  # 空过
    page.goto(f"/gm/{game.pk}/")
    assert "李朗" not in page.inner_text("#not-acted")  # a pass is an answer (T5)

    # A correction of day 1 while night 2 is open: 曾泰's 庇佑 was entered by mistake. The difference is shown
    # first (the tally changes, the executions do not), the old dusk post is kept marked 已更正, a 更正公告 is drafted.
    page.goto(f"/gm/{game.pk}/correction/")
    blessing = Input.objects.get(game=game, phase__kind="day", phase__number=1, kind=Input.Kind.ACTION)
    page.check(f"input[name=void][value='{blessing.pk}']")
    page.click("button[name=preview]")
    page.wait_for_selector("#diff")
    diff = page.inner_text("#diff")
    assert "第1天" in diff and "狄仁杰" in diff and "第1夜" not in diff
    shot(page, "playthrough_correction")
    page.click("#confirm")
    assert "更正已生效" in flash(page)
    assert Announcement.objects.filter(game=game, title__contains="更正公告").exists()
    _end(page, game, "第2夜")
    posts = _posts(_gm_pages(page, game))
    assert "狄仁杰:10 票" in posts and "已更正" in posts  # the corrected dusk, and the original kept marked
    assert "李朗被特赦,取回了昨天被处决时丢掉的牌" in posts
    assert "昨天被处决的狄仁杰丢掉的是一张庶民牌" in posts
    assert "虎敬晖昨夜受到了攻击,他丢了一张庶民牌" in posts
    assert "张环昨夜受到了攻击" not in posts  # 禁锢 voided the wolf's attack

    # ---- Day 2: 张环 is replaced (T4: +12 h; S5: the substitute inherits the seat); 诅咒 and 恶毒诅咒 (N13); the
    # vote thread pasted whole.
    old_token = game.seats.get(player_name="张环").token
    page.goto(f"/gm/{game.pk}/")
    page.select_option("#substitute select[name=seat]", str(game.seats.get(player_name="张环").pk))
    page.fill("#substitute input[name=player_name]", SUB)
    page.click("#substitute button")
    page.wait_for_selector("#confirm-substitute")  # the new deadline and the drafts, before anything is saved
    assert f"{SUB} 接替 张环" in page.inner_text("#substitution-preview")
    page.click("#confirm-substitute")
    assert "旧的私人链接已失效" in flash(page)
    assert page.request.get(f"/p/{old_token}/").status == 404
    _pms(page, game, "第2天", [("李朗", "诅咒狄仁杰"), ("曾泰", "恶毒诅咒虎敬晖")])
    # 狄如燕's vote was entered from the forum before the thread; the PHPWind page shows her post edited since: the
    # original entered stands (D3) and her change right is gone.
    assert "已接受" in _vote(page, game, "狄如燕", "李元芳")
    _thread(
        page,
        game,
        "第2天",
        [
            ("狄如燕", "投李元芳"),
            (SUB, "投李元芳"),
            ("李朗", "投狄仁杰"),
            ("虎敬晖", "投狄仁杰"),
            ("狄仁杰", "投虎敬晖"),
            ("李元芳", "投虎敬晖"),
            ("曾泰", "投李朗"),
        ],
        saved=7,
        edited=frozenset({"狄如燕"}),
    )
    edited = Input.objects.get(game=game, phase__kind="day", phase__number=2, payload={"edited": True})
    assert "按原投票(→ 李元芳)计票" in edited.verdict.reason
    _end(page, game, "第2天")
    posts = _posts(_gm_pages(page, game))
    assert "虎敬晖:18 票" in posts and "狄仁杰:10 票" in posts
    assert re.search(r"被处决的是:[^。]*虎敬晖", posts)
    assert f"可以投票的游戏者:狄仁杰、李元芳、曾泰、狄如燕、{SUB}" in posts  # the vote post names the substitute

    # ---- Night 3: 圣人 (N14), the wolf's 一击必杀 stopped by the 保镖 standing first (N4, B1), 普通狙击 (N5),
    # night 绝杀 (N11), a second 束魂 on the same target (N7 streak).
    _pms(
        page,
        game,
        "第3夜",
        [
            ("虎敬晖", "圣人"),
            ("李元芳", _attack("一击必杀狄如燕")),
            ("狄仁杰", _attack(f"狙击{SUB}")),
            ("李朗", "绝杀狄仁杰"),
            ("狄仁杰", _attack("杀李朗")),
            (SUB, "束魂李元芳"),
        ],
    )
    _end(page, game, "第3夜", waiting=["曾泰", "狄如燕"])
    posts = _posts(_gm_pages(page, game))
    assert "狄仁杰被绝杀,损失了一张特权牌" in posts
    assert f"{SUB}昨夜受到了攻击,他丢了一张庶民牌" in posts
    assert "狄如燕昨夜受到了攻击" not in posts  # the 保镖 stood against one kind of attack (B1)

    # ---- Day 3: 虔诚庇佑 and 庇佑 by form (N13); the 圣人 is executed and his voters lose a card each (N14, D7);
    # the first order-change window opens (O3).
    assert "已接受" in action(page, game, "曾泰", "虔诚庇佑", "狄仁杰")
    assert "已接受" in action(page, game, "曾泰", "庇佑", "李元芳")
    _thread(
        page,
        game,
        "第3天",
        [
            ("狄仁杰", "投虎敬晖"),
            ("李元芳", "投虎敬晖"),
            ("曾泰", "投虎敬晖"),
            ("狄如燕", "投狄仁杰"),
            (SUB, "投狄仁杰"),
            ("李朗", "投李元芳"),
            ("虎敬晖", "投李元芳"),
        ],
        saved=7,
    )
    _end(page, game, "第3天")
    posts = _posts(_gm_pages(page, game))
    assert "虎敬晖的圣人特权生效了" in posts
    assert all(f"{name}因为圣人特权损失了" in posts for name in ("狄仁杰", "李元芳", "曾泰"))
    assert "虎敬晖不能被特赦" in posts  # N12/N14: announced at the close (D6)
    reminders = Announcement.objects.filter(game=game, kind=Announcement.Kind.PRIVATE, title__contains="丢牌顺序")
    assert reminders.count() == 7  # O3: every living player is reminded (A5)

    # ---- Night 4: an order change in the window (O3), 瞄准狙击 (N6), 禁锢 on the killer, the second empty 束魂
    # costs its target a card (N7), 诅咒 at night for tomorrow (N13), 防弹衣 again.
    _pms(
        page,
        game,
        "第4夜",
        [
            (SUB, "丢牌顺序改为:庶民、阿米巴、纵火/圣人、束魂"),
            ("狄如燕", _attack("瞄准狙击曾泰的倒数第二张牌")),
            (SUB, "束魂李元芳"),
            ("虎敬晖", "禁锢狄仁杰"),
            ("狄仁杰", _attack(f"杀{SUB}")),
            ("李元芳", _attack("咬李朗")),
            ("李朗", "诅咒李元芳"),
            ("曾泰", "穿防弹衣"),
        ],
    )
    _end(page, game, "第4夜")
    dawn = _post(_gm_pages(page, game), "第4夜结束")
    assert "李元芳因为束魂/巫医失败,损失了一张特权牌" in dawn
    assert "曾泰昨夜受到了攻击,他丢了一张特权牌" in dawn
    assert "受到了攻击" not in dawn.replace("曾泰昨夜受到了攻击", "")  # 禁锢 voided the killer's, 保镖 the wolf's

    # ---- Day 4: a four-way tie at the second-highest total executes four (D5).
    _thread(
        page,
        game,
        "第4天",
        [
            ("狄如燕", "投狄仁杰"),
            (SUB, "投李元芳"),
            ("李朗", "投曾泰"),
            ("虎敬晖", "投曾泰"),
            ("狄仁杰", "投狄如燕"),
            ("李元芳", "投狄如燕"),
            ("曾泰", "投狄如燕"),
        ],
        saved=7,
    )
    page.goto(f"/gm/{game.pk}/")
    executions = page.inner_text("#executions")  # the card each executed player will lose (D6), before the close
    assert "狄仁杰(将丢掉丢牌顺序的第一张:杀手)" in executions
    assert "狄如燕(将丢掉丢牌顺序的第一张:保镖)" in executions
    _end(page, game, "第4天")
    posts = _posts(_gm_pages(page, game))
    assert "曾泰:6 票" in posts
    assert re.search(r"被处决的是:狄仁杰、李元芳、曾泰、狄如燕。", posts)

    # ---- Night 5: day 绝杀 needs no night; here a night 绝杀 and a 普通狙击 take 曾泰's last two cards; three pass.
    _pms(
        page,
        game,
        "第5夜",
        [
            ("狄如燕", "绝杀曾泰"),
            ("狄如燕", _attack("狙击曾泰")),
            (SUB, "今晚空过"),
            ("李朗", "不行动"),
            ("虎敬晖", "空过"),
        ],
    )
    _end(page, game, "第5夜", waiting=["曾泰"])
    body = _gm_pages(page, game)
    posts = _posts(body)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "平民"  # V1
    assert "狄仁杰的牌已经全部丢光,狄仁杰死亡。他的身份是:杀手" in posts  # V5: an execution death shows the camp
    assert "李元芳的牌已经全部丢光,李元芳死亡。他的身份是:狼人" in posts
    assert re.search(r"曾泰的牌已经全部丢光,曾泰死亡。(?!他的身份)", posts)  # a night death does not
    assert "平民" in posts and "获胜" in posts
    # The end of the game reveals every camp and what every survivor still holds.
    page.goto(f"/games/{game.pk}/")
    final = page.inner_text("#final")
    for name, camp in [("狄仁杰", "杀手"), ("李元芳", "狼人"), ("曾泰", "自选"), ("狄如燕", "平民"), (SUB, "平民")]:
        assert name in final and camp in final
    assert "庶民、狙击手、禁锢/反狙击、绝杀/特赦" in final  # 狄如燕's hand, in her order
    shot(page, "playthrough_final")
    if os.environ.get("SCREENSHOTS"):  # pages loaded for docs/ only: the checks above read them already
        page.goto(f"/p/{game.seats.get(player_name='狄如燕').token}/")
        shot(page, "playthrough_private")
        page.goto(f"/gm/{game.pk}/announcements/")
        shot(page, "playthrough_announcements")

    # Every privilege of the catalogue was used and accepted at least once in this game.
    names = {s.number: s.player_name for s in game.seats.all()}
    accepted = [
        codec.decode(rec.kind, rec.payload, names)
        for rec in Input.objects.filter(game=game, kind=Input.Kind.ACTION, verdict__accepted=True, void__isnull=True)
    ]
    assert set(USES) - {item.get("use") for item in accepted} == set()

    # The audit reads as sentences; the game exports and imports to the same results and winner.
    page.goto(f"/gm/{game.pk}/audit/")
    assert "{" not in page.inner_text("#audit")
    with page.expect_download() as download:
        page.evaluate(f"window.location = '/gm/{game.pk}/export/'")
    path = download.value.path()
    page.goto("/games/import/")
    page.set_input_files("#id_file", path)
    page.fill("#id_name", "七人局(导入)")
    page.click("button[type=submit]")
    assert "已导入并重放" in flash(page)
    copy = Game.objects.get(name="七人局(导入)")
    assert copy.winner == "平民"
    assert [p.result for p in copy.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at")] == [
        p.result for p in game.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at")
    ]
    page.goto("/gm/")
    assert "七人局" in page.inner_text("#games")

    # A correction of the last phase that changes the winner: 狄如燕's night-5 狙击 on 曾泰 was entered by
    # mistake. Without it 曾泰 (co-winning with the killer, S4) lives: nobody has won. The preview says so; the
    # confirm re-opens the game at day 5 with its clock, and the public page no longer names a winner.
    page.goto(f"/gm/{game.pk}/correction/")
    snipe = Input.objects.get(game=game, phase__kind="night", phase__number=5, payload__use="普通狙击")
    page.check(f"input[name=void][value='{snipe.pk}']")
    page.click("button[name=preview]")
    page.wait_for_selector("#game-change")
    assert "胜方:平民 → 无" in page.inner_text("#game-change") and "第5天" in page.inner_text("#game-change")
    page.click("#confirm")
    assert "重新开始:第5天" in flash(page)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.winner == ""
    day5 = game.phases.get(status=Phase.Status.OPEN)
    assert (day5.kind, day5.number) == ("day", 5) and day5.ends_at > timezone.now()
    page.goto(f"/games/{game.pk}/")
    assert "胜方" not in page.inner_text("main")

    # A correction that changes the open phase: on day 5 曾泰 votes; then 狄如燕's night-5 绝杀 on 曾泰 is voided too.
    # 曾泰 keeps two cards, so his vote weighs two: the preview lists that under 第5天(进行中), and it is stored.
    assert "已接受" in _vote(page, game, "曾泰", "狄如燕")
    page.goto(f"/gm/{game.pk}/correction/")
    doom = Input.objects.get(game=game, phase__kind="night", phase__number=5, payload__use="绝杀")
    page.check(f"input[name=void][value='{doom.pk}']")
    page.click("button[name=preview]")
    page.wait_for_selector("#diff")
    open_day = page.inner_text(f"#diff-{day5.pk}")
    assert "第5天(进行中)" in open_day and "曾泰的票权\t1 票\t2 票" in open_day
    page.click("#confirm")
    assert "更正已生效" in flash(page)
    assert rules.end_phase(storage.game_replay(game).state)[1].tally["狄如燕"] >= 2
