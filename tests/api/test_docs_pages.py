"""The API's documentation pages load everything they need from the API itself."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from litestar.testing import AsyncTestClient

pytestmark = pytest.mark.queue

PAGES = ("/schema", "/schema/swagger")
REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
ABSOLUTE = re.compile(r"""["'(](?:https?:)?//[^"')\s]+""", re.IGNORECASE)


@pytest.mark.parametrize("page", PAGES)
async def test_docs_page_and_every_asset_it_references_come_from_the_api(
    api: AsyncTestClient,  # type: ignore[type-arg]
    page: str,
) -> None:
    response = await api.get(page, headers={"X-API-KEY": ""})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    foreign = [url for url in ABSOLUTE.findall(html) if "testserver" not in url]
    assert not foreign, f"{page} names other hosts: {foreign}"
    references = REFERENCE.findall(html)
    assert len(references) >= 3, f"{page} references no scripts or stylesheets: {html[:500]}"
    base = str(api.base_url) + page
    for reference in references:
        url = urljoin(base, reference)
        assert urlsplit(url).netloc == urlsplit(base).netloc, f"{reference} is on another host"
        asset = await api.get(url, headers={"X-API-KEY": ""})
        assert asset.status_code == 200, f"{reference}: {asset.status_code}"
        assert asset.content, f"{reference} is empty"


async def test_openapi_document_is_served_without_a_key(
    api: AsyncTestClient,  # type: ignore[type-arg]
) -> None:
    for path in ("/schema/openapi.json", "/schema/openapi.yaml"):
        response = await api.get(path, headers={"X-API-KEY": ""})
        assert response.status_code == 200, (path, response.text[:200])
