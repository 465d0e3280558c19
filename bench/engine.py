"""Benchmark of the rules engine alone (no Django, no database): `python -m bench.engine`.

A standard 7-player night, and synthetic 50- and 200-player nights with 10 actions per player. Prints the median
time per night for the close alone (resolution) and for submitting every action plus the close, and the growth ratio
per player from 50 to 200 (1.0 = linear).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from cards.catalogue import DEFAULT_CAMPS, standard_deck
from cards.dealing import deal
from moderator.game.orders import random_order
from moderator.rules import Action, SeatSpec, end_phase, start_game, submit
from moderator.rules.scenario import DEFAULT_MANIFESTO

PLAYERS_7 = ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]
STANDARD_NIGHT = [
    ("狄仁杰", "杀手", "普通攻击", "李元芳"),
    ("狄仁杰", "杀手", "普通攻击", "曾泰"),
    ("李元芳", "束魂", "束魂", "李元芳"),
    ("曾泰", "巫医", "治疗", "张环"),
    ("狄如燕", "狙击手", "普通狙击", "李朗"),
    ("张环", "禁锢/反狙击", "禁锢", "狄如燕"),
    ("李朗", "诅咒/庇佑", "诅咒", "虎敬晖"),
    ("虎敬晖", "防弹衣/狼毒", "防弹衣", None),
]
TARGETED = {
    "杀手": "普通攻击",
    "狼人": "普通攻击",
    "狙击手": "普通狙击",
    "束魂": "束魂",
    "巫医": "治疗",
    "禁锢/反狙击": "禁锢",
    "诅咒/庇佑": "诅咒",
}


def standard() -> tuple[list[SeatSpec], list[Action]]:
    hands = {
        "狄仁杰": ("庶民", "杀手", "保镖", "阿米巴", "纵火/圣人"),
        "李元芳": ("庶民", "保镖", "束魂", "诅咒/庇佑", "狙击手"),
        "曾泰": ("庶民", "庶民", "巫医", "绝杀/特赦", "阿米巴"),
        "狄如燕": ("庶民", "狙击手", "防弹衣/狼毒", "巫医", "狼人"),
        "张环": ("庶民", "庶民", "禁锢/反狙击", "束魂", "保镖"),
        "李朗": ("庶民", "诅咒/庇佑", "绝杀/特赦", "阿米巴", "禁锢/反狙击"),
        "虎敬晖": ("庶民", "庶民", "防弹衣/狼毒", "纵火/圣人", "杀手"),
    }
    camps = ["杀手", "平民", "平民", "狼人", "平民", "平民", "自选"]
    seats = [SeatSpec(n, c, hands[n]) for n, c in zip(PLAYERS_7, camps, strict=True)]
    acts = [Action(by=b, card=c, use=u, target=t, manifesto=DEFAULT_MANIFESTO) for b, c, u, t in STANDARD_NIGHT]
    return seats, acts


def synthetic(players: int, per_player: int = 10, seed: int = 1) -> tuple[list[SeatSpec], list[Action]]:
    """`players` seats dealt from enough standard decks; every player sends `per_player` targeted privileges."""
    rng = random.Random(seed)
    names = [f"玩家{i:03d}" for i in range(players)]
    seats = []
    for start in range(0, players, 7):
        block = names[start : start + 7]
        camps = list(DEFAULT_CAMPS[: len(block)]) if len(block) >= 3 else ["平民"] * len(block)
        dealt = deal(camps, standard_deck(), 5, seed + start) if len(block) >= 3 else None
        for i, name in enumerate(block):
            hand = dealt.hands[i] if dealt else ("庶民", "保镖", "束魂", "巫医", "狙击手")
            seats.append(SeatSpec(name, camps[i], random_order(hand, seed + start + i)))
    acts = []
    for spec in seats:
        usable = [(c, TARGETED[c]) for c in spec.hand if c in TARGETED]
        for _ in range(per_player if usable else 0):
            card, use = rng.choice(usable)
            acts.append(Action(by=spec.name, card=card, use=use, target=rng.choice(names), manifesto=DEFAULT_MANIFESTO))
    return seats, acts


def run(seats, acts, repeat: int) -> tuple[float, float, int]:
    """Median seconds: (close alone, submit all + close), and how many actions were accepted."""
    close_times, whole_times, accepted = [], [], 0
    for _ in range(repeat):
        state = start_game(seats, ap={s.name: 60 for s in seats})
        t0 = time.perf_counter()
        for act in acts:
            state, verdict = submit(state, act)
            accepted += verdict.accepted
        t1 = time.perf_counter()
        end_phase(state)
        t2 = time.perf_counter()
        close_times.append(t2 - t1)
        whole_times.append(t2 - t0)
    return statistics.median(close_times), statistics.median(whole_times), accepted // repeat


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.splitlines()[0])
    parser.add_argument("repeat", nargs="?", type=int, default=21, help="runs per night (the median is printed)")
    repeat = parser.parse_args(argv[1:]).repeat
    rows = [("standard 7", *standard())] + [(f"synthetic {n}", *synthetic(n)) for n in (50, 200)]
    results = {}
    print(f"{'night':<14}{'players':>8}{'actions':>9}{'accepted':>10}{'close ms':>11}{'submit+close ms':>17}")
    for label, seats, acts in rows:
        close, whole, accepted = run(seats, acts, repeat)
        results[len(seats)] = (close, whole)
        print(f"{label:<14}{len(seats):>8}{len(acts):>9}{accepted:>10}{close * 1000:>11.3f}{whole * 1000:>17.3f}")
    for i, name in ((0, "close"), (1, "submit+close")):
        ratio = (results[200][i] / results[50][i]) / 4
        print(
            f"growth 50→200 players ({name}): ×{results[200][i] / results[50][i]:.2f} for ×4 players (per-player ratio {ratio:.2f}; 1.00 = linear)"
        )


if __name__ == "__main__":
    main(sys.argv)
