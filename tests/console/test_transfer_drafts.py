"""Drafts keep their posted (and 已更正) marks through export and import: the public page of an imported copy shows
exactly the posts the original's showed (moderator.services.transfer_drafts). A mark goes only onto a redraft
that reads word for word the same; a file from before the marks imports with every redraft counted as posted."""

from __future__ import annotations

import copy
import hashlib
import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from bench.sample import sample_game
from moderator.models import Announcement, AuditLog, Game, Input
from moderator.services import corrections, transfer
from tests.pages.conftest import _fresh_cache  # noqa: F401 (fixture)
from tests.tokens import signed

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample(db):
    return sample_game()


def _titles(client, game: Game) -> list[str]:
    page = client.get(f"/games/{game.pk}/").content.decode()
    return [html.unescape(t) for t in re.findall(r"<article><h3>(.*?)</h3>", page)]


def _texts(client, game: Game) -> list[str]:
    page = client.get(f"/games/{game.pk}/").content.decode()
    return [html.unescape(t) for t in re.findall(r'<pre class="announcement">(.*?)</pre>', page, re.S)]


def _import(gm_client, data: dict, name: str) -> Game:
    body = json.dumps(data, ensure_ascii=False).encode()
    response = gm_client.post(
        "/games/import/",
        {**signed(gm_client, "console_import"), "file": SimpleUploadedFile("g.json", body), "name": name},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return Game.objects.get(name=name)


def _unpost(game: Game, *kinds: str) -> None:
    for kind in kinds:
        draft = game.announcements.filter(kind=kind).order_by("-id").first()
        Announcement.objects.filter(pk=draft.pk).update(posted_at=None)


def _marks(game: Game) -> list[tuple]:
    rows = game.announcements.order_by("created_at", "id")
    return [(a.phase.label, a.kind, a.recipient, a.title, a.text, a.posted_at, a.corrected_at) for a in rows]


def test_it_keeps_which_drafts_were_posted_and_the_copys_public_page_shows_exactly_those(gm_client, sample, client):
    game = sample.game
    _unpost(game, "dusk", "vote")  # day 1's dusk post and night 2's vote post: still drafts on the forum's side
    assert game.announcements.filter(posted_at__isnull=True).count() == 2
    before = _titles(client, game)

    copy_ = _import(gm_client, transfer.export_game(game), "导入的局")

    assert _titles(client, copy_) == before and _texts(client, copy_) == _texts(client, game)
    assert _marks(copy_) == _marks(game)
    assert copy_.announcements.filter(posted_at__isnull=True).count() == 2


def test_corrected_posts_keep_their_mark_and_the_notice_the_replay_never_writes_is_kept(gm_client, sample, client):
    game = sample.game
    (curse,) = [r for r in Input.objects.filter(game=game, kind="action") if r.payload["use"] == "诅咒"]
    assert corrections.correction_apply(game=game, edits=[{"op": "void", "id": curse.pk}], reason="诅咒发错了人")
    fixed = game.announcements.filter(title__endswith="(更正后)", kind="dusk").get()
    notice = game.announcements.get(kind="notice", title__contains="更正公告")
    Announcement.objects.filter(pk__in=[fixed.pk, notice.pk]).update(posted_at=fixed.created_at)
    assert game.announcements.filter(corrected_at__isnull=False).exists()
    before = _titles(client, game)
    assert any(t.startswith("〔已更正〕") for t in before) and any("更正公告" in t for t in before)

    copy_ = _import(gm_client, transfer.export_game(game), "导入的更正局")

    assert _titles(client, copy_) == before
    assert _marks(copy_) == _marks(game)


def _redrafted_differently(data: dict, kind: str) -> dict:
    """The file as an older version wrote it: one draft of this kind reads differently from what the replay writes."""
    data = copy.deepcopy(data)
    draft = next(d for d in data["announcements"] if d["kind"] == kind and d["posted_at"])
    if "text" in draft:
        draft["text"] = draft["bbcode"] = draft["text"] + "\n(旧版本的写法)"
        draft["digest"] = hashlib.sha256(draft["text"].encode()).hexdigest()
    else:
        draft["digest"] = "0" * 64
    return data


def test_a_mark_never_goes_onto_a_redraft_that_reads_differently(gm_client, sample, client):
    game = sample.game
    data = _redrafted_differently(transfer.export_game(game), "dawn")
    old = next(d for d in data["announcements"] if d["text"].endswith("(旧版本的写法)"))

    copy_ = _import(gm_client, data, "导入的旧写法局")

    (redraft,) = copy_.announcements.filter(kind="dawn", phase__number=1, text=old["text"].rsplit("\n", 1)[0])
    assert redraft.posted_at is None  # the replay's wording was never posted: it waits for the 天神
    kept = copy_.announcements.get(text=old["text"])
    assert kept.posted_at is not None and kept.title == old["title"]  # what the forum has stays on the public page
    texts = _texts(client, copy_)
    assert old["text"] in texts and redraft.text not in texts
    assert len(texts) == len(_texts(client, game))


def test_a_pm_that_reads_differently_is_left_unposted_and_counted(gm_client, sample):
    data = _redrafted_differently(transfer.export_game(sample.game), "private")
    copy_ = _import(gm_client, data, "导入的私信局")
    assert copy_.announcements.filter(kind="private", posted_at__isnull=True).count() == 1
    audit = AuditLog.objects.get(game=copy_, action="导入游戏")
    assert audit.detail["drafts"]["dropped"] == 1
    page = gm_client.get(f"/gm/{copy_.pk}/audit/").content.decode()
    assert "1 篇未发布或私信草稿未导入" in page


def test_a_file_from_before_the_marks_imports_with_every_redraft_posted_at_its_close(gm_client, sample, client):
    data = transfer.export_game(sample.game)
    del data["announcements"]
    copy_ = _import(gm_client, data, "导入的旧文件")
    drafts = list(copy_.announcements.select_related("phase"))
    assert drafts and all(a.posted_at == (a.phase.closed_at or a.phase.ends_at) for a in drafts)
    assert _texts(client, copy_) == _texts(client, sample.game)
    assert "旧格式文件" in gm_client.get(f"/gm/{copy_.pk}/audit/").content.decode()


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(phase=99), "时段不存在"),
        (lambda d: d.update(digest="xyz"), "digest"),
        (lambda d: d.update(kind="secret"), "kind"),
        (lambda d: d.update(title="x" * 201), "title"),
        (lambda d: d.update(posted_at="1999-01-01T00:00:00+00:00"), "2000"),
    ],
)
def test_a_draft_out_of_bounds_is_refused_before_anything_is_written(gm_client, sample, change, words):
    data = transfer.export_game(sample.game)
    change(data["announcements"][0])
    games = Game.objects.count()
    body = json.dumps(data, ensure_ascii=False).encode()
    page = gm_client.post(
        "/games/import/", {**signed(gm_client, "console_import"), "file": SimpleUploadedFile("g.json", body)}
    ).content.decode()
    assert "无法导入" in page and words in page and Game.objects.count() == games


def test_the_text_of_a_pm_is_never_exported(sample):
    pms = [d for d in transfer.export_game(sample.game)["announcements"] if d["kind"] == "private"]
    assert pms and all("text" not in d and "bbcode" not in d for d in pms)
    with pytest.raises(transfer.ImportRefused, match="私信草稿不导出正文"):
        data = transfer.export_game(sample.game)
        next(d for d in data["announcements"] if d["kind"] == "private")["text"] = "链接"
        transfer.validate(json.loads(json.dumps(data)))
