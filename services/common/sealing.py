"""Secrets at rest: agent secrets and game seeds are stored in Redis encrypted.

The cipher is ``cryptography``'s Fernet (AES-128-CBC with HMAC-SHA256, a time stamp and a
random IV per token; https://cryptography.io/en/latest/fernet/) under a ``MultiFernet``, so
the key can rotate: the keys come from ``LONGHOUSE_SECRET_KEYS``, Fernet keys (the URL-safe
base64 of 32 random bytes, ``python -c "from cryptography.fernet import Fernet;
print(Fernet.generate_key().decode())"``) separated by commas; the **first encrypts, every one
decrypts**. Rotating (README, "Rotating the secret key"): put a new key first and keep the old
one after it, restart, re-encrypt what is stored (``python -m services.coordinator.reseal``),
then drop the old key.

A stored value is ``fernet:`` + the token (:data:`PREFIX`). A value without the prefix was
written before encryption; it is read as it is, and the re-encryption command seals it.

Without ``LONGHOUSE_SECRET_KEYS`` a process uses a development key derived from a fixed text
(:func:`development_key`: the same in every process, so they still agree, but anyone can
derive it) and logs a warning once: fine for tests, never for production. ``make run`` and the
test stacks make a key of their own per run (``<data_dir>/secret.key``,
:mod:`services.launcher.stack`).
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from typing import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

ENV = "LONGHOUSE_SECRET_KEYS"
"""The environment variable of the keys (also the setting ``secret_keys``)."""
PREFIX = "fernet:"
"""What a sealed value starts with; the Fernet token follows."""
DEVELOPMENT_TEXT = "longhouse development secret key: not for production"
"""The text the development key is derived from (public: it protects nothing)."""


class UnsealError(ValueError):
    """A sealed value that none of the configured keys opens (a key was dropped too soon, or
    the value was tampered with)."""


def development_key() -> str:
    """The key used when ``LONGHOUSE_SECRET_KEYS`` is unset: the URL-safe base64 of
    ``sha256(DEVELOPMENT_TEXT)`` (a valid Fernet key that anyone can derive)."""
    return base64.urlsafe_b64encode(hashlib.sha256(DEVELOPMENT_TEXT.encode()).digest()).decode()


def generate_key() -> str:
    """A fresh random Fernet key (``Fernet.generate_key()``), as text."""
    return Fernet.generate_key().decode()


def parse_keys(text: str) -> list[str]:
    """The keys of a ``LONGHOUSE_SECRET_KEYS`` value: comma-separated, blanks ignored, in order.

    Raises:
        ValueError: an entry is not a Fernet key (32 bytes in URL-safe base64); the message names
            its position, never the key.
    """
    keys = [part.strip() for part in text.split(",") if part.strip()]
    for n, k in enumerate(keys, 1):
        try:
            Fernet(k)
        except (ValueError, TypeError):
            raise ValueError(f"{ENV}: key {n} is not a Fernet key (the URL-safe base64 of 32 bytes)") from None
    return keys


class Sealer:
    """Seals and opens secrets with a list of Fernet keys (the first seals, all open).

    Args:
        keys: Fernet keys as text, newest first (at least one).
    Raises:
        ValueError: no key, or a key that is not a Fernet key.
    """

    def __init__(self, keys: Sequence[str]):
        if not keys:
            raise ValueError("a Sealer needs at least one key")
        self._primary = Fernet(keys[0])
        self._all = MultiFernet([Fernet(k) for k in keys])

    @staticmethod
    def is_sealed(stored: str | bytes) -> bool:
        """True if ``stored`` is a sealed value (starts with :data:`PREFIX`)."""
        text = stored.decode() if isinstance(stored, bytes) else stored
        return text.startswith(PREFIX)

    def seal(self, plain: str) -> str:
        """``plain`` encrypted under the first key: ``fernet:<token>`` (a new token each call)."""
        return PREFIX + self._primary.encrypt(plain.encode("utf-8")).decode("ascii")

    def unseal(self, stored: str | bytes) -> str:
        """The plain text of a stored value; a value without :data:`PREFIX` (stored before
        encryption) is returned as it is.

        Raises:
            UnsealError: no configured key opens it.
        """
        text = stored.decode() if isinstance(stored, bytes) else stored
        if not text.startswith(PREFIX):
            return text
        try:
            return self._all.decrypt(text[len(PREFIX):].encode("ascii")).decode("utf-8")
        except InvalidToken:
            raise UnsealError("no key of LONGHOUSE_SECRET_KEYS opens a stored secret (was its key dropped "
                              "before the re-encryption?)") from None

    def current(self, stored: str | bytes) -> bool:
        """True if ``stored`` is sealed under the first key (nothing to re-encrypt)."""
        text = stored.decode() if isinstance(stored, bytes) else stored
        if not text.startswith(PREFIX):
            return False
        try:
            self._primary.decrypt(text[len(PREFIX):].encode("ascii"))
        except InvalidToken:
            return False
        return True

    def reseal(self, stored: str | bytes) -> str | None:
        """``stored`` sealed under the first key, or None if it already is. A plain value is
        sealed; one sealed under an older key is opened and sealed again.

        Raises:
            UnsealError: no configured key opens it.
        """
        if self.current(stored):
            return None
        return self.seal(self.unseal(stored))


def sealer_from(text: str) -> tuple[Sealer, bool]:
    """The sealer of a ``LONGHOUSE_SECRET_KEYS`` value and whether it is the development key
    (``text`` empty). Raises ValueError for a malformed key."""
    keys = parse_keys(text)
    if not keys:
        return Sealer([development_key()]), True
    return Sealer(keys), False


@lru_cache(maxsize=1)
def sealer() -> Sealer:
    """The process's sealer, from the setting ``secret_keys`` (``LONGHOUSE_SECRET_KEYS``), made
    once. Without keys it uses :func:`development_key` and logs the warning ``secret_keys_unset``
    once. Raises ValueError for a malformed key (at the first use, so a process fails at once)."""
    from services.common import logs
    from services.common.config import settings

    made, development = sealer_from(settings().secret_keys)
    if development:
        logs.get_logger().warning(
            "secret_keys_unset",
            detail=f"{ENV} is not set: agent secrets and game seeds are encrypted at rest with a development "
                   "key anyone can derive; set it in production (see the README, 'Rotating the secret key')")
    return made
