from django.contrib import admin

from tables.models import Table, TableAction


class TableActionInline(admin.TabularInline):
    model = TableAction
    extra = 0
    fields = ("seq", "actor", "action", "created")
    readonly_fields = ("created",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "seed", "created")
    list_filter = ("kind",)
    search_fields = ("name",)
    inlines = [TableActionInline]


@admin.register(TableAction)
class TableActionAdmin(admin.ModelAdmin):
    list_display = ("table", "seq", "actor", "created")
    list_filter = ("table",)
