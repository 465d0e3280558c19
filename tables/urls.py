from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("", views.table_list, name="list"),
    path("<int:table_id>/", views.table_public, name="public"),
    path("<int:table_id>/v/", views.table_version, name="version"),
    path("<int:table_id>/p/<str:token>/", views.table_private, name="private"),
    path("<int:table_id>/p/<str:token>/sheet/", views.table_sheet, name="sheet"),
    path("<int:table_id>/h/<str:token>/", views.table_host, name="host"),
]
