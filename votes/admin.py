from django.contrib import admin

from votes.models import Vote


@admin.register(Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ("game", "phase", "seat", "target", "change", "edited", "forum_at", "status")
    list_filter = ("status", "change")
