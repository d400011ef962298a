"""Shared fixtures.

PostgreSQL: tests marked `postgres` use the `pg_url` fixture, a store URL on database `test` at 127.0.0.1:5432
(user `postgres`, trust auth) with a schema of its own for the test session, dropped at the end (or `pg_own_url`,
a schema of the test's own). When the server is unreachable those tests are skipped, unless
WHISPERS_REQUIRE_POSTGRES=1 (as in CI), when they fail.
"""

import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

# The tests read English unless a test asks for another language (`--lang`): the machine's locale is not theirs.
os.environ["WHISPERS_LANG"] = "en"
# The processes the tests start (whispers runs, servers, racing writers) keep their compiled modules, as a user's
# Python does: where the environment sets PYTHONDONTWRITEBYTECODE, each would compile whispers again (half of what a
# CLI run costs). This process's own setting was read at its start: only its children change.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)



def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true",
                     help="run the random-game and property tests at their long sizes (nightly; tests/sizes.py)")


def pytest_configure(config: pytest.Config) -> None:
    # before the test modules are imported, which read their sizes (tests/sizes.py) as they load; xdist's workers
    # are given the option and run this too
    if config.getoption("--slow"):
        os.environ["WHISPERS_SLOW"] = "1"


PG_CONNECT: dict[str, Any] = {"host": "127.0.0.1", "port": 5432, "dbname": "test", "user": "postgres"}


def _pg_schema() -> Iterator[str]:
    """A store URL on a schema of its own, dropped afterwards (skipped, or failed in CI, without PostgreSQL)."""
    try:
        import psycopg
        from psycopg import sql

        conn = psycopg.connect(**PG_CONNECT, connect_timeout=3, autocommit=True)
    except Exception as e:  # ImportError or any connection failure: either way there is no PostgreSQL
        reason = f"PostgreSQL at {PG_CONNECT['host']}:{PG_CONNECT['port']} is unusable: {e}"
        if os.environ.get("WHISPERS_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"WHISPERS_REQUIRE_POSTGRES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    schema = f"whispers_test_{secrets.token_hex(6)}"
    with conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    user, host, port, dbname = (PG_CONNECT[k] for k in ("user", "host", "port", "dbname"))
    try:
        yield f"postgresql://{user}@{host}:{port}/{dbname}?schema={schema}"
    finally:
        with psycopg.connect(**PG_CONNECT, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL store URL whose schema exists for this test session only (shared by its tests)."""
    yield from _pg_schema()


@pytest.fixture
def pg_own_url() -> Iterator[str]:
    """A PostgreSQL store URL on a schema of this test's own: for a test that reads every game in its store."""
    yield from _pg_schema()


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's headless Chromium through its chromedriver (Selenium), one per test session (per xdist worker):
    its start is the dearest part of a short browser test. Tests take it as `browser`, which tidies it after each."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from test_browser import CHROMEDRIVER, CHROMIUM, WAIT

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--user-data-dir={tmp_path_factory.mktemp('profile')}", "--hide-scrollbars"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The session's Chromium, handed to the next test as a fresh one would be: after each test every window but
    one is closed, the one left shows a blank page at phone size (no live stream still listening to a server
    that is gone), what the pages stored (local storage, cookies) is cleared for each origin they were on, and
    the console's lines are dropped. The test files that use it skip when Chromium or its driver is missing
    (tests/test_browser.py's `missing`)."""
    yield chromium
    from test_browser import PHONE

    origins = set()
    for handle in chromium.window_handles:
        chromium.switch_to.window(handle)
        url = chromium.current_url
        if url.startswith("http"):
            origins.add("/".join(url.split("/")[:3]))
        chromium.get("about:blank")
    for handle in chromium.window_handles[1:]:
        chromium.switch_to.window(handle)
        chromium.close()
    chromium.switch_to.window(chromium.window_handles[0])
    for origin in origins:
        chromium.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})
    size = chromium.get_window_size()
    if (size["width"], size["height"]) != PHONE:
        chromium.set_window_size(*PHONE)
    chromium.get_log("browser")
