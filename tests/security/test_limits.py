"""The import's table checks, and limits a real game never reaches (seats, inputs, import size, names on
the new-game form) are refused in a Chinese sentence before any work; an import passes the same S1/S3 and name
checks as the new-game form (7 killers, two 杀手 in one hand, look-alike, bidi and zero-width names)."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from moderator.models import Game
from moderator.services import setup, transfer
from moderator.services.setup import SEATS_MAX
from moderator.services.transfer_schema import MAX_INPUTS
from tests.tokens import signed

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(sample):
    return json.loads(json.dumps(transfer.export_game(sample.game)))


def _new_game(client, players: str) -> tuple[str, int]:
    before = Game.objects.count()
    response = client.post("/games/new/", {**signed(client, "game_new"), "name": "测试", "players": players})
    assert response.status_code == 200  # the form again, with the sentence
    return response.content.decode(), Game.objects.count() - before


def _import(client, data) -> tuple[str, int]:
    body = data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()
    before = Game.objects.count()
    response = client.post(
        "/games/import/",
        {**signed(client, "console_import"), "file": SimpleUploadedFile("g.json", body), "name": "导入"},
    )
    assert response.status_code == 200
    return response.content.decode(), Game.objects.count() - before


# --- the new-game form ---------------------------------------------------------------------------------------------


def test_the_new_game_form_refuses_more_seats_than_a_game_has_in_a_sentence(gm_client):
    page, made = _new_game(gm_client, "\n".join(f"玩家{i}" for i in range(SEATS_MAX + 1)))
    assert made == 0 and f"一局最多 {SEATS_MAX} 名玩家" in page and f"现在填了 {SEATS_MAX + 1} 个" in page


def test_sixty_thousand_names_are_refused_by_their_length_before_they_are_read(gm_client):
    page, made = _new_game(gm_client, "\n".join(f"p{i}" for i in range(60_000)))
    assert made == 0 and "玩家论坛ID一共最多" in page
    assert 'maxlength="' not in page.split('name="players"')[0][-200:]  # no silent cut of a paste in the browser


def test_the_service_refuses_too_many_names_before_checking_any(db):
    with pytest.raises(setup.SetupError, match=f"一局最多 {SEATS_MAX} 名玩家"):
        setup.game_create(name="x", player_names=[f"p{i}" for i in range(60_000)])


def test_a_full_table_of_distinct_names_passes_the_name_checks_and_duplicates_are_named(db):
    names = [f"玩家{i}" for i in range(SEATS_MAX)]
    assert setup._clean_names(names) == names
    with pytest.raises(setup.SetupError, match="玩家论坛ID重复:玩家3"):
        setup._clean_names([*names[:-1], "玩家3"])


# --- the import: limits ----------------------------------------------------------------------------------------------


def test_an_import_with_more_seats_than_a_game_has_is_refused(gm_client, exported):
    data = copy.deepcopy(exported)
    extra = copy.deepcopy(data["seats"][-1])
    for n in range(8, SEATS_MAX + 2):
        data["seats"].append(dict(extra, number=n, player_name=f"新人{n}", holders=[]))
    data["game"]["seats_count"] = len(data["seats"])
    page, made = _import(gm_client, data)
    assert made == 0 and "无法导入" in page and f"一局游戏最多 {SEATS_MAX} 名玩家" in page, page[page.find("无法") :][
        :300
    ]


def test_an_import_with_more_inputs_than_a_game_has_is_refused(gm_client, exported):
    data = copy.deepcopy(exported)
    last = data["inputs"][-1]
    seq = max(i["seq"] for i in data["inputs"])
    data["inputs"] += [dict(last, seq=seq + k) for k in range(1, MAX_INPUTS)]
    page, made = _import(gm_client, data)
    assert made == 0 and "无法导入" in page and f"一局游戏最多 {MAX_INPUTS} 条输入" in page


def test_an_import_of_three_megabytes_is_refused_as_too_large(gm_client, exported):
    data = dict(exported, padding="空" * 1_100_000)  # 3.3 MB of UTF-8: a real game is well under 1 MB
    page, made = _import(gm_client, data)
    assert made == 0 and "文件太大" in page


# --- the import: the new-game form's table checks --------------------------------------------------------------------


def _camps(camp):
    return lambda d: [s.update(camp=camp) for s in d["seats"]]


def _hand(hand):
    return lambda d: d["seats"][0].update(dealt_hand=hand)


def _name(seat: int, name: str):
    def change(d):
        d["seats"][seat].update(player_name=name)
        for h in d["seats"][seat]["holders"]:
            h["player_name"] = name

    return change


TABLES = {
    "seven_killers": (_camps("杀手"), "S1"),
    "two_killer_cards_in_one_hand": (_hand(["庶民", "杀手", "杀手", "阿米巴", "保镖"]), "杀手"),
    "killer_card_outside_its_camp": (lambda d: d["seats"][1].update(dealt_hand=["庶民", "杀手"]), "S3"),
    "traditional_look_alike": (lambda d: (_name(1, "狄仁杰")(d), _name(3, "狄仁傑")(d)), "看起来是同一个ID"),
    "bidi_name": (_name(1, "乙\u202egnp.exe"), "U+202E"),
    "zero_width_name": (_name(1, "乙\u200b"), "U+200B"),
}


@pytest.mark.parametrize("attack", list(TABLES))
def test_an_import_passes_the_new_game_forms_table_checks(gm_client, exported, attack):
    change, word = TABLES[attack]
    data = copy.deepcopy(exported)
    change(data)
    page, made = _import(gm_client, data)
    assert made == 0 and "座位表通不过新建游戏时的检查" in page and word in page, page[page.find("无法") :][:300]


def test_an_import_with_case_variants_of_one_name_is_refused(gm_client, exported):
    data = copy.deepcopy(exported)
    _name(1, "Tianshen")(data)
    _name(3, "ｔｉａｎｓｈｅｎ")(data)
    page, made = _import(gm_client, data)
    assert made == 0 and "看起来是同一个ID" in page


def test_a_real_export_still_imports(gm_client, exported):
    before = Game.objects.count()
    body = json.dumps(exported, ensure_ascii=False).encode()
    response = gm_client.post(
        "/games/import/",
        {**signed(gm_client, "console_import"), "file": SimpleUploadedFile("g.json", body), "name": "导入"},
    )
    assert response.status_code == 302 and Game.objects.count() == before + 1
