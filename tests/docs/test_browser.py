"""The built site in a real browser: every page loads in headless Chromium without a console
error, and every image on it (plots, screenshots) has decoded to a picture.

Uses Debian's Chromium (``apt-get install -y chromium``) through Playwright's Python package;
no browser is downloaded. The site is served from this machine's loopback only. With
``KIPP_DOCS_SHOTS=FOLDER`` the test also saves full-page screenshots of two pages there.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.docs.conftest import pages

pytestmark = pytest.mark.xdist_group("docs-site")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOT_PAGES = ("performance/", "design/")


def _quiet_handler(site: Path):
    class Handler(SimpleHTTPRequestHandler):
        def log_message(self, format, *args):  # http.server's own signature: no request log in the test output
            pass

    return functools.partial(Handler, directory=str(site))


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.skip("no Chromium: install Debian's with `apt-get install -y chromium` "
                    "(the test drives /usr/bin/chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' brings playwright")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def served(site):
    """The built site's base URL on 127.0.0.1 (a port the system picks)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _quiet_handler(site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_every_page_loads_without_console_errors_and_its_images_show(site, served, browser):
    shots = os.environ.get("KIPP_DOCS_SHOTS")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    images_seen = 0
    for index_html in pages(site):
        path = index_html.parent.relative_to(site).as_posix()
        url = served + ("" if path == "." else path + "/")
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message, errors=errors: errors.append(message.text)
                if message.type == "error" else None)
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.on("requestfailed", lambda request, errors=errors: errors.append(f"failed: {request.url}"))
        response = page.goto(url, wait_until="load")
        if response is None or response.status != 200:
            problems.append(f"{url}: HTTP {response.status if response else 'no response'}")
        images = page.evaluate("Array.from(document.images)"
                               ".map(i => [i.currentSrc || i.src, i.complete, i.naturalWidth])")
        for src, complete, width in images:
            if not complete or width == 0:
                problems.append(f"{url}: image {src} did not load")
        images_seen += len(images)
        problems += [f"{url}: console: {error}" for error in errors]
        if shots and any(path + "/" == name for name in SHOT_PAGES):
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / f"{path.replace('/', '_')}.png"), full_page=True)
        page.close()
    context.close()
    assert not problems, "\n".join(problems)
    assert images_seen >= 15, f"only {images_seen} images on the whole site"
