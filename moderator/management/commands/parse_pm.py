"""python manage.py parse_pm — print what the parser understood of a player's message, as JSON (docs/parser.md).

parse_pm --game GAME --sender NAME "text"
parse_pm --players "张三,李四,王五" --sender 张三 --hand "庶民,杀手,狙击手,保镖,庶民" "text"
parse_pm … --spans "text"   # also each "span", and a refusal's "candidates" and "input"
"""

import json
import re

from django.core.management.base import BaseCommand, CommandError

from moderator.models import Game
from moderator.parser import parse_pm
from moderator.services.storage import game_replay


def _split(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[,,、]", text) if p.strip()]


class Command(BaseCommand):
    help = "解析玩家发给天神的短消息或投票帖,输出 JSON(inputs / refusals)"

    def add_arguments(self, parser):
        parser.add_argument("text")
        parser.add_argument("--sender", required=True)
        parser.add_argument("--game", help="游戏编号或名称(从数据库读取玩家和发送者当前的手牌)")
        parser.add_argument("--players", help="不用数据库时:按座位顺序的玩家名,逗号分隔")
        parser.add_argument("--hand", help="不用数据库时:发送者的手牌(丢牌顺序),逗号分隔")
        parser.add_argument("--phase", choices=["night", "day"], default="night")
        parser.add_argument(
            "--spans",
            action="store_true",
            help="同时输出每条输入/拒绝依据的原文位置 span([起, 止],按字符)和拒绝的候选玩家 candidates",
        )

    def handle(
        self,
        *args,
        text: str,
        sender: str,
        game: str | None,
        players: str | None,
        hand: str | None,
        phase: str,
        spans: bool = False,
        **options,
    ):
        if game:
            names, cards = self._from_game(game, sender)
        elif players is not None and hand is not None:
            names, cards = _split(players), _split(hand)
        else:
            raise CommandError("请给出 --game,或者同时给出 --players 和 --hand")
        if sender not in names:
            raise CommandError(f"发送者“{sender}”不在玩家名单里:{'、'.join(names)}")
        try:
            result = parse_pm(text, sender=sender, players=names, hand=cards, phase=phase)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        data = result.to_json()
        if not spans:  # exactly the docs/parser.md object
            data = {
                "inputs": [
                    {k: v for k, v in i.items() if k not in ("span", "manifesto_spans", "correction")}
                    for i in data["inputs"]
                ],
                "refusals": [{"text": r["text"], "reason": r["reason"]} for r in data["refusals"]],
            }
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))

    def _from_game(self, ref: str, sender: str) -> tuple[list[str], list[str]]:
        found = Game.objects.filter(pk=int(ref)) if ref.isdigit() else Game.objects.filter(name=ref)
        game = found.first()
        if game is None:
            raise CommandError(f"没有找到游戏“{ref}”")
        names = list(game.seats.order_by("number").values_list("player_name", flat=True))
        if sender not in names:
            raise CommandError(f"发送者“{sender}”不在这局游戏里:{'、'.join(names)}")
        state = game_replay(game).state
        return names, list(state.seat(sender).names)
