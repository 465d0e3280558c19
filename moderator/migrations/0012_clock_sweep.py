from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('moderator', '0011_audit_actions'),
    ]

    operations = [
        migrations.CreateModel(
            name='ClockSweep',
            fields=[
                ('clock', models.CharField(max_length=16, primary_key=True, serialize=False, verbose_name='时钟')),
                ('at', models.DateTimeField(verbose_name='最近一次扫描')),
            ],
            options={
                'verbose_name': '阶段时钟扫描',
                'verbose_name_plural': '阶段时钟扫描',
            },
        ),
    ]
