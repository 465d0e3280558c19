"""Players act from their own private page (/p/<token>/act/) through the same services as the console."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from selfentry_kit import MANIFESTO, act_url, confirm_data, preview, seat

from moderator.models import AuditLog, Input, SelfEntry
from tests import entries

pytestmark = pytest.mark.django_db


def test_off_by_default_the_page_says_the_gm_enters_and_a_post_stores_nothing(game, client):
    game.self_entry = False
    game.save(update_fields=["self_entry"])
    a = seat(game, "甲")
    page = client.get(act_url(a)).content.decode()
    assert "本局由天神录入" in page and 'id="form-form"' not in page
    response = client.post(act_url(a), {"kind": "form", "a-use": "普通攻击", "a-target": "乙"})
    assert "本局由天神录入" in response.content.decode()
    assert Input.objects.count() == 0


def test_a_privilege_previews_like_the_console_and_is_stored_only_on_confirm(game, client):
    a = seat(game, "甲")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}
    )
    assert "预览(还没有保存)" in html and "普通攻击(杀手) → 乙" in html and "将被接受" in html
    assert Input.objects.count() == 0  # a preview stores nothing
    data = confirm_data(html, {})
    response = client.post(act_url(a), data)
    assert response.status_code == 302
    rec = Input.objects.get()
    assert rec.seat == a and rec.entered_by is None and rec.verdict.accepted and rec.verdict.cost == 1
    entry = SelfEntry.objects.get()
    assert list(entry.inputs.all()) == [rec] and entry.player_name == "甲" and len(entry.link) == 8
    assert entry.link not in a.token and entry.raw["items"][0]["target"] == "乙"
    audit = AuditLog.objects.get(action="玩家自行提交")
    assert audit.actor is None and audit.detail["sender"] == "甲" and audit.detail["link"] == entry.link
    page = client.get(act_url(a)).content.decode()
    assert "已提交" in page and "普通攻击(杀手) → 乙" in page


def test_a_repeated_confirm_stores_once(game, client):
    a = seat(game, "甲")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}
    )
    data = confirm_data(html, {})
    assert client.post(act_url(a), data).status_code == 302
    again = client.post(act_url(a), data)
    assert "已经提交过了" in again.content.decode()
    assert Input.objects.count() == 1 and SelfEntry.objects.count() == 1


def test_a_stale_preview_stores_nothing_and_shows_the_new_verdict(game, client):
    """The preview said accepted for 1 AP; meanwhile the 天神 entered 甲's PM spending his 3 AP on 一击必杀: the
    confirm stores nothing and shows what it would do now (refused, AP4)."""
    from django.utils import timezone

    a = seat(game, "甲")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}
    )
    entries.action_submit(
        game=game,
        seat=a,
        payload={"card": "杀手", "use": "一击必杀", "target": "丙", "manifesto": MANIFESTO},
        forum_at=timezone.now(),
    )
    before = Input.objects.count()
    response = client.post(act_url(a), confirm_data(html, {}))
    page = response.content.decode()
    assert response.status_code == 200, Input.objects.last().verdict.reason
    assert "什么都没有保存" in page and 'id="preview"' in page and "将被拒绝:行动点数不足" in page
    assert Input.objects.count() == before and SelfEntry.objects.count() == 0


def test_a_page_of_an_earlier_phase_stores_nothing(game, client):
    from moderator.services import clock

    a = seat(game, "甲")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}
    )
    clock.phase_end_early(game=game, force=True)
    page = client.post(act_url(a), confirm_data(html, {})).content.decode()
    assert "页面已过期" in page and Input.objects.filter(seat=a).count() == 0


def test_a_rotated_or_substituted_link_can_no_longer_act(game, client):
    from django.utils import timezone

    from moderator.services import setup
    from moderator.services.seats import seat_token_rotate

    a, b = seat(game, "甲"), seat(game, "乙")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}
    )
    old = a.token
    seat_token_rotate(seat=a)
    assert client.post(reverse("seat_act", args=[old]), confirm_data(html, {})).status_code == 404
    assert client.get(reverse("seat_act", args=[old])).status_code == 404
    html = preview(client, b, "form", {"a-use": "束魂", "a-card": "束魂", "a-target": "乙"})
    old = b.token
    setup.seat_substitute(seat=b, player_name="小乙", at=timezone.now())
    assert client.post(reverse("seat_act", args=[old]), confirm_data(html, {})).status_code == 404
    assert Input.objects.count() == 0


def test_the_link_rotated_between_preview_and_confirm_is_refused_by_the_service(game):
    """The view finds the seat by its token; the service reads it again under the game lock."""
    from moderator.services import selfentry
    from moderator.services.seats import seat_token_rotate

    a = seat(game, "甲")
    sub = selfentry.Submission(
        "form", items=[{"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}]
    )
    shown = selfentry.preview(seat=a, token=a.token, sub=sub)
    old = a.token
    seat_token_rotate(seat=a)
    with pytest.raises(selfentry.EntryRefused, match="链接已经失效"):
        selfentry.confirm(seat=a, token=old, sub=sub, seen=shown.seen, once=None)
    assert Input.objects.count() == 0


def test_a_player_cannot_act_for_another_seat_by_editing_the_form(game, client):
    a, b = seat(game, "甲"), seat(game, "乙")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "丙", "a-manifesto": MANIFESTO}
    )
    data = confirm_data(html, {})
    data.update({"seat": str(b.pk), "a-seat": str(b.pk), "by": "乙", "a-by": "乙", "sender": "乙"})
    assert client.post(act_url(a), data).status_code == 302
    rec = Input.objects.get()
    assert rec.seat == a  # the link's seat, whatever the form says
    page = client.get(act_url(b)).content.decode()
    assert "普通攻击" not in page.split("我已经提交的", 1)[1]  # and nothing of 甲's shows on 乙's page


def test_free_text_goes_through_the_parser_and_its_candidates_are_buttons(game, client):
    a = seat(game, "甲")
    html = preview(client, a, "text", {"t-text": "今晚用杀手普通攻击乙。杀人宣言:" + MANIFESTO})
    assert "普通攻击(杀手) → 乙" in html and "将被接受" in html and 'id="evidence"' in html
    assert client.post(act_url(a), confirm_data(html, {})).status_code == 302
    rec = Input.objects.get()
    assert rec.message.text.startswith("今晚用杀手普通攻击乙") and rec.message.seat == a
    assert SelfEntry.objects.get().message == rec.message


def test_the_discard_order_and_the_vote_from_the_page(game, client):
    from moderator.services import clock

    d = seat(game, "丁")
    order = ["狼人", "庶民", "巫医", "束魂", "狙击手"]
    html = preview(client, d, "order", {f"o-pos{i}": c for i, c in enumerate(order)})
    assert "将被接受" in html
    assert client.post(act_url(d), confirm_data(html, {})).status_code == 302
    clock.phase_end_early(game=game, force=True)
    a = seat(game, "甲")
    html = preview(client, a, "vote", {"v-post": "for", "v-target": "丁"})
    assert "投票 → 丁" in html or "丁" in html
    assert client.post(act_url(a), confirm_data(html, {})).status_code == 302
    vote = Input.objects.get(seat=a, kind="vote")
    assert vote.verdict.accepted and vote.payload


def test_a_dead_player_sees_why_he_cannot_act_and_his_post_stores_nothing(client):
    from bench.sample import DAY_DEATH, NIGHT_DEATH, sample_game

    s = sample_game()
    s.game.self_entry = True
    s.game.save(update_fields=["self_entry"])
    before = Input.objects.count()
    for name in (NIGHT_DEATH, DAY_DEATH):
        dead = s.seats[name]
        page = client.get(act_url(dead)).content.decode()
        assert "你已经死亡" in page and 'id="form-vote"' not in page and 'id="form-form"' not in page
        response = client.post(act_url(dead), {"kind": "vote", "v-post": "for", "v-target": "甲"})
        assert "你已经死亡" in response.content.decode()
    assert Input.objects.count() == before
    alive = client.get(act_url(s.seats["甲"])).content.decode()
    assert 'id="form-vote"' in alive and "你已经死亡" not in alive


def test_an_unclear_name_is_refused_naming_the_candidates_and_a_click_chooses_one(game, client):
    """docs/parser.md: 'A或B' is never guessed; the player's own click on a candidate previews that input, the confirm
    stores it marked as chosen, and the raw text is kept as written."""
    b = seat(game, "乙")
    html = preview(client, b, "text", {"t-text": "束魂乙或丙"})
    assert "不会替你选" in html and 'name="pick" value="0:乙"' in html and 'name="pick" value="0:丙"' in html
    assert Input.objects.count() == 0
    form = html.split('id="form-text"', 1)[1].split("</form>", 1)[0]
    data = dict(re.findall(r'<input type="hidden" name="(once|phase|kind)" value="([^"]*)"', form))
    chosen = client.post(act_url(b), {**data, "t-text": "束魂乙或丙", "pick": "0:丙"}).content.decode()
    assert "你选定了:丙" in chosen and "束魂 → 丙" in chosen and "将被接受" in chosen
    assert client.post(act_url(b), confirm_data(chosen, {})).status_code == 302
    rec = Input.objects.get()
    assert rec.seat == b and rec.message.text == "束魂乙或丙" and rec.message.parsed["refusals"][0]["choice"] == "丙"
    assert rec.verdict.accepted and rec.verdict.cost == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_three_concurrent_confirms_of_one_preview_store_once(game, client):
    """A double tap on a phone: the same confirm three times at once (PostgreSQL row locks): one stores, the others
    are told it was already submitted, and nothing is stored twice."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    a = seat(game, "甲")
    html = preview(
        client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}
    )
    data = confirm_data(html, {})
    cookies = client.cookies

    def post(_):
        c = Client()
        c.cookies = cookies
        try:
            response = c.post(act_url(a), data)
            return response.status_code, "已经提交过了" in response.content.decode()
        finally:
            connection.close()

    with ThreadPoolExecutor(3) as pool:
        codes = sorted(pool.map(post, range(3)))
    assert codes == [(200, True), (200, True), (302, False)]
    assert Input.objects.count() == 1 and SelfEntry.objects.count() == 1


def test_the_forum_time_is_the_confirms_and_a_change_in_the_last_hour_is_refused_d3(game, client):
    """D3 from the page: the vote is stored at the server's time of the confirm; with 30 minutes left a change
    post previews as refused (the last hour before the announced end) and is stored refused, as a PM would be."""
    from datetime import timedelta

    from django.utils import timezone

    from moderator.models import Phase
    from moderator.services import clock

    clock.phase_end_early(game=game, force=True)
    day = Phase.objects.get(game=game, status="open")
    a = seat(game, "甲")
    html = preview(client, a, "vote", {"v-post": "for", "v-target": "丁"})
    before = timezone.now()
    assert client.post(act_url(a), confirm_data(html, {})).status_code == 302
    vote = Input.objects.get(seat=a, kind="vote")
    assert before <= vote.forum_at <= timezone.now() and vote.verdict.accepted
    Phase.objects.filter(pk=day.pk).update(ends_at=timezone.now() + timedelta(minutes=30))
    html = preview(client, a, "vote", {"v-post": "change", "v-target": "乙"})
    assert "改票 → 乙" in html and "将被拒绝" in html
    reason = html.split("将被拒绝:", 1)[1].split("<", 1)[0]
    assert "D3" in reason, reason


def test_nothing_of_another_seat_shows_on_the_page_or_in_a_preview(game, client):
    """Four players act; each one's page and each preview name only his own inputs (A: a seat sees only itself)."""
    plans = {
        "甲": ("form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}),
        "乙": ("form", {"a-use": "束魂", "a-target": "乙"}),
        "丙": ("text", {"t-text": "治疗丙"}),
        "丁": ("form", {"a-passes": "on"}),
    }
    sentences = {"甲": "普通攻击(杀手) → 乙", "乙": "束魂 → 乙", "丙": "治疗(巫医) → 丙", "丁": "空过(本时段不行动)"}
    phones = {name: Client() for name in plans}  # each player on his own phone
    for name, (kind, fields) in plans.items():
        html = preview(phones[name], seat(game, name), kind, fields)
        assert sentences[name] in html
        assert not [s for other, s in sentences.items() if other != name and s in html]
        assert phones[name].post(act_url(seat(game, name)), confirm_data(html, {})).status_code == 302
    for name in plans:
        s = seat(game, name)
        for url in (act_url(s), reverse("seat_private", args=[s.token])):
            page = phones[name].get(url).content.decode()
            assert sentences[name] in page, (name, url)
            assert not [x for other, x in sentences.items() if other != name and x in page], (name, url)
            assert not [o.token for o in game.seats.exclude(pk=s.pk) if o.token in page]


def test_only_get_and_post_and_a_wrong_token_is_the_silent_404(game, client):
    a = seat(game, "甲")
    assert client.put(act_url(a)).status_code == 405
    assert client.get(reverse("seat_act", args=["x" * 43])).status_code == 404
    response = client.get(act_url(a))
    assert response["Cache-Control"] == "private, no-store" and response["Referrer-Policy"] == "same-origin"


def test_free_text_shows_the_exact_manifesto_to_publish_and_the_player_can_trim_it_nkill(game, client):
    """The player sees the 杀人宣言 word for word before confirming (a line to the 天神 after it would be
    published), trims it in the preview, and the confirm stores the trimmed text; the raw text is kept."""
    a = seat(game, "甲")
    secret = "另:我白天说的身份其实是假的"  # no action word in it: the parser cannot tell it from the 宣言
    text = f"今晚用杀手普通攻击乙。杀人宣言:{MANIFESTO}\n{secret}"
    html = preview(client, a, "text", {"t-text": text})
    shown = re.findall(r'<blockquote class="manifesto">(.*?)</blockquote>', html, re.S)
    assert len(shown) == 1 and secret in shown[0]
    [box] = re.findall(r'name="(manifesto-\d+)"', html)
    trimmed = client.post(act_url(a), {**confirm_data(html, {}), "confirm": [], "preview": "1", box: MANIFESTO})
    html = trimmed.content.decode()
    shown = re.findall(r'<blockquote class="manifesto">(.*?)</blockquote>', html, re.S)
    assert shown == [MANIFESTO] and "按你修改后的文字" in html and "将被接受" in html
    stale = client.post(act_url(a), confirm_data(html, {}))  # the box left out: not what the preview showed
    assert "什么都没有保存" in stale.content.decode() and not Input.objects.exists()
    html = stale.content.decode()
    html = client.post(act_url(a), {**confirm_data(html, {}), "confirm": [], "preview": "1", box: MANIFESTO})
    html = html.content.decode()
    assert client.post(act_url(a), {**confirm_data(html, {}), box: MANIFESTO}).status_code == 302
    rec = Input.objects.get()
    assert rec.payload["manifesto"] == MANIFESTO and rec.message.text == text
    assert SelfEntry.objects.get().raw["manifestos"] == {box.removeprefix("manifesto-"): MANIFESTO}


def test_the_page_warns_before_confirm_when_the_manifesto_names_the_player_himself(game, client):
    """What would be published names the sender: the preview says so before it can be confirmed (docs/parser.md)."""
    a = seat(game, "甲")
    html = preview(client, a, "text", {"t-text": f"今晚用杀手普通攻击乙。杀人宣言:{MANIFESTO}我甲今晚就在这里。"})
    assert "注意:要公布的杀人宣言里有发送者自己的名字“甲”" in html
    html = preview(client, a, "text", {"t-text": f"今晚用杀手普通攻击乙。杀人宣言:{MANIFESTO}"})
    assert "注意:要公布的杀人宣言里有发送者自己的名字" not in html


def test_the_players_text_preview_accounts_for_every_part_and_speaks_to_the_player(game, client):
    """Every word accounted for on the player's own page too: beside the input, the greeting and the guess naming a
    player are listed with what they were taken for, in the order written."""
    a = seat(game, "甲")
    html = preview(client, a, "text", {"t-text": "天神晚上好~\n我觉得丙是杀手吧\n普通攻击乙。杀人宣言:" + MANIFESTO})
    block = html.split('<ol id="account"', 1)[1].split("</ol>", 1)[0]
    rows = [" ".join(re.sub(r"<[^>]+>", "", row).split()) for row in re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)]
    assert len(rows) == 5, rows
    assert "是问候,没有当作指令" in rows[0]
    assert "猜测或闲聊" in rows[1] and "丙" in rows[1]
    assert "输入:普通攻击(杀手) → 乙" in rows[2] and "将被接受" in rows[2]
    assert "杀人宣言的标记" in rows[3]
    assert rows[4].startswith(MANIFESTO[:10]) and "杀人宣言:随“普通攻击(杀手) → 乙”原样公布" in rows[4]
    assert "天神自己看" not in html
