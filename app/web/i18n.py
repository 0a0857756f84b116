"""The pages' interface text: the catalogues in ``app/web/locales/`` and their lookup, ``app.i18n``."""

from __future__ import annotations

from app.i18n import DEFAULT, LANGUAGES, catalogue, negotiate, translate

__all__ = ["DEFAULT", "LANGUAGES", "catalogue", "negotiate", "translate"]
