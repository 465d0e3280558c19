from django.contrib import admin

from nights.models import Action


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("game", "phase", "seat", "card", "use", "target", "forum_at", "status", "cost")
    list_filter = ("status", "use")
