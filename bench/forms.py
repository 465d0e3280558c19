"""Filling a page's form as a browser does, with lxml.html's form handling rather than regular expressions: what
`form_values()` returns is what a browser submits (a checked box without a value sends "on", an unchecked one
nothing, a textarea its text without the newline after the tag, a select its selected options, disabled fields
nothing), plus the button that was clicked; and htmx's swap of a fragment into the page (hx-swap innerHTML)."""

from __future__ import annotations

from lxml import html


def swap(page: str, target: str, fragment: str) -> str:
    """The page after htmx put `fragment` inside the element whose id is `target`."""
    doc = html.document_fromstring(page)
    element = doc.get_element_by_id(target)
    for child in list(element):
        element.remove(child)
    parts = html.fragments_fromstring(fragment)
    element.text = parts.pop(0) if parts and isinstance(parts[0], str) else None
    element.extend(parts)
    return html.tostring(doc, encoding="unicode")


def check(page: str, name: str, checked: bool = True) -> str:
    """The page after the user ticked (or cleared) the checkbox `name`."""
    doc = html.document_fromstring(page)
    (box,) = doc.xpath("//input[@type='checkbox'][@name=$name]", name=name)
    box.checked = checked
    return html.tostring(doc, encoding="unicode")


def form_data(page: str, form_id: str | None = None, *, submit: tuple[str, str] | None = None) -> dict[str, list[str]]:
    """What submitting the form (by id, else the page's first) sends: every successful control's name and value in
    document order, then the clicked button's `submit` (name, value) if any. Lists, as Django's test client takes
    a field sent several times."""
    doc = html.document_fromstring(page)
    form = doc.get_element_by_id(form_id) if form_id else doc.forms[0]
    for textarea in form.iter("textarea"):  # the HTML parser drops one newline right after <textarea>; libxml2 not
        if textarea.text and textarea.text.startswith(("\r\n", "\n")):
            textarea.text = textarea.text.removeprefix("\r").removeprefix("\n")
    data: dict[str, list[str]] = {}
    for name, value in form.form_values():
        data.setdefault(name, []).append(value)
    if submit is not None:
        data.setdefault(submit[0], []).append(submit[1])
    return data
