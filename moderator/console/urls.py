from django.urls import path

from moderator.console import bulk, create, draw, selfentry, why
from moderator.console import views as console

urlpatterns = [
    path("games/new/", create.game_new, name="game_new"),
    path("games/import/", console.import_page, name="console_import"),
    path("games/<int:game_id>/setup/", create.game_setup, name="game_setup"),
    path("gm/", console.games_overview, name="console_games"),
    path("gm/<int:game_id>/", console.dashboard, name="console_dashboard"),
    path("gm/<int:game_id>/end/", console.end_confirm, name="console_end_confirm"),
    path("gm/<int:game_id>/links/<int:seat_id>/rotate/", console.link_rotate, name="console_link_rotate"),
    path("gm/<int:game_id>/announcements/<int:pk>/posted/", console.announcement_posted, name="console_posted"),
    path("gm/<int:game_id>/start/", console.start, name="console_start"),
    path("gm/<int:game_id>/pm/", console.pm_intake, name="console_pm"),
    path("gm/<int:game_id>/vote-post/", console.pm_intake, {"vote_post": True}, name="console_vote_post"),
    path("gm/<int:game_id>/bulk/", bulk.bulk_intake, name="console_bulk"),
    path("gm/<int:game_id>/action/", console.action_form, name="console_action"),
    path("gm/<int:game_id>/votes/", console.vote_intake, name="console_votes"),
    path("gm/<int:game_id>/votes/revote/", console.revote_page, name="console_revote"),
    path("gm/<int:game_id>/messages/<int:message_id>/", console.message_detail, name="console_message"),
    path("gm/<int:game_id>/void/<int:pk>/", console.void_page, name="console_void"),
    path("gm/<int:game_id>/announcements/", console.announcements, name="console_announcements"),
    path("gm/<int:game_id>/audit/", console.audit, name="console_audit"),
    path("gm/<int:game_id>/correction/", console.correction, name="console_correction"),
    path("gm/<int:game_id>/export/", console.export, name="console_export"),
    path("gm/<int:game_id>/clock/<str:action>/", console.clock_control, name="console_clock"),
    path("gm/<int:game_id>/substitute/", console.substitute, name="console_substitute"),
    path("gm/<int:game_id>/draw/", draw.declare_draw, name="console_draw"),
    path("gm/<int:game_id>/self-entry/", selfentry.setting, name="console_self_entry"),
    path("gm/<int:game_id>/why/<int:phase_id>/", why.why_page, name="console_why"),
    path("gm/<int:game_id>/review/", why.review, name="console_review"),
]
