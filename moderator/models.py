"""The table: games, seats (with their player history), phases and the raw messages the 天神 entered.

Inputs are one append-only log (`Input`); a game's state is the state stored after its last closed phase
(`Phase.snapshot`) with the open phase's inputs replayed through the pure rules (moderator.rules).
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models


def new_token() -> str:
    """A private seat link: 32 bytes from the OS's CSPRNG (256 bits, A: a player sees only their own hand)."""
    return secrets.token_urlsafe(32)


class Game(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "准备中"
        RUNNING = "running", "进行中"
        PAUSED = "paused", "已暂停"
        FINISHED = "finished", "已结束"

    name = models.CharField("名称", max_length=100)
    # Who the game is, wherever it goes: names repeat (the new-game form offers one default), so a backup and a
    # restore know a game by this, never by its name.
    uid = models.UUIDField("编号", default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField("创建时间", auto_now_add=True)
    gms = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="gm_games", verbose_name="天神", blank=True)
    seats_count = models.PositiveSmallIntegerField("人数", default=7)
    hand_size = models.PositiveSmallIntegerField("每人张数", default=5)
    deck = models.JSONField("牌堆", default=list)
    left_out = models.JSONField("未发出的牌", default=list, blank=True)
    # Seeds decide secrets: 128 bits (moderator.services.setup), stored as decimal digits (too big for a bigint).
    camp_seed = models.CharField("阵营随机种子", max_length=40, null=True, blank=True)
    deal_seed = models.CharField("发牌随机种子", max_length=40, null=True, blank=True)
    order_seed = models.CharField("默认丢牌顺序随机种子", max_length=40)
    phase_seconds = models.PositiveIntegerField("每个时段秒数", default=24 * 3600)
    status = models.CharField("状态", max_length=10, choices=Status.choices, default=Status.SETUP)
    started_at = models.DateTimeField("《游戏者名单》发布时间", null=True, blank=True)
    winner = models.CharField("胜方", max_length=10, blank=True)
    # Where play starts (a scenario may start later than night 1) and what the seats carry into it.
    start_kind = models.CharField("开始时段", max_length=5, default="night")
    start_number = models.PositiveSmallIntegerField("开始时段序号", default=1)
    initial_ap = models.JSONField("开局行动点数", default=dict, blank=True)
    hands_are_orders = models.BooleanField("手牌已按丢牌顺序录入", default=False)
    input_seq = models.PositiveIntegerField("录入计数", default=0)  # orders inputs of equal forum time by entry
    # Players enter their own actions, orders and votes on their private page (the PM path stays).
    self_entry = models.BooleanField("玩家可在私人页面提交", default=False)

    class Meta:
        verbose_name = verbose_name_plural = "游戏"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """One of the seats of a game. A substitute (S5) takes the seat over with its hand, order, AP and history."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name="游戏")
    number = models.PositiveSmallIntegerField("座位号")
    player_name = models.CharField("论坛ID", max_length=60)
    camp = models.CharField("阵营", max_length=4)
    dealt_hand = models.JSONField("发到的牌", default=list)
    token = models.CharField("私人链接令牌", max_length=64, unique=True, default=new_token)
    signed_in_at = models.DateTimeField("签到时间", null=True, blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "座位"
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "player_name"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player_name}"


class SeatHolder(models.Model):
    """S5: who held a seat from when; the first row is the original player."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="holders", verbose_name="座位")
    player_name = models.CharField("论坛ID", max_length=60)
    since = models.DateTimeField("开始时间")
    reason = models.CharField("原因", max_length=20, default="开局")

    class Meta:
        verbose_name = verbose_name_plural = "座位玩家历史"
        ordering = ["seat", "since", "id"]


class Phase(models.Model):
    """A night or a day (T1). Its end time is data; closing is a compare-and-set on `status`."""

    class Kind(models.TextChoices):
        NIGHT = "night", "夜"
        DAY = "day", "天"

    class Status(models.TextChoices):
        OPEN = "open", "进行中"
        CLOSED = "closed", "已结束"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases", verbose_name="游戏")
    kind = models.CharField("类型", max_length=5, choices=Kind.choices)
    number = models.PositiveSmallIntegerField("序号")
    starts_at = models.DateTimeField("开始时间")
    ends_at = models.DateTimeField("结束时间")
    status = models.CharField("状态", max_length=6, choices=Status.choices, default=Status.OPEN)
    closed_at = models.DateTimeField("实际结束时间", null=True, blank=True)
    result = models.JSONField("结算结果", default=dict, blank=True)
    paused_remaining = models.DurationField("暂停时剩余时间", null=True, blank=True)
    # T5: the end announced before the 天神 ended the phase early; every cutoff (T3, D3) is measured from it.
    announced_end = models.DateTimeField("原定结束时间", null=True, blank=True)
    # The state after the close (moderator.rules.codec): a write replays from here, not from night 1.
    snapshot = models.TextField("结算后状态快照", blank=True)
    # The sweeper's failed attempts to close this phase (not the transient ones); at QUARANTINE_AFTER it stops
    # retrying and the 天神's dashboard shows the last error (moderator.services.clock.close_each).
    close_failures = models.PositiveSmallIntegerField("自动结算失败次数", default=0)
    close_error = models.TextField("最近一次结算失败原因", blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "时段"
        ordering = ["game", "starts_at", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "kind", "number"], name="phase_unique")]
        indexes = [models.Index(fields=["status", "ends_at"], name="phase_due_idx")]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return phase_label(self.kind, self.number)


def phase_label(kind: str, number: int) -> str:
    """第3夜, 第3天: how a phase is named everywhere (`Phase.label`; a close's next phase before it is a row)."""
    return f"第{number}{'夜' if kind == Phase.Kind.NIGHT else '天'}"


class Message(models.Model):
    """A raw message exactly as the 天神 pasted it (a PM or a vote post), kept forever."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages", verbose_name="游戏")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="发送者座位")
    sender_name = models.CharField("发送者", max_length=60)
    text = models.TextField("原文")
    parsed = models.JSONField("解析结果", default=dict, blank=True)  # what the parser read at entry (docs/parser.md)
    forum_at = models.DateTimeField("论坛时间")
    entered_at = models.DateTimeField("录入时间", auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="录入人"
    )

    class Meta:
        verbose_name = verbose_name_plural = "原始消息"
        ordering = ["game", "forum_at", "id"]


class Input(models.Model):
    """The one append-only input log: every privilege use, vote post and discard order, as the 天神 entered it.

    `payload` is the input in the codec's vocabulary (moderator.rules.codec: players by seat number); nothing here
    branches on `kind`. A row is never changed: a void is an `InputVoid` row, and the verdict the rules give it is
    derived data (`InputVerdict`), rewritten by each replay of its phase."""

    class Kind(models.TextChoices):
        ACTION = "action", "特权行动"
        VOTE = "vote", "投票"
        ORDER = "order", "丢牌顺序"
        PASS = "pass", "空过"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="inputs", verbose_name="游戏")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="inputs", verbose_name="时段")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="inputs", verbose_name="发送者座位")
    kind = models.CharField("类型", max_length=8, choices=Kind.choices)
    payload = models.JSONField("内容")
    message = models.ForeignKey(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="inputs", verbose_name="原始消息"
    )
    forum_at = models.DateTimeField("论坛时间")
    seq = models.PositiveIntegerField("录入序号")  # entry order within the game: ties of equal forum time
    entered_at = models.DateTimeField("录入时间", auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="录入人",
    )

    class Meta:
        verbose_name = verbose_name_plural = "输入记录"
        ordering = ["forum_at", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="input_seq_unique")]
        indexes = [models.Index(fields=["phase", "forum_at", "seq"], name="input_phase_idx")]

    # What became of it, read from the void and the derived verdict (each a query unless select_related).
    @property
    def status(self) -> str:
        if hasattr(self, "void"):
            return "voided"
        verdict = getattr(self, "verdict", None)
        return "" if verdict is None else ("accepted" if verdict.accepted else "refused")

    @property
    def reason(self) -> str:
        if hasattr(self, "void"):
            return self.void.reason
        verdict = getattr(self, "verdict", None)
        return verdict.reason if verdict else ""

    @property
    def cost(self) -> int:
        verdict = getattr(self, "verdict", None)
        return verdict.cost if verdict and not hasattr(self, "void") else 0


class InputVoid(models.Model):
    """A void of one input (logged, append-only): the replay skips the input from then on."""

    input = models.OneToOneField(Input, on_delete=models.CASCADE, primary_key=True, related_name="void")
    at = models.DateTimeField("作废时间", auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.TextField("作废原因", blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "作废记录"


class InputVerdict(models.Model):
    """Derived: what the rules said of an input at the latest replay of its phase (accepted with its cost, or
    refused and why). Never the truth: the log and the rules are; this is kept so that pages need not replay."""

    input = models.OneToOneField(Input, on_delete=models.CASCADE, primary_key=True, related_name="verdict")
    accepted = models.BooleanField("已接受")
    reason = models.TextField("说明", blank=True)
    cost = models.SmallIntegerField("扣除点数", default=0)

    class Meta:
        verbose_name = verbose_name_plural = "裁定"


class UsedToken(models.Model):
    """A one-time token of a state-changing form, spent: a repeated or stale submit finds it here and changes
    nothing (the unique key makes two concurrent submits of one form one success and one refusal)."""

    token = models.CharField(max_length=64, primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    action = models.CharField(max_length=40)
    at = models.DateTimeField(auto_now_add=True)


class Announcement(models.Model):
    """The outbox: drafts written in the same transaction as the close that produced them (A1–A5)."""

    class Kind(models.TextChoices):
        DAWN = "dawn", "天亮公告"
        DUSK = "dusk", "天黑公告"
        VOTE_POST = "vote", "投票帖"
        NOTICE = "notice", "公告"  # substitution, correction, final summary
        PRIVATE = "private", "私信草稿"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="announcements", verbose_name="游戏")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="announcements", verbose_name="时段")
    kind = models.CharField("类型", max_length=8, choices=Kind.choices)
    recipient = models.CharField("收件人", max_length=60, blank=True)
    title = models.CharField("标题", max_length=200)
    bbcode = models.TextField("BBCode")
    text = models.TextField("纯文本")
    events = models.JSONField("事件", default=list)
    created_at = models.DateTimeField("生成时间", auto_now_add=True)
    # A draft is public once the 天神 says it was posted on the forum; a corrected one stays, marked 已更正.
    posted_at = models.DateTimeField("发到论坛的时间", null=True, blank=True)
    corrected_at = models.DateTimeField("被更正的时间", null=True, blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "公告草稿"
        ordering = ["game", "created_at", "id"]


class AuditLog(models.Model):
    """Every GM act on a game (inputs, edits, voids, closes, extensions, pauses, corrections): who, what, when."""

    class Action(models.TextChoices):
        """The audit log's whole vocabulary: every row names one of these (a test reads the code for any other). The
        stored values are the ones rows were always written with, Chinese or an English code; the label is what the
        audit page calls an act whose detail it cannot read."""

        GAME_CREATE = "game_create", "新建游戏"
        GAME_START = "开始游戏", "开始游戏"
        GAME_IMPORT = "导入游戏", "导入游戏"
        GAME_RESTORE = "从备份恢复", "从备份恢复"
        ADMIN_EDIT = "后台修改", "后台修改"
        MESSAGE_ENTER = "录入消息", "录入消息"
        ACTION_ENTER = "录入特权", "录入特权"
        VOTE_ENTER = "录入投票", "录入投票"
        BULK_ENTER = "批量录入", "批量录入"
        SELF_ENTRY = "玩家自行提交", "玩家自行提交"
        SELF_ENTRY_SETTING = "玩家自行提交设置", "玩家自行提交设置"
        INPUT_VOID = "作废输入", "作废输入"
        CORRECTION = "更正", "更正"
        SUBSTITUTE = "替补", "替补"
        SEAT_TOKEN_ROTATE = "seat_token_rotate", "更换私人链接"
        PHASE_CLOSE = "phase_close", "时段结算"
        PHASE_EXTEND = "phase_extend", "延长时段"
        PHASE_END_EARLY = "phase_end_early", "提前结束时段"
        GAME_PAUSE = "game_pause", "暂停游戏"
        GAME_RESUME = "game_resume", "继续游戏"
        GAME_DECLARE_DRAW = "game_declare_draw", "宣布平局"
        ANNOUNCEMENT_POSTED = "标记公告已发布", "标记公告已发布"
        ANNOUNCEMENT_UNPOSTED = "撤回公告发布标记", "撤回公告发布标记"
        REVOTE_DRAFT = "起草重新投票通知", "起草重新投票通知"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audit", verbose_name="游戏")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="操作人"
    )
    action = models.CharField("操作", max_length=40, choices=Action.choices)
    detail = models.JSONField("详情", default=dict, blank=True)
    at = models.DateTimeField("时间", auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "操作记录"
        ordering = ["game", "at", "id"]


class SelfEntry(models.Model):
    """Inputs a player entered on his own private page (moderator.services.selfentry) — who, when, from
    which link (a fingerprint of the token, never the token), and the raw submission as typed. The inputs themselves
    are ordinary rows of the one input log, voidable and correctable like any other."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="self_entries", verbose_name="游戏")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="+", verbose_name="时段")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name="座位")
    player_name = models.CharField("提交时的论坛ID", max_length=60)
    link = models.CharField("私人链接指纹", max_length=16)
    kind = models.CharField("方式", max_length=8)  # form | order | vote | text
    raw = models.JSONField("原始提交", default=dict)
    message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    inputs = models.ManyToManyField(Input, related_name="self_entries", verbose_name="输入")
    at = models.DateTimeField("提交时间", auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "玩家自行提交"
        ordering = ["game", "at", "id"]


class ClockSweep(models.Model):
    """When each phase clock last finished a sweep ("celery": beat's sweep_phases; "q": the embedded django-q2
    clock), for /healthz. In the database, not in the broker: a Redis restarted empty must not make a dead clock look
    as if it had simply not started yet."""

    clock = models.CharField("时钟", max_length=16, primary_key=True)
    at = models.DateTimeField("最近一次扫描")

    class Meta:
        verbose_name = verbose_name_plural = "阶段时钟扫描"
