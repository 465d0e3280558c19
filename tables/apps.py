from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "桌游记录"
    default_auto_field = "django.db.models.BigAutoField"
