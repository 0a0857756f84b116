"""The installable app's routes: the service worker at the site root, the manifest and its icons, the offline
page (in the browser's language, nothing inline: the CSP allows no inline script or style)."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from PIL import Image


def test_service_worker_is_served_from_the_root(client: Any) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert "javascript" in r.headers["content-type"]
    assert r.headers["service-worker-allowed"] == "/"
    assert r.headers["cache-control"] == "no-cache"
    for event in ("install", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{event}"' in r.text
    for asset in re.findall(r'"(/[^"]*)"', r.text.split("OFFLINE_ASSETS = ", 1)[1].split(";", 1)[0]):
        assert client.get(asset).status_code == 200, asset  # what the worker caches on install exists


def test_manifest_makes_the_site_installable(client: Any) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(r.text)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    purposes: set[str] = set()
    for icon in manifest["icons"]:
        image = Image.open(io.BytesIO(client.get(icon["src"]).content))
        width, height = (int(x) for x in icon["sizes"].split("x"))
        assert image.format == "PNG" and image.size == (width, height), icon
        purposes.add(icon["purpose"])
    assert {"any", "maskable"} <= purposes
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<script type="module" src="/static/js/pwa.js"></script>' in page


def test_offline_page_in_the_browsers_language(client: Any) -> None:
    english = client.get("/offline")
    assert english.status_code == 200 and "The connection is gone" in english.text
    german = client.get("/offline", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert 'lang="de"' in german.text and "Die Verbindung ist weg" in german.text
    assert "<script" not in english.text and "<style" not in english.text and " on" + "click=" not in english.text


def test_table_page_offers_the_opt_in(client: Any) -> None:
    page = client.get("/tables/abc").text
    assert page.count("push-toggle") == 2 and page.count("push-toggle tool hidden") == 1  # waiting room, toolbar
    assert "Notify me when it is my turn" in page
    main = client.get("/static/js/table/main.js").text
    assert 'import "./alerts.js";' in main and 'import { initPush } from "./push.js";' in main
