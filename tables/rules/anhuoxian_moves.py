"""暗火线 (electronic): the moves a seat may make now, each with its legal arguments — declared once.

The pages' forms are built from this list (``anhuoxian_view.forms``); each move checks its own legality when applied
(``anhuoxian.apply``) with the same checks this list asks (``anhuoxian_effects.check_*``, ``flash_landing``), so the
list and the rules cannot drift apart; the fuzz checks both ways that they agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from . import anhuoxian as core
from . import anhuoxian_effects as fx
from .anhuoxian import State
from .anhuoxian_cards import AID, BULLETS, DISARM, DOUBLE, EQUIPMENT, FLASH, GRENADE, SKILLS, SMOKE
from .moves import Arg, Move, choice_arg, passes, seat_arg

_Lister = Callable[[State, int], list[Move]]
WHATS = (("hand", "随机一张手牌"), ("vest", "防弹衣"), ("env", "环境牌"), ("smoke", "烟雾弹"))


def _held(s: State, seat: int, kinds: tuple[str, ...]) -> list[str]:
    return sorted({c for c in s.hands[seat] if c in kinds})


def _equip(s: State, seat: int) -> list[Move]:
    owned = [(c, c) for c in _held(s, seat, EQUIPMENT) if passes(fx.check_equip, s, seat, c)]
    return [Move("equip", "装备", (choice_arg("card", "牌", owned),))] if owned else []


def _shoot(s: State, seat: int) -> list[Move]:
    out = []
    for card in _held(s, seat, BULLETS):
        reach = [p for p in core.living(s) if passes(fx.check_shot_target, s, seat, p)]
        if not reach or not passes(fx.check_bullet, s, seat, card):
            continue
        targets = Arg("targets", "目标", "seats", tuple((p, s.players[p]) for p in reach), sizes=fx.shot_sizes(card))
        help = "双发子弹:选 1 人造成 2 点,或选 2 人各 1 点。" if card == DOUBLE else ""
        out.append(Move("shoot", f"开枪:{card}", (_card(card), targets), help=help))
    return out


def _card(card: str) -> Arg:
    return Arg("card", "牌", "hidden", ((card, card),))


def _skill(s: State, seat: int, card: str) -> Move | None:
    if card == FLASH:
        return _flash(s, seat)
    if card == DISARM:
        return _disarm(s, seat)
    check = fx.check_smoke if card == SMOKE else fx.check_grenade if card == GRENADE else fx.check_warrant
    reach = [p for p in core.living(s) if passes(check, s, seat, p)]
    target = seat_arg("target", "目标", s.players, reach)
    return Move("skill", f"技能:{card}", (_card(card), target)) if reach else None


def _flash(s: State, seat: int) -> Move | None:
    """闪光弹: two adjacent players, as ``flash_landing`` lands them (储藏室 passed over)."""
    living = core.living(s)
    pairs = [[a, b] for a, b in itertools.combinations(living, 2) if passes(fx.flash_landing, s, seat, [a, b])]
    if not pairs:
        return None
    targets = Arg("targets", "两名相邻玩家", "seats", tuple((p, s.players[p]) for p in living), sizes=(2,))
    combos: tuple[tuple[object, ...], ...] = tuple((FLASH, pair) for pair in pairs)
    return Move("skill", f"技能:{FLASH}", (_card(FLASH), targets), combos=combos)


def _disarm(s: State, seat: int) -> Move | None:
    """武装解除: a target and what to remove from them (a smoked player: only the smoke)."""
    target = seat_arg("target", "目标", s.players, [p for p in core.living(s) if p != seat])
    what = choice_arg("what", "拆除", list(WHATS))
    combos = tuple((DISARM, t, w) for t in target.values() for w, _ in WHATS if passes(fx.check_disarm, s, seat, t, w))
    return Move("skill", f"技能:{DISARM}", (_card(DISARM), target, what), combos=combos) if combos else None


def _skills(s: State, seat: int) -> list[Move]:
    cards = [c for c in _held(s, seat, SKILLS) if passes(fx.check_skill, s, seat, c)]
    return [m for m in (_skill(s, seat, c) for c in cards) if m is not None]


def _serum(s: State, seat: int) -> list[Move]:
    return [Move("serum", "使用血清(+1 血)")] if passes(fx.check_serum, s, seat) else []


def _unequip(s: State, seat: int) -> list[Move]:
    return [Move("unequip", "解除餐厅")] if passes(fx.check_unequip, s, seat) else []


def _aid(s: State, seat: int) -> list[Move]:
    assert s.dying is not None
    victim = s.dying["queue"][0]
    return [Move("aid", f"对 {s.players[victim]} 使用急救包")] if AID in s.hands[seat] else []


def _discard(s: State, seat: int) -> list[Move]:
    excess = len(s.hands[seat]) - core.hand_limit(s, seat)
    hand = tuple((c, c) for c in s.hands[seat])
    return [Move("discard", f"弃置 {excess} 张牌", (Arg("cards", "弃哪些", "multi", hand, excess),))]


# In the order the page shows them; a type is listed only when the phase opens it to the seat (``anhuoxian.anhuoxian_expected``).
_LISTERS: dict[str, _Lister] = {
    "equip": _equip,
    "shoot": _shoot,
    "skill": _skills,
    "serum": _serum,
    "unequip": _unequip,
    "end_play": lambda s, seat: [Move("end_play", "结束出牌阶段")],
    "aid": _aid,
    "pass": lambda s, seat: [Move("pass", "不救")],
    "discard": _discard,
}


def moves(s: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now."""
    if s.phase == "over":
        return []
    who, allowed = core.anhuoxian_expected(s)
    return [m for kind in _LISTERS if seat == who and kind in allowed for m in _LISTERS[kind](s, seat)]
