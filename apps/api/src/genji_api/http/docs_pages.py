"""The OpenAPI pages under /schema, served whole by the API itself.

Swagger UI's scripts and stylesheet come from the pinned `swagger-ui-py` package and are served
under /schema/assets, so the page works without reaching any other host. The document itself is
at /schema/openapi.json and /schema/openapi.yaml.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from litestar import Router
from litestar.openapi.plugins import (
    JsonRenderPlugin,
    OpenAPIRenderPlugin,
    SwaggerRenderPlugin,
    YamlRenderPlugin,
)
from litestar.static_files import create_static_files_router

SCHEMA_PATH = "/schema"
ASSETS_PATH = f"{SCHEMA_PATH}/assets"
ASSET_FILES = (
    "swagger-ui-bundle.js",
    "swagger-ui-standalone-preset.js",
    "swagger-ui.css",
    "favicon-32x32.png",
)


def _assets_directory() -> Path:
    # Located without importing the package, which pulls in its framework adapters.
    spec = find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the swagger-ui-py package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "static"


def render_plugins() -> list[OpenAPIRenderPlugin]:
    """Swagger UI at /schema and /schema/swagger, and the document as JSON and YAML."""
    return [
        SwaggerRenderPlugin(
            path=["/", "/swagger"],
            js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            css_url=f"{ASSETS_PATH}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
        ),
        JsonRenderPlugin(),
        YamlRenderPlugin(),
    ]


def assets_router() -> Router:
    """The renderer's files; public like the pages that load them."""
    return create_static_files_router(
        path=ASSETS_PATH,
        directories=[_assets_directory()],
        opt={"exclude_from_auth": True},
        include_in_schema=False,
    )
