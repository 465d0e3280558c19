"""Load the demo game: 7 players, dealt (recorded seed), night 1 open, a GM account. Safe to run again."""

import os
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from moderator.management.migrated import ensure_migrated
from moderator.models import Game
from moderator.services import setup

DEMO_NAME = "演示局 · 神探狄仁杰"
DEMO_PLAYERS = ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]
GM_USERNAME = "tianshen"
GM_PASSWORD = "direnjie-demo"


class Command(BaseCommand):
    help = "载入演示局(7 人,已发牌,第1夜进行中)和一个天神账号"

    def add_arguments(self, parser):
        parser.add_argument("--phase-minutes", type=float, default=float(os.environ.get("DEMO_PHASE_MINUTES", 0)))

    def handle(self, *args, phase_minutes: float = 0, **options):
        if not settings.DEMO_ACCOUNT:  # the password below is published: never on a production site
            raise CommandError(
                "演示局和演示天神账号(密码公开)只用于 `make run` 或 `DEBUG=true .venv/bin/python manage.py demo`;"
                "生产环境不创建它们"
            )
        ensure_migrated(self)
        user_model = get_user_model()
        gm, created = user_model.objects.get_or_create(username=GM_USERNAME, defaults={"is_staff": True})
        if created:
            gm.is_superuser = True
            gm.set_password(GM_PASSWORD)
            gm.save()
        game = Game.objects.filter(name=DEMO_NAME).first()
        if game is None:
            seconds = int(phase_minutes * 60) or None
            game = setup.game_create(
                name=DEMO_NAME,
                player_names=DEMO_PLAYERS,
                camp_seed=2014,
                deal_seed=2014,
                order_seed=2014,
                phase_seconds=seconds,
                gm=gm,
            )
            setup.game_start(game=game, at=timezone.now() - timedelta(minutes=1))
        base = f"http://127.0.0.1:{os.environ.get('PORT') or 8000}"
        self.stdout.write(f"天神账号:{GM_USERNAME} / 密码:{GM_PASSWORD}")
        self.stdout.write(f"  首页:      {base}/")
        self.stdout.write(f"  公开页:    {base}/games/{game.pk}/")
        self.stdout.write(f"  天神开局页:{base}/games/{game.pk}/setup/")
        self.stdout.write(f"  管理后台:  {base}/admin/")
