"""The project's URLs plus the tables app, for running the view tests before moderator/urls.py includes it."""

from django.urls import include, path

from moderator.urls import urlpatterns as project_patterns

urlpatterns = [*project_patterns, path("tables/", include("tables.urls"))]
