"""sha1, sha256 and blake2b from the standard library's own modules, as random.py takes its sha512: importing hashlib
loads OpenSSL, 12 million instructions (3 ms) of every command's start, for digests these compute as well."""

try:
    from _sha2 import sha256  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # a Python built without its own hashes
        from hashlib import sha256
try:
    from _sha1 import sha1
except ImportError:
    from hashlib import sha1
try:
    from _blake2 import blake2b
except ImportError:
    from hashlib import blake2b

__all__ = ["blake2b", "sha1", "sha256"]
