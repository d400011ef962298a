"""Writing a file the user named: whole or not at all, and never through a link someone planted.

The bytes go to a fresh file beside the target, created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, a random
name: a symlink planted at `OUT.part` or anywhere else is never followed), then moved into place in one
step, keeping the permissions of a file it replaces. A write that fails (a full disk, an interrupt) removes its
temporary file. It is whispers' one way to write a file; `save` says its failure in words.
"""

import contextlib
import os
import secrets
from pathlib import Path

from whispers.ledger.core.errors import StoreError, WhispersError
from whispers.ledger.core.words import say

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def write_file(target: Path | str, data: bytes, *, overwrite: bool = True) -> None:
    """Write `data` to `target` atomically. With `overwrite=False`, FileExistsError when anything (a file,
    a directory, a symlink, even a dangling one) is at `target` already; nothing is replaced then.

    Any other failure is the OSError that caused it; the target is then as it was."""
    target = Path(target)
    if not overwrite and os.path.lexists(target):
        raise FileExistsError(17, os.strerror(17), str(target))
    fd, temporary = _create_beside(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            with contextlib.suppress(FileNotFoundError):  # a file replaced keeps its permissions
                os.chmod(temporary, os.stat(target).st_mode & 0o7777)
            os.replace(temporary, target)
        else:
            _link_new(temporary, target)
    except BaseException:
        # the temporary file is ours alone (created exclusively): removing it cannot touch anything else
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def save(target: Path | str, data: bytes, *, overwrite: bool = True,
         error: type[WhispersError] = StoreError) -> None:
    """`write_file`, a failure raised as `error` in words ("cannot write FILE: REASON"). With `overwrite=False`,
    a target already there is the FileExistsError it was, for the caller to say what replaces it."""
    try:
        write_file(target, data, overwrite=overwrite)
    except FileExistsError:
        if not overwrite:
            raise
        raise error(say("cannot write {file}: {reason}", file=str(target), reason=os.strerror(17))) from None
    except OSError as exc:
        raise error(say("cannot write {file}: {reason}", file=str(target), reason=exc.strerror or str(exc))) from None


def _create_beside(target: Path) -> tuple[int, Path]:
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.part")
        try:
            return os.open(temporary, _FLAGS, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(17, "cannot create a temporary file", str(target.parent))


def _link_new(temporary: Path, target: Path) -> None:
    """Move `temporary` to `target` only if nothing is there: a hard link fails atomically when it is."""
    try:
        os.link(temporary, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:
        # a file system without hard links: check, then move (a narrow race, on such file systems only)
        if os.path.lexists(target):
            raise FileExistsError(17, os.strerror(17), str(target)) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)
