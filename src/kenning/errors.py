"""Kenning's exceptions: one root, a misuse family and a runtime family.

    KenningError
    ├── UsageError            the caller did something wrong (bad input, wrong kind)
    │   ├── ValidationError   a value failed validation (empty or oversized text, naive datetime)
    │   └── ConfigError       settings or wiring are inconsistent
    └── RuntimeFailure        something outside the caller's control went wrong
        ├── StoreError        the storage engine failed
        │   └── Conflict      a concurrent change won; nothing was applied
        ├── EmbedderError     the embedding model failed
        ├── LLMError          the language model failed or answered unusably
        ├── NotFound          no such record in this scope (also for other tenants' ids)
        └── Forbidden         the credentials do not allow this

``NotFound`` is deliberately raised for ids that exist in another scope: a
caller can never learn that a foreign id exists.
"""

from __future__ import annotations


class KenningError(Exception):
    """Root of every error Kenning raises on purpose."""


class UsageError(KenningError, ValueError):
    """The caller misused the API; retrying the same call fails the same way."""


class ValidationError(UsageError):
    """A value failed validation; nothing was changed."""


class ConfigError(UsageError):
    """Settings or wiring are inconsistent."""


class RuntimeFailure(KenningError):
    """A failure outside the caller's control."""


class StoreError(RuntimeFailure):
    """The storage engine failed; the operation was rolled back."""


class Conflict(StoreError):
    """A guarded change found the data changed under it; nothing was applied."""


class EmbedderError(RuntimeFailure):
    """The embedding model failed."""


class LLMError(RuntimeFailure):
    """The language model failed, timed out or answered with unusable output."""


class NotFound(RuntimeFailure, LookupError):
    """No such record in this scope."""


class Forbidden(RuntimeFailure):
    """The credentials do not allow this operation."""
