"""The rendered API reference (``GET /docs``): Swagger UI from the pinned package, no CDN, over
this gateway's own ``/openapi.json``; and ``GET /readyz`` of a gateway with embedded ports and
inline phases (what it checks follows the configuration)."""

from __future__ import annotations

import re

from gateway.apidocs import ASSETS, assets_dir, swagger_ui_version


def test_the_reference_page_loads_every_asset_from_this_gateway(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls, html
    assert all(u.startswith("/") and not u.startswith("//") for u in urls), urls  # nothing from elsewhere
    assert 'data-spec-url="/openapi.json"' in html
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.data, url
    bundle = client.get("/docs/assets/swagger-ui-bundle.js")
    assert bundle.mimetype == "text/javascript"
    assert bundle.data == (assets_dir() / "swagger-ui-bundle.js").read_bytes()
    assert b"SwaggerUIBundle" in bundle.data
    start = client.get("/static/js/apidocs.js").get_data(as_text=True)
    assert "SwaggerUIBundle(" in start and "validatorUrl: null" in start


def test_swagger_ui_is_a_release_that_reads_openapi_3_1(client):
    major = int(swagger_ui_version().lstrip("v").split(".")[0])
    assert major >= 5, swagger_ui_version()  # Swagger UI 4 cannot draw an OpenAPI 3.1 document
    assert client.get("/openapi.json").get_json()["openapi"].startswith("3.1")


def test_an_unknown_asset_is_a_json_404(client):
    answer = client.get("/docs/assets/..%2Fflask_swagger_ui.py")
    assert answer.status_code == 404
    answer = client.get("/docs/assets/index.html")
    assert answer.status_code == 404 and answer.get_json()["error"] == "not_found"


def test_the_reference_and_its_assets_are_in_the_openapi_document(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    assert "/docs" in paths and "/readyz" in paths
    name = paths["/docs/assets/{name}"]["get"]["parameters"][0]
    assert name["schema"]["enum"] == sorted(ASSETS)


def test_ready_checks_only_what_this_configuration_runs(client, redis_client):
    answer = client.get("/readyz")  # embedded ports, inline phases: Redis and a mover only
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["error"] == "not_ready" and "movers" in body["reason"]
    assert body["checks"] == {"redis": "ok", "movers": "no mover heartbeat in the store"}
    redis_client.set("longhouse:mover:test", 1, ex=15)
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ready", "checks": {"redis": "ok", "movers": "ok"}}
