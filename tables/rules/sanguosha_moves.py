"""三国杀 (electronic): the moves a seat may make now, each with its legal arguments — declared once.

The pages' forms are built from this list (``sanguosha_view.forms``); each move checks its own legality when applied
(``sanguosha.apply``), with the same functions (``sha_targets``, ``rescue_cards``…), so the list and the rules cannot
drift apart; the fuzz checks both ways that they agree.
"""

from __future__ import annotations

from collections.abc import Callable

from . import sanguosha as sgs
from . import sanguosha_generals as generals
from . import sanguosha_house as house
from .moves import Arg, Move, choice_arg, seat_arg
from .sanguosha import SHAN, State

_Lister = Callable[[State, int], Move | None]


def _choose_general(s: State, seat: int) -> Move | None:
    choices = [(g, generals.label(g)) for g in s.candidates[seat]]
    return Move("choose_general", "选择武将", (choice_arg("general", "武将", choices),))


def _sha(s: State, seat: int) -> Move | None:
    reach = sgs.sha_targets(s, seat)
    return Move("sha", "使用[杀]", (seat_arg("target", "目标", s.players, reach),)) if reach else None


def _tao(s: State, seat: int) -> Move | None:
    return Move("tao", "使用[桃]回复 1 点体力") if sgs.can_tao(s, seat) else None


def _jiu(s: State, seat: int) -> Move | None:
    return Move("jiu", "使用[酒](下一张[杀]伤害+1)") if sgs.can_jiu(s, seat) else None


def _sacrifice(s: State, seat: int) -> Move | None:
    dead = sgs.sacrifice_targets(s, seat)
    if not dead:
        return None
    cards = [(c, f"[{c}]") for c in dict.fromkeys(s.hands[seat])]
    need = house.rebirth_threshold(len(s.players))
    args = (seat_arg("target", "献给谁", s.players, dead), choice_arg("card", "哪张牌", cards))
    return Move("sacrifice", "献祭一张手牌(转世)", args, help=f"已出局的玩家收到 {need} 张即转世;每回合只能献祭一次")


def _end_play(s: State, seat: int) -> Move | None:
    return Move("end_play", "结束出牌阶段")


def _shan(s: State, seat: int) -> Move | None:
    return Move("shan", "打出[闪]") if SHAN in s.hands[seat] else None


def _take(s: State, seat: int) -> Move | None:
    return Move("take", "不出[闪],受到伤害" if SHAN in s.hands[seat] else "没有[闪]:受到伤害")


def _rescue(s: State, seat: int) -> Move | None:
    cards = [(c, f"[{c}]") for c in sgs.rescue_cards(s, seat)]
    return Move("rescue", "救援", (choice_arg("card", "用牌", cards),)) if cards else None


def _pass(s: State, seat: int) -> Move | None:
    return Move("pass", "不救" if sgs.rescue_cards(s, seat) else "没有[桃]:不救")


def _discard(s: State, seat: int) -> Move | None:
    excess = sgs.discard_count(s, seat)
    hand = tuple((c, c) for c in s.hands[seat])
    return Move("discard", f"弃置 {excess} 张牌", (Arg("cards", "弃哪些", "multi", hand, excess),))


def _ghost(s: State, seat: int) -> Move | None:
    targets = sgs.ghost_moves(s, seat)
    if not targets:
        return None
    ghost = str(s.ghosts[seat])
    target = seat_arg("target", "附体谁", s.players, targets)
    return Move("ghost", f"{ghost}暗魂附体(只能用一次)", (target,), help=house.GHOST_TEXT[ghost])


# In the order the page shows them; a type is listed only when the phase opens it to the seat (``sanguosha.sanguosha_expected``).
_LISTERS: dict[str, _Lister] = {
    "choose_general": _choose_general,
    "sha": _sha,
    "tao": _tao,
    "jiu": _jiu,
    "sacrifice": _sacrifice,
    "end_play": _end_play,
    "shan": _shan,
    "take": _take,
    "rescue": _rescue,
    "pass": _pass,
    "discard": _discard,
}


def moves(s: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (a ghost acts outside the turn order)."""
    if s.phase == "over":
        return []
    who, allowed = sgs.sanguosha_expected(s)
    acting = seat in ([who] if isinstance(who, int) else who)
    listed = [_LISTERS[kind](s, seat) for kind in _LISTERS if acting and kind in allowed]
    return [m for m in [*listed, _ghost(s, seat)] if m is not None]
