from django.apps import AppConfig


class ModeratorConfig(AppConfig):
    name = "moderator"
    verbose_name = "天神助手"

    def ready(self) -> None:
        # Load the Celery app with Django (shared tasks bind to it); kept out of moderator/__init__ so that the pure
        # rules package (moderator.rules) imports neither Celery nor Django.
        from moderator import celery  # noqa: F401
        from moderator.services import versions

        versions.connect_signals()  # an ORM save of what the pages show changes the game's page version
