"""Whole generated games as scenario files, to time `manage.py scenario` on many long games:
`python -m bench.scenarios --games 200 --seed 1 --out var/generated/`, then
`time python manage.py scenario var/generated/`.

Each game is one of `bench.simulate`'s random games, written with the verdicts and results the pure engine gives
(so every file passes on a correct engine; a game the format cannot state exactly is skipped). They use what the
format can say: 杀人宣言 of every length (none, under 100, exactly 100, more; several attacks in one message, N-kill),
target changes with and without a 宣言 of their own (T3), phases ended early (T5, `ended_early_at`), games that `start`
later than night 1 with two to four players (T7), and privileges, votes and messages naming or sent by the dead (D4).
Games with a substitution's 12-hour extension (T4) are skipped: the scenario format cannot state it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from bench.simulate import Violation, play_game, scenario
from moderator.rules import scenario as rules_scenario


def generate(games: int, seed: int, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    written, n = 0, seed
    while written < games:
        game = play_game(n)
        n += 1
        if any(log.extended for log in game.logs):
            continue
        whole = Violation(kind="none", phase=-1, detail="整局")
        data = scenario(game, game.logs, whole)
        data["name"] = f"模拟整局(种子 {game.seed},{len(game.logs)} 个时段,{game.inputs} 条输入)"
        if rules_scenario.play(rules_scenario.load(data)):
            continue  # two messages of one sender in one minute read as one PM in the format (N-kill): skip it
        path = out / f"game_{game.seed:06d}.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("var/generated"))
    args = parser.parse_args(argv)
    print(f"wrote {generate(args.games, args.seed, args.out)} games to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
