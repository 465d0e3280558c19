"""Every game gets its own identity (a UUID): added empty, filled game by game, then made unique and required."""

import uuid

from django.db import migrations, models


def fill(apps, schema_editor):
    Game = apps.get_model("moderator", "Game")
    for pk in Game.objects.filter(uid__isnull=True).values_list("pk", flat=True).iterator():
        Game.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):

    dependencies = [
        ("moderator", "0009_self_entry"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="uid",
            field=models.UUIDField(editable=False, null=True, verbose_name="编号"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True, verbose_name="编号"),
        ),
    ]
