from django.contrib import admin

from moderator.models import Announcement, AuditLog, Game, Input, Message, Phase, Seat, SeatHolder
from moderator.rules import codec


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "player_name", "camp", "dealt_hand", "signed_in_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "seats_count", "hand_size", "created_at")
    list_filter = ("status",)
    search_fields = ("name",)
    filter_horizontal = ("gms",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "player_name", "camp", "signed_in_at")
    list_filter = ("game",)
    search_fields = ("player_name",)


@admin.register(SeatHolder)
class SeatHolderAdmin(admin.ModelAdmin):
    list_display = ("seat", "player_name", "since", "reason")


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    list_display = ("game", "kind", "number", "starts_at", "ends_at", "status", "closed_at")
    list_filter = ("status", "kind")


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("game", "sender_name", "forum_at", "entered_at", "entered_by")
    search_fields = ("sender_name", "text")


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("game", "phase", "kind", "recipient", "title", "created_at")
    list_filter = ("kind",)


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    """Who did what, when: nobody edits or deletes it, not even with admin rights (issue 22) — the admin reads it."""

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
