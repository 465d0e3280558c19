"""A played sample game for the pages' tests and benchmark (a fixture, not a page: it marks drafts posted as a 天神
would): seven seats, two of them with hostile names, three closed phases and day 2 open, played through the same
services as a real game.

What happened (so tests can say what each page must and must not show):
- night 1: 甲 (杀手) and 戊 (狙击手) shoot 乙, who loses both cards and dies at night (camp 狼人 hidden, V5); 甲's
  aimed shot is refused (AP4); 乙's attack on 戊 is voided by the GM; SCRIPT's night 绝杀 costs IMG a card (N11);
  IMG imprisons 庚; 庚 chooses 杀手 共赢 (S4) and wears the vest; 戊 orders its 阿米巴 into 巫医 (M1);
  SCRIPT's new order is accepted and IMG's (a commoner 底牌) refused (O1, O2).
- day 1: 丁 (one card) and IMG are executed (D5); SCRIPT curses 丁 (N13: secret until dusk); 庚 changes vote (D3)
  and sets 甲 on fire (N14: both pay at the start of day 2, AP3 b, c).
- night 2: SCRIPT pardons IMG (N12); 丁 is not pardoned and dies at dawn with the camp shown (V5 ruling);
  甲 shoots 戊; 庚's 圣人 is refused (S4: a co-winner may not); 戊's 阿米巴 becomes 巫医 at the close (M1).
- day 2 (open): 甲 and 戊 have voted for 庚.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from moderator.models import Game, Input, Phase, Seat
from moderator.rules.scenario import DEFAULT_MANIFESTO
from moderator.services import inputs, intake, play, setup

SCRIPT = '<script>alert("x")</script>'
IMG = '"><img src=x onerror=alert(1)>'
HANDS = {
    "甲": ("杀手", ["庶民", "保镖", "狙击手", "阿米巴", "杀手"]),
    "乙": ("狼人", ["庶民", "狼人"]),
    SCRIPT: ("平民", ["庶民", "巫医", "诅咒/庇佑", "绝杀/特赦", "禁锢/反狙击"]),
    "丁": ("平民", ["巫医"]),
    "戊": ("平民", ["庶民", "绝杀/特赦", "狙击手", "束魂", "阿米巴"]),
    IMG: ("平民", ["庶民", "庶民", "诅咒/庇佑", "禁锢/反狙击", "保镖"]),
    "庚": ("自选", ["庶民", "防弹衣/狼毒", "纵火/圣人", "阿米巴", "保镖"]),
}
NIGHT_DEATH, DAY_DEATH = "乙", "丁"


@dataclass
class Sample:
    game: Game
    seats: dict[str, Seat]

    def phase(self, kind: str, number: int) -> Phase:
        return self.game.phases.get(kind=kind, number=number)


def _act(s: Sample, by: str, at: datetime, **payload):
    return inputs.write(s.game, inputs.Entry(s.seats[by], [payload], at)).first


def _vote(s: Sample, by: str, target: str, at: datetime, change: bool = False):
    item = inputs.vote_item(s.seats[target], change=change)
    return inputs.write(s.game, inputs.Entry(s.seats[by], [item], at)).first


def _close(s: Sample, phase: Phase) -> Phase:
    assert play.phase_close(phase=phase), f"{phase.label} did not close"
    # A played game: its 天神 posted every draft on the forum (only posted drafts are public).
    s.game.announcements.filter(posted_at__isnull=True).update(posted_at=phase.ends_at)
    return s.game.phases.get(status=Phase.Status.OPEN)


def _void(s: Sample, rec: Input, reason: str) -> None:
    """The GM's void (the intake service): a void row, the act audited, the phase replayed."""
    intake.input_void(game=s.game, pk=rec.pk, reason=reason)


def night_1(s: Sample, phase: Phase) -> None:
    t = phase.starts_at
    _act(s, "甲", t + timedelta(hours=1), card="杀手", use="普通攻击", target=NIGHT_DEATH, manifesto=DEFAULT_MANIFESTO)
    aimed = {"card": "狙击手", "use": "瞄准狙击", "target": "戊", "position": 2, "manifesto": DEFAULT_MANIFESTO}
    _act(s, "甲", t + timedelta(hours=2), **aimed)  # refused: 4 AP needed, 1 left (AP4)
    _act(
        s, "戊", t + timedelta(hours=1), card="狙击手", use="普通狙击", target=NIGHT_DEATH, manifesto=DEFAULT_MANIFESTO
    )
    _act(s, "戊", t + timedelta(hours=3), card="阿米巴", use="变形", into="巫医")
    rec, _ = _act(
        s, "乙", t + timedelta(hours=1), card="狼人", use="普通攻击", target="戊", manifesto=DEFAULT_MANIFESTO
    )
    _void(s, rec, "玩家撤回")
    _act(s, SCRIPT, t + timedelta(hours=4), card="绝杀/特赦", use="绝杀", target=IMG)
    _act(s, IMG, t + timedelta(hours=4), card="禁锢/反狙击", use="禁锢", target="庚")
    _act(s, "庚", t + timedelta(hours=2), use="立场", side="杀手", mode="共赢")
    _act(s, "庚", t + timedelta(hours=5), card="防弹衣/狼毒", use="防弹衣")
    new_order = ["巫医", "庶民", "诅咒/庇佑", "绝杀/特赦", "禁锢/反狙击"]
    inputs.write(s.game, inputs.Entry(s.seats[SCRIPT], [{"order": new_order}], t + timedelta(hours=6)))
    bad_order = ["庶民", "诅咒/庇佑", "禁锢/反狙击", "保镖", "庶民"]  # refused: a commoner 底牌 (O2)
    inputs.write(s.game, inputs.Entry(s.seats[IMG], [{"order": bad_order}], t + timedelta(hours=6)))


def day_1(s: Sample, phase: Phase) -> None:
    t = phase.starts_at + timedelta(hours=1)
    for voter, target in (
        ("甲", DAY_DEATH),
        (SCRIPT, IMG),
        (DAY_DEATH, DAY_DEATH),
        ("戊", DAY_DEATH),
        (IMG, IMG),
        ("庚", "甲"),
    ):
        _vote(s, voter, target, t)
    _vote(s, "庚", IMG, t + timedelta(hours=1), change=True)
    _act(s, SCRIPT, t + timedelta(hours=2), card="诅咒/庇佑", use="诅咒", target="丁")
    _act(s, "庚", t + timedelta(hours=3), card="纵火/圣人", use="纵火", target="甲")  # burns at the start of day 2


def night_2(s: Sample, phase: Phase) -> None:
    t = phase.starts_at + timedelta(hours=1)
    _act(s, SCRIPT, t, card="绝杀/特赦", use="特赦", target=IMG)
    _act(s, "甲", t, card="杀手", use="普通攻击", target="戊", manifesto=DEFAULT_MANIFESTO)
    _act(s, "庚", t, card="纵火/圣人", use="圣人")


def day_2(s: Sample, phase: Phase) -> None:
    t = phase.starts_at + timedelta(hours=1)
    _vote(s, "甲", "庚", t)
    _vote(s, "戊", "庚", t)


def sample_game(*, name: str = "样例局", now: datetime | None = None, upto: int = 4) -> Sample:
    """Play the sample up to its `upto`-th phase (1: night 1 open … 4: day 2 open, the default). The game starts so
    that the phase left open ends about 23 hours from `now`."""
    players = [{"name": n, "camp": camp, "hand": hand} for n, (camp, hand) in HANDS.items()]
    game = setup.table_create(name=name, players=players)
    now = now or timezone.now()
    start = now - timedelta(days=upto - 1, hours=1)
    setup.game_start(game=game, at=start)
    s = Sample(game, {seat.player_name: seat for seat in game.seats.all()})
    phase = game.phases.get()
    for i, step in enumerate((night_1, day_1, night_2, day_2)[:upto], start=1):
        step(s, phase)
        if i < upto:
            phase = _close(s, phase)
    s.game.refresh_from_db()
    return s
