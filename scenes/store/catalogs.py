"""The translations' files: ``locale/<code>/LC_MESSAGES/roundtable.po`` in the
repository, compiled to the ``.mo`` files Python's gettext reads.

The built app ships them compiled (tools/build_app.py); a checkout or a wheel
compiles a language's ``.po`` on its first use into the user's cache, written
atomically and named by the ``.po``'s content, so an edited ``.po`` is compiled
again and two instances never read a half-written file. Nothing is downloaded.
The compiler here is a small one (the ``.po`` files are ours, written by
tools/translations.py through Babel); Babel itself is needed only to extract
and update them.
"""
from __future__ import annotations

import ast
import io
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from .files import shipped, write_bytes_atomic
from .words import LANGUAGES, set_language

if TYPE_CHECKING:
    import gettext

DOMAIN = "roundtable"
PO_MAX_BYTES = 4 << 20


class CatalogError(ValueError):
    """A ``.po`` file that cannot be read (the language falls back to English)."""


def locale_dir() -> Path:
    """``locale/`` beside ``assets/`` (see ``store.files.shipped``)."""
    return shipped("locale")


def po_path(code: str, root: Path | None = None) -> Path:
    return (root or locale_dir()) / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def cache_dir() -> Path:
    home = os.environ.get("ROUNDTABLE_HOME")
    if home:
        return Path(home) / "cache"
    import platformdirs
    return Path(platformdirs.user_cache_dir("roundtable", appauthor=False))


def read_po(text: str) -> dict:
    """The messages of a ``.po`` file: msgid (or ``(msgid, msgid_plural)``) ->
    msgstr (or the list of plural forms); fuzzy and empty ones left out (the
    English then shows). The header (msgid "") is kept, fuzzy or not: it names
    the charset and the plural rule."""
    messages: dict = {}
    entry: dict = {}
    field = None
    fuzzy = False

    def finish() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and (not fuzzy or entry["msgid"] == ""):   # the header names the charset
            if "msgid_plural" in entry:
                forms = [entry[k] for k in sorted(k for k in entry if k.startswith("msgstr["))]
                if forms and all(forms):
                    messages[(entry["msgid"], entry["msgid_plural"])] = forms
            elif entry.get("msgstr"):
                messages[entry["msgid"]] = entry["msgstr"]
        entry, fuzzy = {}, False

    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            finish()
            field = None
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    finish()
                fuzzy = True
            continue
        if line.startswith('"'):
            if field is None:
                raise CatalogError(f"line {number}: text outside a message")
            entry[field] += _string(line, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid" and "msgid" in entry:
            keep_fuzzy = fuzzy
            finish()
            fuzzy = keep_fuzzy
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not keyword.startswith("msgstr["):
            raise CatalogError(f"line {number}: unknown keyword {keyword[:20]!r}")
        field = keyword
        entry[field] = _string(rest.strip(), number)
    finish()
    return messages


def _string(quoted: str, number: int) -> str:
    if not (len(quoted) >= 2 and quoted[0] == quoted[-1] == '"'):
        raise CatalogError(f"line {number}: a string must be in double quotes")
    try:
        return ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        raise CatalogError(f"line {number}: a string that cannot be read") from None


def mo_bytes(messages: dict) -> bytes:
    """The GNU ``.mo`` file of ``messages`` (as :func:`read_po` gives them)."""
    pairs = []
    for key, value in messages.items():
        msgid = "\0".join(key) if isinstance(key, tuple) else key
        msgstr = "\0".join(value) if isinstance(value, list) else value
        pairs.append((msgid.encode("utf-8"), msgstr.encode("utf-8")))
    pairs.sort()
    count = len(pairs)
    ids_at = 28
    strs_at = ids_at + 8 * count
    data_at = strs_at + 8 * count
    ids = b"".join(k + b"\0" for k, _ in pairs)
    table_ids, table_strs, offset = [], [], data_at
    for key, _ in pairs:
        table_ids.append(struct.pack("<II", len(key), offset))
        offset += len(key) + 1
    for _, value in pairs:
        table_strs.append(struct.pack("<II", len(value), offset))
        offset += len(value) + 1
    header = struct.pack("<7I", 0x950412DE, 0, count, ids_at, strs_at, 0, 0)
    return (header + b"".join(table_ids) + b"".join(table_strs) + ids
            + b"".join(v + b"\0" for _, v in pairs))


def compiled(po: Path, cache: Path | None = None) -> Path:
    """The ``.mo`` for ``po``: one shipped beside it (the built app), else one
    compiled into the cache now or on an earlier run (CatalogError, OSError)."""
    beside = po.with_suffix(".mo")
    try:
        if beside.is_file() and beside.stat().st_mtime >= po.stat().st_mtime:
            return beside
    except OSError:
        pass
    raw = po.read_bytes()[:PO_MAX_BYTES + 1]
    if len(raw) > PO_MAX_BYTES:
        raise CatalogError(f"{po.name} is larger than {PO_MAX_BYTES >> 20} MiB")
    import hashlib  # start-up: only a language other than English needs it, and it costs ms
    digest = hashlib.sha256(raw).hexdigest()[:16]
    target = (cache or cache_dir()) / "locale" / f"{po.parent.parent.name}-{digest}.mo"
    if target.is_file():
        return target
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CatalogError(f"{po.name} is not UTF-8") from None
    write_bytes_atomic(target, mo_bytes(read_po(text)))
    return target


def translations(code: str, root: Path | None = None) -> gettext.GNUTranslations:
    """The language's messages (CatalogError, OSError when they cannot be had).
    A cache that cannot be written costs nothing but the compiling: in memory."""
    import gettext  # start-up: English needs no catalog, and most launches are in English
    po = po_path(code, root)
    try:
        path = compiled(po)
    except OSError:
        if not po.is_file():
            raise
        text = po.read_bytes()[:PO_MAX_BYTES].decode("utf-8", errors="replace")
        return gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(text))))
    with open(path, "rb") as mo:
        return gettext.GNUTranslations(mo)


def load_language(code: str) -> str | None:
    """Speak ``code`` (a shipped language) from now on. None when all went
    well, else one line for the player: its messages cannot be read, and the
    language stays English."""
    if code == "en":
        set_language("en")
        return None
    try:
        set_language(code, translations(code))
    except (CatalogError, OSError) as exc:
        set_language("en")
        return (f"The {LANGUAGES.get(code, code)} translation cannot be read ({exc}): "
                f"English is used.")
    return None
