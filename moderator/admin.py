from django.contrib import admin

from moderator.models import Announcement, AuditLog, Game, Message, Phase, Seat, SeatHolder


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
    list_display = ("game", "actor", "action", "at")
    list_filter = ("action",)
