"""A whole game played through the services from the golden start to its end, as a 天神 would run it: a substitution
(S5, T4), an 阿米巴 lost to 圣人 before its transformation is done (M1, N14), curses and blesses by night and by day
(N13), a 巫医 catch (N8), an order-change window (O3), two corrections after a close (an input added, one voided),
a day death at dawn by yesterday's execution (V5), and the werewolf camp's win (V2). Its 复盘 is pinned word for word
(tests/golden/traces/review_played.txt)."""

from __future__ import annotations

from datetime import timedelta

from moderator.models import Game, Input, Phase
from moderator.services import corrections, inputs, play, setup
from tests.golden.golden import START

NAME = "复盘演示局"
MANIFESTO = "长安城外夜色深沉,杀手已在暗处等候多时,今夜必有人血溅当场。" * 4  # N-kill: over 100 characters
TABLE = [  # hands in discard order; the last card is the 底牌
    {"name": "东来", "camp": "杀手", "hand": ["庶民", "杀手"]},
    {"name": "李朗", "camp": "平民", "hand": ["庶民", "巫医", "诅咒/庇佑"]},
    {"name": "沙陀", "camp": "狼人", "hand": ["庶民", "狼人"]},
    {"name": "张环", "camp": "平民", "hand": ["阿米巴", "庶民", "束魂"]},
    {"name": "虎敬晖", "camp": "平民", "hand": ["庶民", "纵火/圣人"]},
]
SUBSTITUTE = ("李朗", "小狸")


def _open(game: Game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


def _send(game: Game, name: str, items: list[dict], hours: float) -> list[Input]:
    seat = game.seats.get(player_name=name)
    at = _open(game).starts_at + timedelta(hours=hours)
    return inputs.write(game, inputs.Entry(seat, items, at)).inputs


def _attack(card: str, target: str, use: str = "普通攻击") -> dict:
    return {"use": use, "card": card, "target": target, "manifesto": MANIFESTO}


def _close(game: Game) -> Phase:
    phase = _open(game)
    assert play.phase_close(phase=phase)
    return phase


def played() -> Game:
    game = setup.table_create(name=NAME, players=TABLE)
    setup.game_start(game=game, at=START)
    # Night 1: a werewolf attack on 李朗, caught by his own healing (N8); 张环's 阿米巴 starts to become a 巫医 (M1);
    # 虎敬晖 arms his 圣人 (N14); 东来's attack takes 虎敬晖's 庶民.
    _send(game, "东来", [_attack("杀手", "虎敬晖")], 1)
    _send(game, "沙陀", [_attack("狼人", "李朗")], 2)
    _send(game, "李朗", [{"use": "治疗", "card": "巫医", "target": "李朗"}], 3)
    _send(game, "张环", [{"use": "变形", "card": "阿米巴", "into": "巫医"}], 4)
    _send(game, "虎敬晖", [{"use": "圣人", "card": "纵火/圣人"}], 5)
    night1 = _close(game)
    # The 天神 had missed 李朗's second PM of night 1: added after the close (a correction).
    seat = game.seats.get(player_name="李朗")
    forgotten = {"use": "诅咒", "card": "诅咒/庇佑", "target": "虎敬晖"}
    corrections.correction_apply(
        game=game,
        edits=[
            {
                "op": "add",
                "phase_id": night1.pk,
                "seat_id": seat.pk,
                "item": forgotten,
                "forum_at": night1.starts_at + timedelta(hours=6),
            }
        ],
        reason="漏录了李朗的第二封短消息",
        at=_open(game).starts_at + timedelta(hours=1),
    )
    # Day 1: everyone who may vote votes 虎敬晖 (李朗 was saved: no vote); his 圣人 takes effect: each voter loses a
    # card, 张环 his 阿米巴 (B4: first card); 虎敬晖's last card goes: a day death (V5).
    for name in ("东来", "沙陀", "张环", "虎敬晖"):
        _send(game, name, [{"for": "虎敬晖"}], 2)
    _close(game)
    # Night 2: 小狸 takes 李朗's seat (S5; T4 adds 12 hours); two attacks take two of her cards; she blesses 东来 for
    # tomorrow (N13); 张环's healing is refused: his 阿米巴 is gone, and so is its transformation (M1). A pass entered
    # for 小狸 by mistake is voided after the close (a correction).
    night2 = _open(game)
    setup.seat_substitute(seat=seat, player_name=SUBSTITUTE[1], at=night2.starts_at + timedelta(hours=1))
    _send(game, "张环", [{"use": "治疗", "target": "张环"}], 2)
    (mistake,) = _send(game, "小狸", [{"pass": True}], 3)
    _send(game, "小狸", [{"use": "虔诚庇佑", "card": "诅咒/庇佑", "target": "东来"}], 4)
    _send(game, "东来", [_attack("杀手", "小狸")], 5)
    _send(game, "沙陀", [_attack("狼人", "小狸")], 6)
    _close(game)
    corrections.correction_apply(
        game=game,
        edits=[{"op": "void", "id": mistake.pk}],
        reason="小狸那晚并没有空过,是天神录错了",
        at=_open(game).starts_at + timedelta(hours=1),
    )
    # Day 2: all vote 东来; 小狸 curses him in the day: 5 ÷2 = 2, +1 = 3. His 杀手 waits for the night (D6).
    for name in ("东来", "小狸", "沙陀", "张环"):
        _send(game, name, [{"for": "东来"}], 2)
    _send(game, "小狸", [{"use": "诅咒", "card": "诅咒/庇佑", "target": "东来"}], 3)
    _close(game)
    # Night 3: nobody pardons 东来 — he dies at dawn, a day death (V5); 沙陀 takes 张环's two cards and 小狸's last.
    manifesto = MANIFESTO * 3
    attacks = [
        {"use": "一击必杀", "card": "狼人", "target": "张环", "manifesto": manifesto},
        {"use": "普通攻击", "card": "狼人", "target": "张环"},
        {"use": "普通攻击", "card": "狼人", "target": "小狸"},
    ]
    _send(game, "沙陀", attacks, 2)
    _close(game)
    game.refresh_from_db()
    return game
