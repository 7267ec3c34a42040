"""Re-encrypt every secret stored at rest under the first key of ``LONGHOUSE_SECRET_KEYS``.

``python -m services.coordinator.reseal`` (README, "Rotating the secret key"): after a new key
was put first in ``LONGHOUSE_SECRET_KEYS`` (the old ones after it) and every process restarted
with it, this rewrites each stored secret that the first key did not seal, so the old key can
then be dropped. It also seals secrets stored before encryption existed. It covers:

* game seeds, ``game:{G}:seed`` (:class:`services.coordinator.redis_store.RedisSeeds`);
* the bot seats' seeds in each game's meta (``game:{G}:meta``, field ``meta``, ``bots``);
* agents' secrets, the hash ``longhouse:agents`` (:data:`services.agents.registry.SEALED_FIELDS`);
* tournaments' seeds (:data:`TOURNAMENT_DOCUMENTS`): the tournament seed in its spec
  (``tournament:{t:<id>}:spec``) and the game seed of each planned match (``:plan``) and of each
  result (``:results``), the field ``seed`` of each JSON document
  (:data:`services.tournament.jobs.SEALED_FIELDS`; named here because the tournament layer sits
  above this one).

Each value is replaced by a compare-and-set script (only if it is still what was read; a time to
live is kept), so the command may run while the stack serves. It is idempotent: a second run
rewrites nothing. A value no configured key opens is counted as ``failed`` and left alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from services.common.redis_client import text
from services.common.sealing import Sealer, UnsealError
from services.rules.core import canonical_json

_SWAP_STRING = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
"""
_SWAP_FIELD = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
SCAN_COUNT = 500
"""Keys asked for per SCAN call."""
TOURNAMENT_DOCUMENTS = {"tournament:*:spec": "string", "tournament:*:plan": "hash", "tournament:*:results": "hash"}
"""Where tournaments store JSON documents with a sealed ``seed`` (key pattern -> Redis type: one
document, or one per hash field), as :class:`services.tournament.jobs.TournamentStore` writes them."""
TOURNAMENT_FIELDS = ("seed",)
"""The sealed fields of those documents (:data:`services.tournament.jobs.SEALED_FIELDS`)."""


@dataclass
class ResealCounts:
    """What one run did: values rewritten under the first key, values already under it, values
    that changed under it (skipped: the next run sees them), values no key opens (with where)."""

    resealed: int = 0
    current: int = 0
    raced: int = 0
    failed: list[str] = field(default_factory=list)

    def line(self) -> str:
        """One line for the operator."""
        return (f"re-encrypted {self.resealed}, already under the first key {self.current}, "
                f"changed meanwhile {self.raced}, unreadable {len(self.failed)}")


def _new_value(sealer: Sealer, stored: str, where: str, counts: ResealCounts) -> str | None:
    """``stored`` sealed under the first key, or None (already is, or unreadable: counted)."""
    try:
        fresh = sealer.reseal(stored)
    except UnsealError:
        counts.failed.append(where)
        return None
    if fresh is None:
        counts.current += 1
    return fresh


def _new_document(sealer: Sealer, raw: Any, fields: tuple[str, ...], where: str,
                  counts: ResealCounts, dump: Callable[[Any], str] | None = None) -> str | None:
    """The JSON document ``raw`` with each of ``fields`` sealed under the first key, written by
    ``dump`` (compact JSON by default: its owner's own form), or None if nothing in it changes
    (each field counted: already current, or unreadable)."""
    record = json.loads(raw)
    changed = False
    for name in fields:
        if isinstance(record.get(name), str):
            fresh = _new_value(sealer, record[name], f"{where} {name}", counts)
            if fresh is not None:
                record[name], changed = fresh, True
    if not changed:
        return None
    return dump(record) if dump is not None else json.dumps(record, separators=(",", ":"))


def reseal_all(client: Any, sealer: Sealer) -> ResealCounts:
    """Re-encrypt every stored secret of the game store ``client`` (a redis-py client, or a
    cluster client) under ``sealer``'s first key; returns the counts. Raises redis errors."""
    from services.agents.registry import KEY as AGENTS, SEALED_FIELDS

    counts = ResealCounts()
    swap_string = client.register_script(_SWAP_STRING)
    swap_field = client.register_script(_SWAP_FIELD)

    def swapped(ok: Any) -> None:
        if ok:
            counts.resealed += 1
        else:
            counts.raced += 1

    for name in client.scan_iter(match="game:*:seed", count=SCAN_COUNT):
        raw = client.get(name)
        if raw is None:
            continue
        fresh = _new_value(sealer, text(raw), text(name), counts)
        if fresh is not None:
            swapped(swap_string(keys=[name], args=[raw, fresh]))
    for name in client.scan_iter(match="game:*:meta", count=SCAN_COUNT):
        raw = client.hget(name, "meta")
        if raw is None:
            continue
        meta = json.loads(raw)
        changed = False
        for seat, bot in (meta.get("bots") or {}).items():
            if isinstance(bot, dict) and isinstance(bot.get("seed"), str):
                fresh = _new_value(sealer, bot["seed"], f"{text(name)} bot {seat}", counts)
                if fresh is not None:
                    bot["seed"], changed = fresh, True
        if changed:
            swapped(swap_field(keys=[name], args=["meta", raw, canonical_json(meta)]))
    for agent_id, raw in client.hgetall(AGENTS).items():
        fresh = _new_document(sealer, raw, tuple(SEALED_FIELDS), f"agent {text(agent_id)}", counts,
                              dump=lambda record: json.dumps(record, sort_keys=True))  # the registry's form
        if fresh is not None:
            swapped(swap_field(keys=[AGENTS], args=[agent_id, raw, fresh]))
    for pattern, kind in TOURNAMENT_DOCUMENTS.items():
        for name in client.scan_iter(match=pattern, count=SCAN_COUNT):
            if kind == "string":
                raw = client.get(name)
                fresh = None if raw is None else _new_document(sealer, raw, TOURNAMENT_FIELDS, text(name), counts)
                if fresh is not None:
                    swapped(swap_string(keys=[name], args=[raw, fresh]))
                continue
            for index, raw in client.hgetall(name).items():
                fresh = _new_document(sealer, raw, TOURNAMENT_FIELDS, f"{text(name)} {text(index)}", counts)
                if fresh is not None:
                    swapped(swap_field(keys=[name], args=[index, raw, fresh]))
    return counts


def main(argv: list[str] | None = None) -> int:
    """Run :func:`reseal_all` on the configured game store with the configured keys; exit code 0,
    1 if a value could not be opened (said with where), 2 if the keys are unset or malformed."""
    from services.common.config import settings
    from services.common.redis_client import connect, redact
    from services.common.sealing import ENV, sealer_from

    parser = argparse.ArgumentParser(prog="python -m services.coordinator.reseal", description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=None, help="the game store (default: the LONGHOUSE_* settings)")
    args = parser.parse_args(argv)
    cfg = settings()
    try:
        made, development = sealer_from(cfg.secret_keys)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if development:
        print(f"{ENV} is not set: set it to the new key first, then the old ones", file=sys.stderr)
        return 2
    url = args.url or cfg.redis_url
    counts = reseal_all(connect(url), made)
    print(f"{redact(url)}: {counts.line()}")
    for where in counts.failed[:20]:
        print(f"  no key opens {where}")
    return 1 if counts.failed else 0


if __name__ == "__main__":
    sys.exit(main())
