"""The card catalogue of 神探狄仁杰 as plain data (docs/rules.md S1, S2, N-table).

Pure module: no Django. Card and privilege names are the canonical Chinese names used everywhere (scenarios, parser
output, database rows, announcements).
"""

from __future__ import annotations

from dataclasses import dataclass

COMMONER = "庶民"

# S2: privilege card types and how many of each the standard deck holds (24 privilege cards).
PRIVILEGE_COUNTS: dict[str, int] = {
    "杀手": 1,
    "狼人": 1,
    "狙击手": 2,
    "束魂": 2,
    "巫医": 2,
    "防弹衣/狼毒": 2,
    "禁锢/反狙击": 2,
    "绝杀/特赦": 2,
    "诅咒/庇佑": 2,
    "纵火/圣人": 2,
    "保镖": 3,
    "阿米巴": 3,
}
COMMONER_COUNT = 12  # S2: 12 庶民

PRIVILEGE_TYPES: tuple[str, ...] = tuple(PRIVILEGE_COUNTS)
CARD_NAMES: tuple[str, ...] = (*PRIVILEGE_TYPES, COMMONER)
# S2 / M1: the 11 types an 阿米巴 can become (every type but 阿米巴 itself).
AMOEBA_FORMS: tuple[str, ...] = tuple(t for t in PRIVILEGE_TYPES if t != "阿米巴")

KILLER, WEREWOLF, SNIPER, BINDER, HEALER = "杀手", "狼人", "狙击手", "束魂", "巫医"
VEST_VENOM, PRISON, DOOM_PARDON, CURSE, ARSON_SAINT = (
    "防弹衣/狼毒",
    "禁锢/反狙击",
    "绝杀/特赦",
    "诅咒/庇佑",
    "纵火/圣人",
)
BODYGUARD, AMOEBA = "保镖", "阿米巴"

# Camps (S1). 自选 is the self-chosen player before (or without) a choice.
CAMP_KILLER, CAMP_WEREWOLF, CAMP_CIVILIAN, CAMP_SELF = "杀手", "狼人", "平民", "自选"
CAMPS: tuple[str, ...] = (CAMP_KILLER, CAMP_WEREWOLF, CAMP_CIVILIAN, CAMP_SELF)
DEFAULT_CAMPS: tuple[str, ...] = (CAMP_KILLER, CAMP_WEREWOLF, *([CAMP_CIVILIAN] * 4), CAMP_SELF)  # S1: the 7 seats

# A limit no real game reaches: S1's table seats 7 and the standard deck deals at most 7 hands of 5; a forum game of
# 30 would already be unplayable. Beyond it a table is refused in a sentence before any work.
SEATS_MAX = 30
DEFAULT_HAND_SIZE = 5  # S1


@dataclass(frozen=True)
class Privilege:
    """One row of the N table: a use of a card."""

    use: str  # the privilege's name as written in scenarios (普通攻击, 瞄准狙击 …)
    card: str  # the card type it belongs to
    cost: int | None  # AP; None for 纵火 (half of next phase's AP, at least 2: N14)
    night: bool  # may be used at night
    day: bool  # may be used by day
    target: bool  # names a target player
    attack: bool = False  # carries a 杀人宣言 (N-kill)


PRIVILEGES: tuple[Privilege, ...] = (
    Privilege("普通攻击", KILLER, 1, True, False, True, attack=True),  # N1
    Privilege("一击必杀", KILLER, 3, True, False, True, attack=True),  # N2
    Privilege("普通攻击", WEREWOLF, 1, True, False, True, attack=True),  # N3
    Privilege("一击必杀", WEREWOLF, 3, True, False, True, attack=True),  # N4
    Privilege("普通狙击", SNIPER, 1, True, False, True, attack=True),  # N5
    Privilege("瞄准狙击", SNIPER, 4, True, False, True, attack=True),  # N6
    Privilege("束魂", BINDER, 2, True, False, True),  # N7
    Privilege("治疗", HEALER, 2, True, False, True),  # N8
    Privilege("防弹衣", VEST_VENOM, 1, True, False, False),  # N9
    Privilege("狼毒", VEST_VENOM, 1, True, False, False),  # N9
    Privilege("禁锢", PRISON, 2, True, False, True),  # N10
    Privilege("反狙击", PRISON, 2, True, False, False),  # N10
    Privilege("绝杀", DOOM_PARDON, 2, True, True, True),  # N11
    Privilege("特赦", DOOM_PARDON, 2, True, False, True),  # N12
    Privilege("诅咒", CURSE, 1, True, True, True),  # N13
    Privilege("恶毒诅咒", CURSE, 2, True, True, True),  # N13
    Privilege("庇佑", CURSE, 1, True, True, True),  # N13
    Privilege("虔诚庇佑", CURSE, 2, True, True, True),  # N13
    Privilege("圣人", ARSON_SAINT, 3, True, False, False),  # N14
    Privilege("纵火", ARSON_SAINT, None, True, True, True),  # N14
    Privilege("变形", AMOEBA, 2, True, True, False),  # M1 (names a form, not a player)
)

USES: tuple[str, ...] = (*dict.fromkeys(p.use for p in PRIVILEGES), "立场")  # 立场: S4 choice, no card


def privileges_of(card_type: str) -> tuple[Privilege, ...]:
    """The privileges a card of this type grants (阿米巴: only 变形; its form's privileges come from the form)."""
    return tuple(p for p in PRIVILEGES if p.card == card_type)


def privilege(card_type: str, use: str) -> Privilege | None:
    for p in PRIVILEGES:
        if p.card == card_type and p.use == use:
            return p
    return None


def is_privilege(card: str) -> bool:
    return card in PRIVILEGE_COUNTS


def standard_deck() -> list[str]:
    """S2: the 36-card deck, privilege cards first then commoners, in catalogue order."""
    deck = [name for name, n in PRIVILEGE_COUNTS.items() for _ in range(n)]
    return deck + [COMMONER] * COMMONER_COUNT
