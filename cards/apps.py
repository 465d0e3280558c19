from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "牌与丢牌顺序"
