"""A ruleset or board is known by its content, not by the id it claims (DESIGN "The store": "A game pins the
content (hash) of its board, ruleset and decree catalogue, not only their names").

The two attacks: a ruleset file that says `id = "official"` with a hand limit of 9 (EN "5-Card Limit" says 5),
and a board file that says `id = "standin"` with three more cities. Neither may pass for the shipped one: `new`
and `import` refuse them unless `--allow-modified`, and once allowed they are shown as modified in `games`, the
status line, the log, `score`, the record file's header, `verify`, `stats` and the standings.
"""

import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import msgpack
import pytest
from click.testing import CliRunner, Result

from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import RulesetError
from whispers.ledger.core.pins import content_hash, short
from whispers.ledger.io import recordfile
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import replay_lines
from whispers.ledger.io.ruleset_files import load_ruleset, parse_ruleset
from whispers.ledger.io.shipped import pin
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import VerifyError, verify
from whispers.projections.standings import standings_data
from whispers.projections.stats import summary
from whispers.projections.timeline import timeline

FIXTURES = resources.files("whispers.fixtures")
OFFICIAL_TOML = FIXTURES.joinpath("rulesets", "official.toml").read_text(encoding="utf-8")
STANDIN_TOML = FIXTURES.joinpath("boards", "standin.toml").read_text(encoding="utf-8")
# A finished two-player game whose moves stand under either attack (neither changes a legal move).
GAME_TEXT = FIXTURES.joinpath("games", "official-2p.txt").read_text(encoding="utf-8")


def hand_limit_9() -> str:
    """The first attack: claims to be the official rules, lifts EN "5-Card Limit" to 9."""
    changed = re.sub(r"^hand_limit = 5\b", "hand_limit = 9", OFFICIAL_TOML, count=1, flags=re.M)
    assert changed != OFFICIAL_TOML and 'id = "official"' in changed
    return changed


def three_more_cities() -> str:
    """The second attack: claims to be the stand-in board, with one more city in each of three regions."""
    count = iter(range(3))
    changed = re.sub(r"^cities = (\d+)", lambda m: f"cities = {int(m[1]) + 1}" if next(count, None) is not None
                     else m[0], STANDIN_TOML, flags=re.M)
    assert changed != STANDIN_TOML and 'id = "standin"' in changed
    return changed


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "evil-rules.toml").write_text(hand_limit_9(), encoding="utf-8")
    (tmp_path / "evil-board.toml").write_text(three_more_cities(), encoding="utf-8")
    (tmp_path / "house.toml").write_text(hand_limit_9().replace('id = "official"', 'id = "house"'), encoding="utf-8")
    return tmp_path


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "whispers.sqlite"


def invoke(store: Path, *args: str) -> Result:
    return CliRunner().invoke(whispers, list(args), env={"WHISPERS_STORE": str(store)}, prog_name="whispers")


def ok(result: Result) -> str:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def refused(result: Result, *contains: str) -> None:
    assert result.exit_code == 2, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stdout + result.stderr and len(result.stderr.splitlines()) == 1
    for text in contains:
        assert text in result.stderr, result.stderr


def names(store: Path) -> list[str]:
    if not store.exists():
        return []
    with open_store(str(store)) as s:
        return s.names()


def game_under(ruleset: str = "official", board: str = "standin") -> str:
    return GAME_TEXT.replace("game ruleset=official board=standin", f"game ruleset={ruleset} board={board}")


ATTACKS = {
    "ruleset": ("--ruleset", "evil-rules.toml", "official", lambda: load_ruleset("official").content_hash),
    "board": ("--board", "evil-board.toml", "standin", lambda: load_board("standin").content_hash),
}


# --- the pin itself -----------------------------------------------------------------------------------------


def test_shipped_rulesets_and_boards_are_pinned_as_shipped() -> None:
    for rid in ("official", "advanced", "revised"):
        shipped = pin("ruleset", rid, load_ruleset(rid).content_hash)
        assert (shipped.status, shipped.label) == ("shipped", rid)
    standin = pin("board", "standin", load_board("standin").content_hash)
    assert (standin.status, standin.label) == ("shipped", "standin")


def test_the_shipped_hashes_shortcut_is_current() -> None:
    """fixtures/shipped-hashes.json is what tools/shipped_hashes.py writes from the shipped files today."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(root / "tools" / "shipped_hashes.py"), "--check"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("kind", "ident"), [("ruleset", "official"), ("ruleset", "revised"), ("board", "standin")])
def test_a_shipped_hash_is_the_parsed_files_whatever_the_shortcut_says(kind: str, ident: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from whispers.ledger.io import shipped

    parsed = (load_ruleset(ident) if kind == "ruleset" else load_board(ident)).content_hash
    shipped.shipped_hash.cache_clear()
    assert shipped.shipped_hash(kind, ident) == parsed  # by the shortcut
    # a shortcut written for other bytes of the file (an edited fixture, the tool not run) is not used
    monkeypatch.setattr(shipped, "_known", lambda: {f"{kind}/{ident}": ["0" * 64, "sha256:" + "f" * 64]})
    shipped.shipped_hash.cache_clear()
    assert shipped.shipped_hash(kind, ident) == parsed
    monkeypatch.setattr(shipped, "_known", dict)  # no shortcut file at all
    shipped.shipped_hash.cache_clear()
    assert shipped.shipped_hash(kind, ident) == parsed
    shipped.shipped_hash.cache_clear()


@pytest.mark.parametrize("ident", ["../rulesets/official", "official.toml", "", "OFFICIAL", "standin/../official"])
def test_only_a_shipped_files_own_id_is_looked_up(ident: str) -> None:
    from whispers.ledger.io.shipped import shipped_hash

    assert shipped_hash("ruleset", ident) is None and shipped_hash("board", ident) is None


def test_the_ruleset_hash_is_canonical_like_the_boards() -> None:
    """Comments, layout and key order do not change what a ruleset is; a changed knob does."""
    official = load_ruleset("official")
    assert official.content_hash == content_hash(official.to_data())
    relaid = "\n".join(line.split("#")[0].rstrip() for line in OFFICIAL_TOML.splitlines())
    assert parse_ruleset(relaid, "relaid").content_hash == official.content_hash
    assert parse_ruleset(hand_limit_9(), "evil").content_hash != official.content_hash
    board = load_board("standin")
    assert board.content_hash == content_hash(board.to_data())


def test_the_two_attacks_are_modified_and_an_unshipped_id_is_custom() -> None:
    evil = parse_ruleset(hand_limit_9(), "evil")
    modified = pin("ruleset", evil.id, evil.content_hash)
    assert modified.status == "modified" and modified.label == f"official (modified {short(evil.content_hash)})"
    assert "MODIFIED, content differs from the shipped official" in modified.sentence()
    from whispers.ledger.io.board_files import parse_board

    board = parse_board(three_more_cities().encode(), "evil")
    assert pin("board", board.id, board.content_hash).label == f"standin (modified {short(board.content_hash)})"
    house = pin("ruleset", "house", evil.content_hash)
    assert (house.status, house.label) == ("custom", f"custom:house ({short(evil.content_hash)})")


def test_a_ruleset_id_is_a_plain_id_not_free_text() -> None:
    """An id is written on the log's game line and beside every game: no look-alike with spaces or capitals."""
    for bad in ("official ", "Official", "official (modified 00000000)", "house\nrules"):
        with pytest.raises(RulesetError, match="must match"):
            parse_ruleset(OFFICIAL_TOML.replace('id = "official"', f"id = {json.dumps(bad)}"), "x.toml")


# --- refused unless allowed ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ATTACKS)
def test_new_and_import_refuse_a_modified_shipped_id_and_store_nothing(kind: str, files: Path, store: Path) -> None:
    option, file, ident, _ = ATTACKS[kind]
    refused(invoke(store, "new", "g", "--players", "raven,rat", option, str(files / file)),
            f"{kind} '{ident}' is not the shipped {ident}", "--allow-modified")
    notation = files / "g.txt"
    notation.write_text(game_under(**{kind: str(files / file)}), encoding="utf-8")
    refused(invoke(store, "import", str(notation)), f"is not the shipped {ident}")
    assert names(store) == []


@pytest.mark.parametrize("kind", ATTACKS)
def test_import_of_a_record_file_refuses_a_modified_shipped_id(kind: str, files: Path, store: Path) -> None:
    _, file, ident, _ = ATTACKS[kind]
    game = replay_lines("g", game_under(**{kind: str(files / file)}).splitlines(), allow_modified=True)
    record = files / "g.whispers"
    record.write_bytes(recordfile.dumps("g", [e.to_fact() for e in game.events]))
    refused(invoke(store, "import", str(record)), f"is not the shipped {ident}")
    assert names(store) == []
    ok(invoke(store, "import", str(record), "--allow-modified"))
    assert names(store) == ["g"]


# --- shown as modified everywhere ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ATTACKS)
def test_a_modified_game_is_shown_as_modified_everywhere(kind: str, files: Path, store: Path) -> None:
    option, file, ident, shipped_hash = ATTACKS[kind]
    notation = files / "g.txt"
    notation.write_text(game_under(**{kind: str(files / file)}), encoding="utf-8")
    ok(invoke(store, "import", str(notation), "--allow-modified"))
    ok(invoke(store, "new", "fresh", "--players", "raven,rat", option, str(files / file), "--allow-modified"))
    digest = content_hash(ev.from_fact(_facts(store, "g")[0]).__getattribute__(kind))
    label = f"{ident} (modified {short(digest)})"

    listed = {row["game"]: row for row in json.loads(ok(invoke(store, "games", "--json")))}
    assert listed["g"][kind] == label and listed["fresh"][kind] == label
    assert listed["g"]["pins"][kind]["status"] == "modified"
    assert all(label in line for line in ok(invoke(store, "games")).splitlines())
    assert label in ok(invoke(store, "status", "fresh", "--json"))
    assert label in " ".join(ok(invoke(store, "score", "g")).split())  # the table title wraps on a narrow screen
    assert json.loads(ok(invoke(store, "score", "g", "--json")))[kind] == label
    if kind == "ruleset":
        assert json.loads(ok(invoke(store, "stats", "g", "--json")))["ruleset"] == label
    events = [ev.from_fact(f) for f in _facts(store, "g")]
    assert label in timeline(events)

    log = ok(invoke(store, "log", "g")).splitlines()
    game_line = next(line for line in log if line.startswith("game "))
    assert f"{kind}={ident} " not in game_line + " ", "the log would re-import as the shipped one"
    assert any(line.startswith("#") and label in line and "MODIFIED" in line for line in log)

    out = ok(invoke(store, "verify", "g"))
    assert label in out
    assert f"{kind}: {ident} — MODIFIED, content differs from the shipped {ident}" in out
    assert digest in out and shipped_hash() in out

    exported = files / "g.whispers"
    ok(invoke(store, "export", "g", "-o", str(exported)))
    header = msgpack.unpackb(exported.read_bytes(), raw=False)["header"]
    assert header[kind] == label
    file_out = ok(invoke(store, "verify", str(exported)))
    assert f"{ident} — MODIFIED" in file_out


def test_the_log_of_a_modified_game_imports_back_only_with_its_file_and_the_flag(files: Path, store: Path) -> None:
    ok(invoke(store, "new", "g", "--players", "raven,rat", "--ruleset", str(files / "evil-rules.toml"),
              "--allow-modified"))
    ok(invoke(store, "move", "g", "raven loyalty sealed"))
    log = files / "copy" / "g.txt"
    log.parent.mkdir()
    log.write_text(ok(invoke(store, "log", "g")), encoding="utf-8")
    refused(invoke(store, "import", str(log), "--game", "back"), "unknown ruleset 'official-modified-")
    ref = re.search(r"ruleset=(\S+)", log.read_text(encoding="utf-8"))
    assert ref is not None
    (log.parent / f"{ref[1]}.toml").write_text(hand_limit_9(), encoding="utf-8")
    refused(invoke(store, "import", str(log), "--game", "back"), "--allow-modified")
    ok(invoke(store, "import", str(log), "--game", "back", "--allow-modified"))
    original, back = _facts(store, "g"), _facts(store, "back")
    assert [{**original[0], "name": ""}, *original[1:]] == [{**back[0], "name": ""}, *back[1:]]


def test_standings_and_stats_keep_a_modified_ruleset_apart_from_the_shipped_one(files: Path) -> None:
    fair = replay_lines("fair", game_under().splitlines())
    house = replay_lines("house", game_under(ruleset=str(files / "evil-rules.toml")).splitlines(),
                         allow_modified=True)
    label = f"official (modified {short(house.state.ruleset.content_hash)})"
    data = standings_data({"fair": list(fair.events), "house": list(house.events)})
    assert sorted(data["rulesets"]) == sorted(["official", label])
    assert summary(house.events)["ruleset"] == label and summary(fair.events)["ruleset"] == "official"


def test_a_custom_ruleset_needs_no_flag_and_is_shown_as_custom(files: Path, store: Path) -> None:
    ok(invoke(store, "new", "g", "--players", "raven,rat", "--ruleset", str(files / "house.toml")))
    (row,) = json.loads(ok(invoke(store, "games", "--json")))
    assert row["ruleset"].startswith("custom:house (") and row["pins"]["ruleset"]["status"] == "custom"
    assert "ruleset: custom:house — not a shipped ruleset" in ok(invoke(store, "verify", "g"))


def test_a_shipped_game_is_shown_plainly(files: Path, store: Path) -> None:
    notation = files / "g.txt"
    notation.write_text(game_under(), encoding="utf-8")
    ok(invoke(store, "import", str(notation)))
    (row,) = json.loads(ok(invoke(store, "games", "--json")))
    assert (row["ruleset"], row["board"]) == ("official", "standin")
    assert "modified" not in ok(invoke(store, "games")) + ok(invoke(store, "log", "g"))
    out = ok(invoke(store, "verify", "g"))
    assert "ruleset: official — the shipped official" in out and "board: standin — the shipped standin" in out


def test_board_check_says_a_file_under_a_shipped_id_is_modified(files: Path, store: Path) -> None:
    out = ok(invoke(store, "board", "check", str(files / "evil-board.toml")))
    assert "standin — MODIFIED" in out
    assert "MODIFIED" not in ok(invoke(store, "board", "check", "standin"))


# --- records made before rulesets were pinned ---------------------------------------------------------------


def _facts(store: Path, name: str) -> list[dict]:
    with open_store(str(store)) as s:
        return s.facts(name)


def _unpinned(facts: list[dict]) -> Iterator[dict]:
    """Facts as whispers wrote them before GameStarted carried a ruleset hash."""
    first = dict(facts[0])
    del first["ruleset_hash"], first["class_version"]
    yield first
    yield from facts[1:]


def test_a_record_without_a_ruleset_hash_still_loads_verifies_and_imports(files: Path, store: Path) -> None:
    game = replay_lines("g", game_under(ruleset=str(files / "evil-rules.toml")).splitlines(), allow_modified=True)
    old = list(_unpinned([e.to_fact() for e in game.events]))
    started = ev.from_fact(old[0])
    assert isinstance(started, ev.GameStarted) and started.ruleset_hash == game.state.ruleset.content_hash
    assert verify(old, "old").pins[0].status == "modified"
    body = msgpack.unpackb(recordfile.dumps("g", old), raw=False)
    body["header"] = {k: v for k, v in body["header"].items() if k != "ruleset_hash"}
    body["header"]["ruleset"] = "official"  # what today's main wrote: the bare id
    record = files / "old.whispers"
    record.write_bytes(msgpack.packb(body, use_bin_type=True))
    out = ok(invoke(store, "verify", str(record)))
    assert "official — MODIFIED" in out
    ok(invoke(store, "import", str(record), "--allow-modified"))
    assert "official (modified" in ok(invoke(store, "games"))


def test_a_ruleset_hash_that_disagrees_with_the_ruleset_is_refused(files: Path) -> None:
    facts = [e.to_fact() for e in replay_lines("g", game_under().splitlines()).events]
    facts[0] = {**facts[0], "ruleset_hash": load_ruleset("revised").content_hash}
    with pytest.raises(VerifyError, match="does not match its own board and ruleset"):
        verify(facts, "g")
    body = msgpack.unpackb(recordfile.dumps("g", [e.to_fact() for e in replay_lines(
        "g", game_under().splitlines()).events]), raw=False)
    body["header"]["ruleset_hash"] = load_ruleset("revised").content_hash
    with pytest.raises(recordfile.RecordFileError, match="header does not match"):
        recordfile.loads(msgpack.packb(body, use_bin_type=True), "edited.whispers")
