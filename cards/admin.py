from django.contrib import admin

from cards.models import DiscardOrder


@admin.register(DiscardOrder)
class DiscardOrderAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "source", "status", "forum_at", "entered_at")
    list_filter = ("status", "source")
