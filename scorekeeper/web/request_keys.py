"""A page's request key: each form that changes something carries a fresh one (its hidden
``nonce``), which the store keeps with the change (``changes.commit``), so that a double
tap or a form sent again makes the change once."""

from __future__ import annotations

import secrets

from flask import request
from markupsafe import Markup

from ..store.errors import is_request_key
from . import bp


@bp.app_template_global()
def request_key_field() -> Markup:
    """The hidden field of a form's key, fresh each time the form is drawn."""
    return Markup('<input type="hidden" name="nonce" value="{}">').format(secrets.token_urlsafe(16))


def page_key(nonce: str | None = None) -> str | None:
    """The key a form was sent with (its ``nonce``, read from the posted form unless
    given). One this page did not issue (not printable ASCII) guards nothing: it is not
    kept."""
    if nonce is None:
        nonce = request.form.get("nonce")
    return nonce if nonce and is_request_key(nonce) else None
