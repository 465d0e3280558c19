"""Bulk intake benchmark: `python -m bench.intake`.

Builds a seven-seat game with day 1 open in a fresh SQLite database under /tmp (or BENCH_DATABASE_URL), then takes
the 30-post vote thread of the test corpus (tests/intake/corpus/discuz_day1_30.txt, a Discuz! page copied with its
page break) through the console as the 天神's browser does: one POST of the paste that splits it and renders the
preview of every post (the request htmx sends while pasting), then the one confirm. Prints the median and the worst
seconds over `--rounds` of paste → preview, and the seconds of the confirm (each round on a new game).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bench import local_settings
from bench.forms import form_data, swap

THREAD = Path(__file__).resolve().parents[1] / "tests" / "intake" / "corpus" / "discuz_day1_30.txt"
TABLE = {
    "狄仁杰": ("平民", ["庶民", "束魂", "巫医", "诅咒/庇佑", "保镖"]),
    "李元芳": ("平民", ["庶民", "束魂", "防弹衣/狼毒", "禁锢/反狙击", "狙击手"]),
    "曾泰": ("平民", ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]),
    "狄如燕": ("杀手", ["庶民", "狙击手", "保镖", "阿米巴", "杀手"]),
    "张环": ("狼人", ["庶民", "庶民", "保镖", "防弹衣/狼毒", "狼人"]),
    "李朗": ("平民", ["庶民", "诅咒/庇佑", "禁锢/反狙击", "绝杀/特赦", "阿米巴"]),
    "虎敬晖": ("自选", ["庶民", "庶民", "纵火/圣人", "诅咒/庇佑", "禁锢/反狙击"]),
}


def setup_django(db_url: str) -> None:
    os.environ["DATABASE_URL"] = db_url
    local_settings()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def day_one_game(n: int, gm):
    from django.utils import timezone

    from moderator.models import Phase
    from moderator.services import play, setup

    players = [{"name": name, "camp": camp, "hand": hand} for name, (camp, hand) in TABLE.items()]
    game = setup.table_create(name=f"bench-{n}", players=players)
    game.gms.add(gm)
    setup.game_start(game=game, at=timezone.make_aware(datetime(2024, 3, 4, 9, 0)))
    night = game.phases.get(status=Phase.Status.OPEN)
    play.phase_close(phase=night, now=night.ends_at)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    db = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp(prefix='bench-intake-')}/db.sqlite3"
    setup_django(db)
    from django.contrib.auth import get_user_model
    from django.test import Client

    from moderator.models import Message

    gm = get_user_model().objects.create_user("bench-gm", password="x")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(gm)
    paste = THREAD.read_text(encoding="utf-8")
    previews, confirms = [], []
    for n in range(args.rounds):
        game = day_one_game(n, gm)
        url = f"/gm/{game.pk}/bulk/"
        page = client.get(url).content.decode()
        data = form_data(page, "bulk")  # the form as the browser has it, then the paste htmx sends while typing
        data.update(paste=[paste], split=["1"])
        start = time.perf_counter()
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        previews.append(time.perf_counter() - start)
        text = response.content.decode()
        assert "将保存 25 条" in text, text[:2000]
        page = swap(page, "bulk-preview", text)
        data = form_data(page, "bulk", submit=("confirm", "1"))  # the preview swapped in; the 天神 clicks 确认
        data["paste"] = [paste]
        start = time.perf_counter()
        client.post(url, data)
        confirms.append(time.perf_counter() - start)
        assert Message.objects.filter(game=game).count() == 25
    print(
        f"bulk intake, 30-post thread (31 pasted, 25 kept): paste→preview "
        f"median={statistics.median(previews):.3f}s max={max(previews):.3f}s; "
        f"confirm median={statistics.median(confirms):.3f}s max={max(confirms):.3f}s; rounds={args.rounds}"
    )


if __name__ == "__main__":
    main()
