from django.contrib import admin

from tables.models import Table, TableAction


class TableActionInline(admin.TabularInline):
    model = TableAction
    extra = 0
    fields = ("seq", "round", "actor", "action", "undone", "note", "created")
    readonly_fields = ("created",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "mode", "round", "created")
    list_filter = ("kind", "mode")
    search_fields = ("name",)
    inlines = [TableActionInline]


@admin.register(TableAction)
class TableActionAdmin(admin.ModelAdmin):
    list_display = ("table", "seq", "round", "actor", "undone", "created")
    list_filter = ("table",)
