from django.apps import AppConfig


class VotesConfig(AppConfig):
    name = "votes"
    verbose_name = "投票"
