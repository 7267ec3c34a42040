"""The docs site's samples that need a running stack (pages with ``samples: stack``: the
quickstart, the tournament) run against the test stack, with ``LONGHOUSE_URL`` and
``LONGHOUSE_OPERATOR_KEY_FILE`` set as a reader's shell would have them."""

from __future__ import annotations

import pytest

from tests.docs.samples import nav_pages, read_page, run_page

STACK_PAGES = [page for page in (read_page(path) for path in nav_pages()) if page.kind == "stack"]


@pytest.mark.stack
@pytest.mark.parametrize("page", STACK_PAGES, ids=lambda p: p.path)
def test_the_stack_samples_run(page, stack, tmp_path):
    key_file = tmp_path / "operator.key"
    key_file.write_text(stack.operator_key)
    outputs = run_page(page, {"LONGHOUSE_URL": stack.gateway_url, "LONGHOUSE_OPERATOR_KEY_FILE": str(key_file),
                              "LONGHOUSE_OPERATOR_KEY": ""}, tmp_path)
    assert outputs and all(out.strip() for out in outputs), outputs
    if page.path == "quickstart.md":
        assert '"status": "ready"' in outputs[-1] or '"status":"ready"' in outputs[-1], outputs
        assert "game over after" in outputs[0], outputs
