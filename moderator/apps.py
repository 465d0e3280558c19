from django.apps import AppConfig


class ModeratorConfig(AppConfig):
    name = "moderator"
    verbose_name = "天神助手"
