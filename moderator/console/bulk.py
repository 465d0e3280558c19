"""Bulk paste: a whole vote thread or a batch of PMs → one preview row per post → one confirm.

The page has one form: the paste box, and under it the rows read from it (author, forum time, body, edited, skip),
each editable inline. While the 天神 types or pastes, htmx posts the form and swaps in the new rows and verdicts
(`split`: read the paste again; `refresh`: judge the edited rows again); nothing is stored until the one explicit
confirm, which stores the rows as shown. Without JavaScript the two buttons do the same with a page load.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone

from moderator.models import Phase
from moderator.parser.thread import Post, split_posts
from moderator.selectors import open_phase_of
from moderator.services import bulk, errors, verdicts
from moderator.services.once import Once
from moderator.web.access import gm_game
from moderator.web.forms import ForumTimeField

BULK_MODES = [("votes", "投票帖(整个投票楼)"), ("pms", "短消息(一批私信)")]


class PasteForm(forms.Form):
    mode = forms.ChoiceField(label="内容", choices=BULK_MODES)
    paste = forms.CharField(
        label="粘贴论坛帖子页面的文字、带 === 作者 时间 行的文本,或保存的短消息收件箱 HTML",
        widget=forms.Textarea(attrs={"rows": 10}),
        required=False,
        max_length=400_000,
    )


class RowForm(forms.Form):
    author = forms.CharField(label="作者", max_length=60, required=False)
    forum_at = ForumTimeField(label="论坛时间", required=False)
    body = forms.CharField(label="正文", widget=forms.Textarea(attrs={"rows": 2}), max_length=20000, required=False)
    edited = forms.BooleanField(label="被编辑过", required=False)
    skip = forms.BooleanField(label="跳过", required=False)
    line = forms.IntegerField(widget=forms.HiddenInput, required=False)


RowFormSet = forms.formset_factory(RowForm, extra=0, max_num=500, validate_max=True)


def _initial(post: Post) -> dict:
    return {
        "author": post.author,
        "forum_at": post.at.strftime("%Y-%m-%dT%H:%M") if post.at else "",
        "body": post.body,
        "edited": post.edited,
        "line": post.line,
    }


def _posts(formset) -> tuple[list[Post], set[int]]:
    """The rows as the 天神 left them; the indexes of the rows ticked 跳过."""
    posts, ticked = [], set()
    for i, form in enumerate(formset.forms):
        data = form.cleaned_data
        at = data.get("forum_at")
        naive = timezone.localtime(at).replace(tzinfo=None) if at else None
        posts.append(Post(data.get("author", ""), naive, data.get("body", ""), data.get("edited", False), i + 1))
        if data.get("skip"):
            ticked.add(i)
    return posts, ticked


@login_required
def bulk_intake(request, game_id: int):
    game = gm_game(request, game_id)
    phase = open_phase_of(game)
    default_mode = "pms" if phase is None or phase.kind == Phase.Kind.NIGHT else "votes"
    paste = PasteForm(request.POST or None, initial={"mode": default_mode})
    formset, preview, error = RowFormSet(prefix="row"), None, ""
    if request.method == "POST" and paste.is_valid():
        vote_post = paste.cleaned_data["mode"] == "votes"
        try:
            if "split" in request.POST or ("refresh" not in request.POST and "confirm" not in request.POST):
                authors = list(game.seats.values_list("player_name", flat=True))
                posts = split_posts(paste.cleaned_data["paste"], authors=authors)
                formset = RowFormSet(prefix="row", initial=[_initial(p) for p in posts])
                ticked: set[int] = set()
            else:
                formset = RowFormSet(request.POST, prefix="row")
                if not formset.is_valid():
                    raise errors.PlayError("有的行填写有误(时间请写 YYYY-MM-DD HH:MM):请改正后再预览。")
                posts, ticked = _posts(formset)
            if "confirm" in request.POST:
                kept = [p for i, p in enumerate(posts) if i not in ticked]
                try:
                    result = bulk.bulk_confirm(
                        game=game,
                        posts=kept,
                        vote_post=vote_post,
                        user=request.user,
                        once=Once.from_post(request.POST),
                        seen=request.POST.get("seen", ""),
                    )
                except verdicts.NotAsSeen as exc:  # not what the preview showed: nothing stored, preview again
                    error = str(exc)
                else:
                    messages.success(request, _summary(result))
                    return redirect("console_votes" if vote_post else "console_dashboard", game_id=game.pk)
            if posts:
                preview = bulk.bulk_preview(game=game, posts=posts, vote_post=vote_post, ticked=frozenset(ticked))
            elif paste.cleaned_data["paste"].strip():
                error = "没有找到任何帖子:需要“发表于 YYYY-MM-DD HH:MM”行(论坛帖子页)或“=== 作者 YYYY-MM-DD HH:MM”行。"
        except errors.PlayError as exc:
            error = str(exc)
    context = {
        "game": game,
        "phase": phase,
        "paste": paste,
        "formset": formset,
        "preview": preview,
        "rows": list(zip(formset.forms, preview.rows, strict=True)) if preview else [],
        "error": error,
        "bulk": True,
    }
    if request.htmx:
        return render(request, "console/_bulk_preview.html", context)
    return render(request, "console/intake.html", context)


def _summary(result: bulk.BulkResult) -> str:
    text = f"批量录入完成:保存了 {len(result.stored)} 条消息({result.accepted} 项被接受,{result.refused} 项被拒绝)"
    if result.skipped:
        text += f";跳过 {len(result.skipped)} 条:" + ";".join(
            f"{r.post.author} {r.skip.rstrip('。')}" for r in result.skipped
        )
    return text + "。"
