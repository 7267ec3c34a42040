"""Bases of every game's content models (``services/rules/<game>/content.py``): strict,
frozen pydantic models, and items that say where they come from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator


class ContentModel(BaseModel):
    """A content model: unknown fields are refused and instances are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Provenanced(ContentModel):
    """Base of every content item that says where it comes from.

    ``provenance`` is ``"rulebook <section>"`` (the rulebook fixes the item) or
    ``"reconstructed"`` (``docs/house-rules.md`` says why); any other value raises pydantic
    ``ValidationError``.
    """

    provenance: str

    @field_validator("provenance")
    @classmethod
    def _provenance(cls, v: str) -> str:
        if not (v == "reconstructed" or v.startswith("rulebook ")):
            raise ValueError('provenance is "reconstructed" or "rulebook <section>"')
        return v


def read_files(model: type[BaseModel], directory: Path) -> dict[str, Any]:
    """The raw content of ``model``: for each of its fields ``f``, ``directory/<f>.json``
    parsed (not yet checked). Raises OSError or ``json.JSONDecodeError`` for a missing or
    malformed file."""
    return {name: json.loads((directory / f"{name}.json").read_text(encoding="utf-8"))
            for name in model.model_fields}
