"""The admin reads the game's records; it changes only what no verdict depends on, and says so in the audit log.

Phases, seats, raw messages, drafts, the input log and the audit log are read-only here: a phase's deadline, a seat's
camp or hand, a PM's text changed behind the services' back would silently change verdicts the 天神 saw — the console
changes them (extend, pause, substitute, void, correct), each logged. A game's name and its 天神 (who may run it) may be
changed here; every such change is an audit row with the admin's name, the old and the new value. Games are not
deleted here (their audit would go with them)."""

from django.contrib import admin

from moderator.models import Announcement, AuditLog, Game, Input, Message, Phase, Seat, SeatHolder
from moderator.rules import codec
from moderator.services import audit


class ReadOnly:
    """The admin shows these rows; it neither adds, changes nor deletes them."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]  # type: ignore[attr-defined]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "player_name", "camp", "dealt_hand", "signed_in_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """The name and the 天神 may change (audited); the table, the seeds and the state only through the console."""

    list_display = ("name", "status", "seats_count", "hand_size", "created_at")
    list_filter = ("status",)
    search_fields = ("name",)
    filter_horizontal = ("gms",)
    inlines = [SeatInline]
    EDITABLE = ("name", "gms")

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Game._meta.fields if f.name not in self.EDITABLE]

    def has_add_permission(self, request) -> bool:
        return False  # a game is created on /games/new/ (its checks, its seeds)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        if change and "name" in form.changed_data:
            old = Game.objects.values_list("name", flat=True).get(pk=obj.pk)
            audit.record(obj, request.user, AuditLog.Action.ADMIN_EDIT, {"field": "name", "old": old, "new": obj.name})
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change) -> None:
        game = form.instance
        old = sorted(game.gms.values_list("username", flat=True)) if change else []
        super().save_related(request, form, formsets, change)
        new = sorted(game.gms.values_list("username", flat=True))
        if change and old != new:
            audit.record(game, request.user, AuditLog.Action.ADMIN_EDIT, {"field": "gms", "old": old, "new": new})


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "number", "player_name", "camp", "signed_in_at")
    list_filter = ("game",)
    search_fields = ("player_name",)


@admin.register(SeatHolder)
class SeatHolderAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("seat", "player_name", "since", "reason")


@admin.register(Phase)
class PhaseAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "kind", "number", "starts_at", "ends_at", "status", "closed_at")
    list_filter = ("status", "kind")


@admin.register(Message)
class MessageAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "sender_name", "forum_at", "entered_at", "entered_by")
    search_fields = ("sender_name", "text")


@admin.register(Announcement)
class AnnouncementAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "phase", "kind", "recipient", "title", "created_at")
    list_filter = ("kind",)


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    """Who did what, when: nobody edits or deletes it, not even with admin rights — the admin reads it."""

    list_display = ("game", "actor", "action", "at")
    list_filter = ("action",)
    readonly_fields = [f.name for f in AuditLog._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Input)
class InputAdmin(admin.ModelAdmin):
    """The input log is append-only: the admin reads it; voids and corrections go through the console."""

    list_display = ("game", "phase", "seat", "kind", "sentence", "forum_at", "seq")
    list_filter = ("kind",)
    readonly_fields = [f.name for f in Input._meta.fields]

    @admin.display(description="内容")
    def sentence(self, obj: Input) -> str:
        names = dict(obj.game.seats.values_list("number", "player_name"))
        return codec.describe(obj.kind, obj.payload, names)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
