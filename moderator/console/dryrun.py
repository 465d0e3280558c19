"""The close previews live in services/preview.py; this name stays for the pages that still import it from here."""

from moderator.services.preview import close_preview, dawn_preview, dusk_preview, end_preview

__all__ = ["close_preview", "dawn_preview", "dusk_preview", "end_preview"]
