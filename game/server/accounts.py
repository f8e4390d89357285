"""Accounts: names that cannot be impersonated, passwords kept only as scrypt
hashes, session tokens.

No network and no storage here (the server stores an account's ``name_key``,
``password_hash`` and the SHA-256 of its session tokens). Hashing is slow on
purpose (tens of ms): the server runs it on a worker thread.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata

from ..net.protocol import ProtocolError

MIN_PASSWORD = 8
MAX_PASSWORD = 256
# scrypt: N = 2^14, r = 8 → 16 MiB of memory per hash (the parameters are kept in
# every stored hash, so they can be raised later without breaking old ones).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 14, 8, 1
SALT_BYTES = 16

# Letters that look like Latin ones in other scripts, and digits that pass for
# letters: a name's key maps them to the letter they imitate (after NFKC and
# case folding), so "Аlice" (Cyrillic А) and "A1ice" cannot pose as "alice".
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ɡ": "g", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    "0": "o", "1": "l", "|": "l", "ı": "i",
})
_SEPARATORS = " -_.'"          # allowed inside a name, ignored by its key
_ONE_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "CJK": "CJK"}


def _script(ch: str) -> str | None:
    """The script a letter belongs to (the first word of its Unicode name); None for
    digits and separators, which any script may use."""
    if ch.isdigit() or ch in _SEPARATORS:
        return None
    word = unicodedata.name(ch, "UNKNOWN").split()[0]
    return _ONE_SCRIPT.get(word, word)


def name_key(name: str) -> str:
    """The key that makes names unique: NFKC, case folded, look-alikes mapped,
    separators dropped. Raises ProtocolError ``bad_name`` for a name that mixes
    scripts (a common disguise) or holds anything but letters, marks, digits and
    `` -_.'``."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    scripts = set()
    for ch in folded:
        kind = unicodedata.category(ch)
        if ch not in _SEPARATORS and kind[0] not in "LMN":
            raise ProtocolError("bad_name", f"a name may hold letters, digits and "
                                            f"\" -_.'\" only, not {ch!r}")
        script = _script(ch) if kind[0] == "L" else None
        if script:
            scripts.add(script)
    if len(scripts) > 1:
        raise ProtocolError("bad_name", "a name may not mix alphabets ("
                                        + ", ".join(sorted(s.lower() for s in scripts)) + ")")
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded)
                   if unicodedata.category(ch) != "Mn")      # accents: "josé" poses as "jose"
    key = "".join(ch for ch in unicodedata.normalize("NFC", bare).translate(_LOOKALIKES)
                  if ch not in _SEPARATORS)
    if not key:
        raise ProtocolError("bad_name", "a name needs a letter or a digit")
    return key


def check_password(password: str, name: str | None = None) -> None:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ProtocolError("weak_password", f"a password has {MIN_PASSWORD}-{MAX_PASSWORD} "
                                             f"characters")
    if name is not None and password.casefold() == name.casefold():
        raise ProtocolError("weak_password", "the password may not be the name")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str, n: int = SCRYPT_N) -> str:
    """``scrypt$N$r$p$salt$hash`` (base64): a fresh salt for every hash."""
    salt = secrets.token_bytes(SALT_BYTES)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=SCRYPT_R, p=SCRYPT_P,
                            maxmem=256 * SCRYPT_R * n + (1 << 20), dklen=32)
    return f"scrypt${n}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


# Checked against when a name has no account, so that an unknown name costs as much
# time as a wrong password (no telling which names exist by the answer's speed).
_NOBODY = None


def verify_password(password: str, stored: str | None) -> bool:
    global _NOBODY
    if stored is None:
        _NOBODY = _NOBODY or hash_password("nobody has this password")
        stored, known = _NOBODY, False
    else:
        known = True
    try:
        _, n, r, p, salt, digest = stored.split("$")
        n, r, p = int(n), int(r), int(p)
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=n, r=r,
                             p=p, maxmem=256 * r * n + (1 << 20), dklen=len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected) and known


def new_session() -> tuple[str, str]:
    """(token for the client, its SHA-256 for the database)."""
    token = secrets.token_urlsafe(32)
    return token, session_hash(token)


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
