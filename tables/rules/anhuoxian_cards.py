"""暗火线's cards: their names and the deck (``anhuoxian_effects.py`` plays them; ``anhuoxian.py`` has the rulings)."""

from __future__ import annotations

from typing import Any

from .base import require

SINGLE, DOUBLE, SERUM = "单发子弹", "双发子弹", "血清"
SMOKE, FLASH, DISARM, AID, GRENADE, WARRANT = "烟雾弹", "闪光弹", "武装解除", "急救包", "手雷", "搜查令"
SUPERMARKET, RESTAURANT, CONTROL, STORAGE, VEST = "超市", "餐厅", "主控室", "储藏室", "防弹衣"
ENVIRONMENTS = (SUPERMARKET, RESTAURANT, CONTROL, STORAGE)
EQUIPMENT = (*ENVIRONMENTS, VEST)
BULLETS = (SINGLE, DOUBLE)
SKILLS = (SMOKE, FLASH, DISARM, GRENADE, WARRANT)
DECK = {
    SINGLE: 24,
    DOUBLE: 8,
    SMOKE: 4,
    FLASH: 4,
    DISARM: 6,
    AID: 6,
    GRENADE: 3,
    SUPERMARKET: 2,
    RESTAURANT: 2,
    CONTROL: 2,
    STORAGE: 2,
    VEST: 3,
}


WARRANTS = 3
MAX_COPIES = 60


def deck_counts(options: dict[str, Any]) -> dict[str, int]:
    """The table's deck: the seed's assumed counts, each overridable by option ``deck`` {card: count}, 0–60."""
    chosen = options.get("deck") or {}
    require(isinstance(chosen, dict), "deck 选项必须是「牌名: 张数」。")
    unknown = sorted(set(chosen) - set(DECK) - {WARRANT})
    require(not unknown, f"没有这种牌:{'、'.join(map(str, unknown))}。可以设定:{'、'.join([*DECK, WARRANT])}。")
    counts = {**DECK, WARRANT: WARRANTS if options.get("warrant") else 0, **chosen}
    for card, count in counts.items():
        ok = isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_COPIES
        require(ok, f"「{card}」的张数必须是 0 到 {MAX_COPIES} 之间的整数,收到 {count!r}。")
    return counts


def build_deck(serums: int, options: dict[str, Any]) -> list[str]:
    counts = deck_counts(options)
    return [card for card, count in counts.items() for _ in range(count)] + [SERUM] * serums
