"""A 杀人宣言 is published word for word: when what would be published names the sender (their name, or a part of
it the name book resolves to them), the preview says so before confirm — on the console's PM page (docs/parser.md)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from moderator.parser import sender_words
from moderator.services import intake
from tests.intake.conftest import at, table

pytestmark = pytest.mark.django_db
P = ["实习警花", "月下独酌", "月下美人", "张三丰", "李四", "李四海", "Kiki"]


@pytest.mark.parametrize(
    "manifesto,sender,words",
    [
        ("今晚你逃不掉了,张三丰在此", "张三丰", ["张三丰"]),
        ("今晚你逃不掉了,三丰留", "张三丰", ["三丰"]),  # a part of the name, the sender's alone
        ("警花来了", "实习警花", ["警花"]),
        ("李四你完了", "李四海", []),  # 李四 is another player
        ("kiki在看着你", "Kiki", ["kiki"]),
        ("长夜漫漫,烛火将尽", "Kiki", []),
    ],
)
def test_the_words_of_a_manifesto_that_name_the_sender(manifesto, sender, words):
    assert sender_words(manifesto, sender=sender, players=P) == words


def test_the_console_preview_warns_before_confirm_when_the_manifesto_names_the_attacker(gm_client, gm):
    game = table()
    game.gms.add(gm)
    seat = game.seats.get(player_name="狄如燕")  # holds the 杀手
    text = "杀狄仁杰。宣言:长夜漫漫,今晚轮到你了,如燕敬上"
    preview = intake.pm_preview(game, intake.Pasted(seat=seat, text=text, forum_at=at(game)))
    attack = next(i for i in preview.items if i.attack)
    assert attack.sender_words == ("如燕",)
    warning = "注意:要公布的杀人宣言里有发送者自己的名字“如燕”"
    assert warning in attack.sentence
    data = {
        "seat": seat.pk,
        "forum_at": timezone.localtime(at(game)).strftime("%Y-%m-%dT%H:%M"),
        "text": text,
        "preview": "1",
        "phase": game.phases.get().pk,
    }
    page = gm_client.post(f"/gm/{game.pk}/pm/", data).content.decode()
    assert warning in page


def test_no_warning_when_the_manifesto_does_not_name_the_sender():
    game = table()
    seat = game.seats.get(player_name="狄如燕")
    preview = intake.pm_preview(
        game, intake.Pasted(seat=seat, text="杀狄仁杰。宣言:长夜漫漫,今晚轮到你了", forum_at=at(game))
    )
    attack = next(i for i in preview.items if i.attack)
    assert attack.sender_words == () and "注意" not in attack.sentence
