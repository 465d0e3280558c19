"""The morning post, word for word (A1–A5, T6, T7, V5): every draft a scenario's closes write is pinned in
tests/golden/posts/<scenario>.txt — BBCode and plain text — and no public post gives a secret away.

Played: every example scenario of the rules (tests/scenarios/shared/) and one scenario per
element of the dawn post (A2), the dusk post (A3), the private notices (A5), the vote post (T6) and the 默哀期 (T7),
listed in ELEMENTS with the words that show the element is there. A new wording is a reviewed diff of the golden
files: `UPDATE_GOLDEN=1 .venv/bin/pytest tests/golden` rewrites them (refused under CI=true).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from golden import SCENARIOS, compare, play, render

from cards.catalogue import CAMPS, CARD_NAMES, COMMONER, USES
from moderator.models import Announcement

pytestmark = pytest.mark.django_db

DAWN, DUSK, VOTE, PRIVATE = (Announcement.Kind.DAWN, Announcement.Kind.DUSK, Announcement.Kind.VOTE_POST, "private")
DEAL = "deal"  # the player list and the deal PMs (A5), drafted at set-up rather than at a close
PUBLIC = {DAWN, DUSK, VOTE}

# (clause, element, scenario, the draft it is in, words that show it) — one scenario per element.
ELEMENTS = [
    (
        "A1",
        "丢牌只公布种类",
        "c_V1_civilians_win_night_death",
        DAWN,
        r"\n\S+昨夜受到了攻击,他丢了[一两三]张(特权|庶民)牌",
    ),
    ("A2", "被绝杀的损失", "c_N11_night_final_kill", DAWN, r"\n\S+被绝杀,损失了一张(特权|庶民)牌。"),
    ("A2", "束魂/巫医失败的损失", "c_N7_two_night_binding_failure", DAWN, r"\n\S+因为束魂/巫医失败,损失了一张"),
    (
        "A2",
        "被救者今天不能投票",
        "01_binding_voids_all_normal_attacks",
        DAWN,
        r"\n乙昨夜被救活了。他今天可以参加讨论,但不能投票。",
    ),
    (
        "A2",
        "昨天被处决者丢掉的牌的种类",
        "c_V5_execution_death_next_night",
        DAWN,
        r"\n昨天被处决的甲丢掉的是一张特权牌。",
    ),
    ("A2", "特赦", "06_pardon", DAWN, r"\n\S+被特赦,取回了昨天被处决时丢掉的牌。"),
    ("A2", "夜间死者不公布身份", "c_V1_civilians_win_night_death", DAWN, r"\n\S+的牌已经全部丢光,\S+死亡。\[/b\]"),
    ("A2", "处决致死在次夜公布,公布身份", "c_V5_execution_death_next_night", DAWN, r"甲死亡。他的身份是:杀手。"),
    (
        "D8",
        "圣人投票者被处决丢光牌:次夜未被特赦,天亮公布死亡和身份",
        "c_D8_saint_voter_with_two_cards_alive_until_dawn",
        DAWN,
        r"丁的牌已经全部丢光,丁死亡。他的身份是:狼人。",
    ),
    (
        "D8",
        "圣人投票者被处决丢光牌:次夜被特赦,活下来",
        "c_D8_saint_voter_with_two_cards_alive_until_dawn",
        DAWN,
        r"\n乙被特赦,取回了昨天被处决时丢掉的牌。",
    ),
    ("A2", "杀人宣言(不署名)", "01_binding_voids_all_normal_attacks", DAWN, r"\[b\]昨夜的杀人宣言:\[/b\]\n\[quote\]"),
    ("A2", "1/3 改丢牌顺序", "c_O3_window_counts_execution_when_announced", DAWN, r"达到总牌数的1/3"),
    ("A2", "2/3 改丢牌顺序", "c_O3_second_window", DAWN, r"达到总牌数的2/3"),
    ("A2", "默哀期", "c_T7_silence_at_three", DAWN, r"现在只剩三名游戏者,进入默哀期"),
    ("A2", "胜负", "c_V1_civilians_win_night_death", DAWN, r"游戏结束:平民阵营获胜!"),
    ("A3", "加权计票", "04_weighted_vote_with_curses", DUSK, r"\[b\]加权计票结果:\[/b\]\n\S+:\d+ 票"),
    ("A3", "处决", "04_weighted_vote_with_curses", DUSK, r"\[b\]被处决的是:\S+。\[/b\]"),
    (
        "A3",
        "不能被特赦者当场公布种类",
        "c_N12_no_pardon_after_saint",
        DUSK,
        r"不能被特赦,他丢掉的是一张(特权|庶民)牌。",
    ),
    ("A3", "圣人", "c_N14_saint_voters_lose", DUSK, r"圣人特权生效了[^\n]*\n\S+因为圣人特权损失了一张"),
    ("A3", "白天绝杀", "c_N11_day_final_kill_after_count", DUSK, r"\n\S+被绝杀,损失了一张(特权|庶民)牌。"),
    ("A3", "白天死者公布身份", "c_V5_day_deaths_at_close", DUSK, r"死亡。他的身份是:\S+。"),
    ("A3", "改丢牌顺序", "c_V5_execution_death_next_night", DUSK, r"达到总牌数的1/3"),
    ("A3", "默哀期", "c_V5_day_deaths_at_close", DUSK, r"现在只剩\S名游戏者,进入默哀期"),
    ("A3", "胜负", "c_V5_day_deaths_at_close", DUSK, r"游戏结束:\S+获胜!"),
    ("A5", "发牌短消息(阵营和手牌)", "01_binding_voids_all_normal_attacks", DEAL, r"你在《\S+》中的阵营是:\[b\]"),
    ("A5", "共赢通知", "c_V2_killer_and_cowin_partner_win", PRIVATE, r"自选立场者选择了与你\[b\]共赢\[/b\]"),
    ("A5", "改丢牌顺序提醒", "c_O3_second_window", PRIVATE, r"现在是改丢牌顺序的时间"),
    ("T6", "投票帖随天亮公告起草", "01_binding_voids_all_normal_attacks", VOTE, r"投票截止:2014-05-23 09:36"),
    ("T7", "只剩两人时的默哀期", "c_T7_silence_when_skipping_three", DAWN, r"现在只剩两名游戏者,进入默哀期"),
    ("V4", "平局", "c_V4_draw_everyone_dead", DAWN, r"游戏结束:平局!"),
    (
        "V2",
        "共赢:阵营获胜,两人都赢",
        "c_V2_killer_and_cowin_partner_win",
        DAWN,
        r"游戏结束:杀手阵营获胜!\[/b\]\n获胜的游戏者:甲、乙\(与杀手阵营共赢的自选立场者\)。",
    ),
    (
        "V2",
        "杀手已死,共赢者独活:阵营获胜,死去的杀手也赢",
        "c_V2_cowin_self_chosen_alone_wins_for_the_camp",
        DAWN,
        r"游戏结束:杀手阵营获胜!\[/b\]\n获胜的游戏者:甲、乙\(与杀手阵营共赢的自选立场者\)。",
    ),
]
SHARED = sorted(p.stem for p in (SCENARIOS / "shared").glob("*.yaml"))
PLAYED = sorted({*SHARED, *(e[2] for e in ELEMENTS)})
WITH_DEAL = {e[2] for e in ELEMENTS if e[3] == DEAL}

# Phrases the rules make public although they contain a card's or a privilege's name (A2: 绝杀 and 束魂/巫医 failures
# are named as such, and pardons; A3: 圣人), and a day death's camp (V5) or the winning side, which may be 杀手 or 狼人.
ALLOWED = re.compile(
    r"束魂/巫医失败|被绝杀|被特赦|圣人特权|他的身份是:\S+?。|游戏结束:\S+?!|获胜的游戏者:[^\n]*|\[quote\].*?\[/quote\]",
    re.S,
)
SECRET_WORDS = sorted({*CARD_NAMES, *USES} - {COMMONER, "立场"}, key=len, reverse=True)  # 庶民牌 is a type (A1)


def _drafts(stem: str):
    game, problems, drafts = play(next(SCENARIOS.rglob(f"{stem}.yaml")))
    assert not problems, problems
    return game, drafts


def _of_kind(game, drafts, kind: str) -> list[str]:
    if kind == DEAL:
        return [render(game, [], with_deal=True)]
    if kind == PRIVATE:
        return [a.bbcode for a in drafts if a.kind == Announcement.Kind.PRIVATE]
    return [a.bbcode for a in drafts if a.kind == kind]


@pytest.mark.parametrize("stem", PLAYED)
def test_every_draft_is_word_for_word_its_golden_file_and_gives_no_secret_away(stem):
    game, drafts = _drafts(stem)
    assert drafts, "a scenario that closes a phase drafts at least one post"
    _assert_no_secret(game, drafts)
    problem = compare(stem, render(game, drafts, with_deal=stem in WITH_DEAL))
    assert problem is None, problem


@pytest.mark.parametrize(("clause", "element", "stem", "kind", "words"), ELEMENTS, ids=[e[1] for e in ELEMENTS])
def test_each_announced_element_is_in_its_post(clause, element, stem, kind, words):
    game, drafts = _drafts(stem)
    posts = _of_kind(game, drafts, kind)
    assert any(re.search(words, p) for p in posts), f"{clause} {element}: no {kind} post of {stem} says it:\n" + (
        "\n---\n".join(posts)
    )


def _assert_no_secret(game, drafts) -> None:
    """No post names a card, a manifesto's author, a night death's camp or a secret modifier (A1–A3, V5, N13)."""
    names = list(game.seats.values_list("player_name", flat=True))
    for a in drafts:
        where = f"{a.phase.label} {a.kind} {a.recipient}"
        # The plain text is the BBCode untagged, a quoted line (a player's 杀人宣言) kept visibly quoted (16.8).
        quoted = re.sub(
            r"\[quote\](.*?)\[/quote\]", lambda m: re.sub(r"^", "> ", m.group(1), flags=re.M), a.bbcode, flags=re.S
        )
        assert a.text == re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", quoted), (
            f"{where}: the plain text is the BBCode untagged"
        )
        if a.kind in PUBLIC:
            _assert_no_card_named(a.bbcode, where)  # A1, A3; N13 modifiers (诅咒/庇佑) stay secret
        if a.kind == DAWN:
            _assert_manifestos_anonymous(a, names, where)  # A2
            _assert_only_day_deaths_show_a_camp(a, where)  # V5
        if a.kind == Announcement.Kind.PRIVATE:
            others = [n for n in names if n != a.recipient and n in a.bbcode]
            assert not others, f"{where}: a private notice names other players {others} (S4, A5)"


def _assert_no_card_named(bbcode: str, where: str) -> None:
    public = ALLOWED.sub("", bbcode)
    named = [w for w in SECRET_WORDS if w in public]
    assert not named, f"{where}: the post names {named} (A1: losses by type only)\n{bbcode}"


def _assert_manifestos_anonymous(a: Announcement, names: list[str], where: str) -> None:
    """A2: the night's 杀人宣言 without authors — no [quote=…], and the dawn post names only players something
    public happened to (a loss, a rescue, an execution card, a pardon, a death), never an attacker as such."""
    assert "[quote=" not in a.bbcode, f"{where}: a quote names its author"
    subjects = {e["player"] for e in a.events if "player" in e and e["type"] != "manifesto"}
    subjects |= set(re.findall(r"\n(\S+?)昨夜被救活了", a.bbcode)) & set(names)
    subjects |= {w["name"] for e in a.events if e["type"] == "victory" for w in e.get("winners", [])}  # V2: the end
    outside_quotes = re.sub(r"\[quote\].*?\[/quote\]", "", a.bbcode, flags=re.S)
    strangers = [n for n in names if n in outside_quotes and n not in subjects]
    assert not strangers, f"{where}: the dawn post names {strangers}, to whom nothing public happened\n{a.bbcode}"


def _assert_only_day_deaths_show_a_camp(a: Announcement, where: str) -> None:
    """V5: a night death's camp is never shown; a death by yesterday's execution (announced now, D6) is a day death."""
    executed = {e["player"] for e in a.events if e["type"] == "execution_card"}
    for player, camp_shown in re.findall(r"([^\s\]]+?)的牌已经全部丢光,\S+?死亡。(他的身份是)?", a.bbcode):
        if camp_shown:
            assert player in executed, f"{where}: {player} died at night and the post shows the camp"
        for camp in CAMPS:
            line = next(line for line in a.bbcode.splitlines() if f"{player}的牌已经全部丢光" in line)
            assert camp_shown or camp not in line, f"{where}: {player}'s death line names a camp"


def test_every_shared_scenario_is_played():
    shared = Path(__file__).resolve().parents[3] / "shared" / "scenarios"
    if shared.is_dir():  # where the rule authors' examples sit beside the project, ours are copies of all of them
        assert {p.stem for p in shared.glob("*.yaml")} <= set(SHARED)
    assert len(SHARED) >= 12
