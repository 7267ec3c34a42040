"""MkDocs hook of the docs site (``make docs``): a page line ``<!-- moves: GAME -->`` becomes the
table of GAME's moves, generated from its catalog entry's ``move_schema`` (the strict move models
of ``services/rules/<game>/rules.py``, as ``GET /catalog/<game>`` serves them): each move's
``type``, its fields with their JSON types and bounds, and the model's own description with its
example. So the site never drifts from the engine's moves."""

from __future__ import annotations

import re
from typing import Any

MARKER = re.compile(r"^<!-- moves: ([a-z_]+) -->$", re.MULTILINE)


def _field(name: str, schema: dict[str, Any]) -> str:
    """One field as ``name`` (type, bounds)."""
    kind = schema.get("type") or ("/".join(str(v) for v in schema["enum"]) if "enum" in schema else "any")
    bounds = [f"{key} {schema[key]}" for key in ("minimum", "maximum", "pattern", "maxLength") if key in schema]
    if "enum" in schema and "type" in schema:
        bounds.append("one of " + ", ".join(f"`{v}`" for v in schema["enum"]))
    return f"`{name}` ({kind}{'; ' + '; '.join(bounds) if bounds else ''})".replace("|", "\\|")


def moves_table(game: str) -> str:
    """The Markdown table of ``game``'s moves (see the module docstring)."""
    from services.rules.catalog import game_entry

    schema = game_entry(game)["move_schema"]
    rows = ["| `type` | fields | what it does |", "|---|---|---|"]
    for name in sorted(schema["$defs"]):
        model = schema["$defs"][name]
        props = model.get("properties", {})
        if "type" not in props or "const" not in props["type"]:
            continue
        fields = ", ".join(_field(k, v) for k, v in props.items() if k != "type") or "none"
        text = " ".join((model.get("description") or "").split()).replace("``", "`").replace("|", "\\|")
        rows.append(f"| `{props['type']['const']}` | {fields} | {text} |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, **_kwargs: Any) -> str:
    """MkDocs' hook: replace each moves marker with its table."""
    return MARKER.sub(lambda match: moves_table(match.group(1)), markdown)
