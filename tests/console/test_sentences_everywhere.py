"""The console reads like sentences (束魂 → 阿飞(2 点)), never like data: a short game of every input kind — privileges,
a refusal, votes and a change, a vote post, an order, a pass, a void, a correction, a substitution, an extension, a
pause — played through the console's forms and the services, then every console page of it is read as a 天神 sees
it: no Python repr, no dict or list literal, no internal English code of an input kind, a use, a status or an act."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.console.sentences import SENTENCES
from moderator.models import Announcement, AuditLog, Game, Input, Message, Phase
from moderator.parser.thread import split_posts
from moderator.rules import codec
from moderator.services import bulk, play
from moderator.web.inputs import STATUS_LABELS
from tests.console.test_console import MANIFESTO, _pm, once
from tests.world import TABLE, game_make

pytestmark = pytest.mark.django_db

RAW_FLOAT = re.compile(r"\d+\.\d{4,}")  # 0.999814 小时: a number as Python printed it
REPRS = ("{'", "['", "': ", "None", "True", "False", "<Phase", "<Seat", "object at 0x")
# Every English code the house stores: input kinds and payload keys (the codec), model choices, verdict statuses,
# the clock's audit acts, close-event types, order sources.
CODES = {
    *codec.INPUT_KINDS,
    *(k for keys in codec._ITEM_KEYS.values() for k in keys),
    *Input.Kind.values,
    *Announcement.Kind.values,
    *Phase.Kind.values,
    *Phase.Status.values,
    *Game.Status.values,
    *STATUS_LABELS,
    *(a for a in SENTENCES if a.isascii()),
    "random",
    "player",
}
# English a 天神 reads on purpose: the forum's words and the site's own.
ENGLISH = {"BBCode", "PM", "AP", "ID", "JSON", "HTML", "Atom", "UTC", "PHPWind", "Discuz", "YYYY", "MM", "DD", "HH"}
ENGLISH |= {"tianshen"}  # the 天神's own user name
# Not words: a docs/rules.md clause id (a verdict cites its rule: N12, S5, N-kill; a sub-clause: AP3 a), a link, a BBCode
# tag to copy.
NOT_WORDS = re.compile(
    r"\b(?:[A-Z]{1,2}[0-9]+(?: [a-c]\b)?|N-kill)\b|https?://\S+|\[/?(?:b|i|u|quote|color|size|list|\*)(?:=[^\]]*)?\]"
)


def visible(page: str) -> str:
    """What a reader sees: no scripts or styles, no tags (so no attributes), entities decoded."""
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def problems(page: str, codes=CODES) -> list[str]:
    text = NOT_WORDS.sub(" ", visible(page))
    found = [r for r in REPRS if r in text] + RAW_FLOAT.findall(text)
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))
    found += sorted(w for w in words - set(found) if w in codes or w not in ENGLISH)
    return found


def _around(page: str, word: str) -> str:
    text = " ".join(NOT_WORDS.sub(" ", visible(page)).split())
    at = text.find(word)
    return f"{word!r} in …{text[max(at - 40, 0) : at + 40]}…"


def _at(phase: Phase, hours: float) -> str:
    return timezone.localtime(phase.starts_at + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M")


class Console:
    """The 天神 at the console: every page a step shows (a form's answer, the page it redirects to with its flash
    message) is kept, to be read at the end."""

    def __init__(self, client, game: Game):
        self.client, self.game, self.pages = client, game, []
        self.base = f"/gm/{game.pk}/"

    def keep(self, name: str, response) -> str:
        assert response.status_code == 200, (name, response.status_code)
        page = response.content.decode()
        self.pages.append((name, page))
        return page

    def get(self, path: str = "") -> str:
        return self.keep(path or "控制台", self.client.get(self.base + path))

    def post(self, path: str, data: dict, form: str | None = None) -> str:
        """A form sent back with the one-time token of the page it is on (`form`, or the same path)."""
        token = once(self.client, self.base + (path if form is None else form), self.base + path)
        return self.keep(path, self.client.post(self.base + path, {**data, **token}, follow=True))

    def open_phase(self) -> Phase:
        return self.game.phases.get(status=Phase.Status.OPEN)

    def at(self, hours: float) -> str:
        return timezone.localtime(self.open_phase().starts_at + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M")

    def seat(self, name: str) -> int:
        return self.game.seats.get(player_name=name).pk

    def pm(self, who: str, text: str) -> None:
        self.keep(f"{who}的短消息", _pm(self.client, self.game, who, text, confirm=True))

    def action(self, who: str, hours: float, **fields) -> None:
        self.post("action/", {"seat": self.seat(who), "forum_at": self.at(hours), **fields})

    def vote(self, who: str, target: str, hours: float, **extra) -> None:
        data = {"seat": self.seat(who), "target": self.seat(target), "forum_at": self.at(hours), **extra}
        self.post("votes/", data)

    def last_action(self) -> Input:
        return Input.objects.filter(game=self.game, kind="action").latest("seq")


def _night_1(gm: Console) -> None:
    gm.pm("甲", f"今晚用杀手攻击乙。杀人宣言:{MANIFESTO}")
    gm.pm("乙", "束魂 乙。丢牌顺序:庶民、束魂、诅咒/庇佑、防弹衣/狼毒、禁锢/反狙击")
    gm.pm("丙", "今晚空过")
    gm.pm("丁", "用狙击手瞄准狙击甲的第2张牌,还有今晚天气不错")  # refused (AP4), and words not understood
    gm.action("丁", 2, card="巫医", use="治疗", target="乙")
    heal = gm.last_action()
    gm.get(f"void/{heal.pk}/")  # the void's preview
    gm.post(f"void/{heal.pk}/", {"reason": "玩家撤回"})
    gm.keep("录入预览", _pm(gm.client, gm.game, "丁", "束魂 丁"))
    gm.get()
    assert play.phase_close(phase=gm.open_phase())


def _day_1(gm: Console) -> None:
    gm.vote("甲", "丁", 1)
    gm.vote("丁", "甲", 1)
    gm.vote("甲", "乙", 2, change="on")
    gm.pm("乙", "诅咒 丁")
    paste = {"seat": gm.seat("丙"), "forum_at": gm.at(3), "text": "投 丁", "preview": "1"}
    gm.keep("投票帖预览", gm.client.post(gm.base + "vote-post/", paste))
    gm.post("clock/extend/", {"hours": "2", "reason": "有人请假"}, "")
    gm.post("clock/pause/", {}, "")
    gm.post("clock/resume/", {}, "")
    gm.post("substitute/", {"seat": gm.seat("丙"), "player_name": "戊"}, "")  # what it would change: nothing saved
    gm.post("substitute/", {"seat": gm.seat("丙"), "player_name": "戊", "confirm": "1"}, "")
    gm.get("votes/")
    gm.get("end/")
    gm.post("clock/end/", {"force": "1"}, "end/")  # T5: before the (extended) deadline


def _night_2(gm: Console) -> None:
    attack = next(r for r in Input.objects.filter(game=gm.game, kind="action") if r.payload["use"] == "普通攻击")
    shown = gm.keep("更正预览", gm.client.post(gm.base + "correction/", {"void": str(attack.pk), "preview": "1"}))
    seen = {k: re.search(rf'name="{k}" value="([^"]*)"', shown).group(1) for k in ("seen", "at")}
    gm.post("correction/", {"void": str(attack.pk), "confirm": "1", "reason": "天神录错", **seen})
    dawn = gm.game.announcements.filter(kind=Announcement.Kind.DAWN).first()
    gm.post(f"announcements/{dawn.pk}/posted/", {}, "announcements/")
    gm.post(f"links/{gm.seat('甲')}/rotate/", {}, "")
    gm.pm("丁", "巫医 丁")
    gm.get(f"void/{gm.last_action().pk}/")
    paste = f"=== 乙 {gm.at(2).replace('T', ' ')}\n束魂 乙\n"
    gm.keep("批量录入预览", gm.client.post(gm.base + "bulk/", {"mode": "pms", "paste": paste, "split": "1"}))
    bulk.bulk_confirm(game=gm.game, posts=split_posts(paste, authors=["乙"]), vote_post=False)


@pytest.fixture
def played(gm_client, gm):
    game = game_make(name="句子局", players=TABLE, gm=gm, started_at=timezone.now() - timedelta(days=2, hours=1))
    console = Console(gm_client, game)
    for step in (_night_1, _day_1, _night_2):
        step(console)
    return console


CONSOLE = ("", "audit/", "announcements/", "correction/", "votes/", "end/", "draw/", "bulk/", "action/", "pm/")


def _read(gm: Console) -> list[str]:
    found = [f"{name}: {_around(page, word)}" for name, page in gm.pages for word in problems(page)]
    return found


def test_every_console_page_of_a_played_game_reads_as_sentences(played):
    gm = played
    assert set(Input.objects.filter(game=gm.game).values_list("kind", flat=True)) == set(codec.INPUT_KINDS)
    acts = set(AuditLog.objects.filter(game=gm.game).values_list("action", flat=True))
    assert {"phase_extend", "game_pause", "game_resume", "phase_end_early", "seat_token_rotate"} <= acts
    assert {"更正", "作废输入", "替补", "录入特权", "录入投票", "录入消息", "批量录入", "标记公告已发布"} <= acts
    assert acts <= set(SENTENCES)  # every act of the game is told as a sentence, not by its name
    for path in CONSOLE:
        gm.get(path)
    gm.keep("/gm/", gm.client.get("/gm/"))
    for m in Message.objects.filter(game=gm.game):
        gm.get(f"messages/{m.pk}/")
    found = _read(gm)
    assert found == [], "\n".join(found)


def test_a_finished_game_reads_as_sentences_too(played):
    gm = played
    gm.post("draw/", {"confirm": "1"})  # V4: the game ends in a declared draw
    acts = set(AuditLog.objects.filter(game=gm.game).values_list("action", flat=True))
    assert "game_declare_draw" in acts and acts <= set(SENTENCES)
    for path in ("", "audit/", "announcements/"):
        gm.get(path)
    gm.keep("/gm/", gm.client.get("/gm/"))
    found = _read(gm)
    assert found == [], "\n".join(found)


def test_the_scan_sees_what_it_must_and_ignores_markup():
    assert problems("<p>{'card': '束魂'}</p>") == ["{'", "': ", "card"]
    assert problems('<p class="vote pass">投票 → 阿飞<script>var a = "action";</script></p>') == []
    assert problems("<td>None</td><td>refused</td>") == ["None", "refused"]
    assert problems("<p>复制 BBCode 发 PM(N12, N-kill)[b]粗体[/b]</p>") == []
    assert problems("<td>暂停游戏(第1天剩余 0.999814 小时)</td>") == ["0.999814"]


def test_a_refused_form_answers_in_a_sentence_too(gm_client, gm):
    """What a 天神 may type wrong — an extension of "abc", inf or 1e308 hours, a correction naming a phase that does
    not exist — is answered in Chinese, never with Python's own words."""
    game = game_make(name="句子局", players=TABLE, gm=gm, started_at=timezone.now() - timedelta(hours=1))
    gm = Console(gm_client, game)
    for hours in ("abc", "inf", "nan", "1e308", "-5", "0"):
        page = gm.post("clock/extend/", {"hours": hours}, "")
        assert "延长的时间请写小时数" in visible(page), hours
    add = {"add-phase": "999", "add-seat": gm.seat("甲"), "add-use": "束魂", "add-forum_at": gm.at(0.5)}
    page = gm.keep("更正", gm_client.post(gm.base + "correction/", {**add, "preview": "1"}))
    assert "所选的时段、座位或输入不存在" in visible(page)
    found = _read(gm)
    assert found == [], "\n".join(found)
