from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "nights"
    verbose_name = "夜晚行动"
