"""Nothing of the installed package is in sight of a sandbox, however it was installed, and no host path either.

The tester's case: with the package installed under ``/usr`` (not editable), the local provider's ``/usr``
bind showed the family modules, their checks and reference solutions, and a sandbox's ``python3`` could import
them; ``/proc/1/cmdline`` showed bubblewrap's whole command line with its host paths.
"""

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_binary

pytestmark = [pytest.mark.slow, pytest.mark.bwrap]

REPO = Path(__file__).resolve().parents[3]

#: Run by the package installed under /usr: a sandbox of its own make_provider tries to see the package.
PROBE = """
import asyncio, sys, tempfile
from pathlib import Path
import gateway
from gateway.settings import Settings
from gateway.control.workspace import make_provider
from sandbox import SandboxSpec

async def main():
    assert gateway.__file__.startswith(sys.argv[1]), gateway.__file__
    provider = make_provider(Settings(sandbox_provider="local", sandbox_root=tempfile.mkdtemp()))
    sandbox = await provider.create(SandboxSpec(network="none", disk_bytes=1024 * 1024))
    site = str(Path(gateway.__file__).parent.parent)
    look = (
        f"ls -a {site}; echo ==; ls {sys.argv[1]}/bin; echo ==; "
        "find / -path /proc -prune -o \\\\( -name core.jsonl -o -path '*/families/*.py' \\\\) -print 2>/dev/null; "
        "echo ==; "
        f"PYTHONPATH={site} python3 -c 'import gateway.tasks' 2>&1 | tail -1; echo ==; "
        "head -c 2097152 /dev/zero > /tmp/two-mib; wc -c < /tmp/two-mib; echo =="
    )
    ran = await provider.exec(sandbox, ["sh", "-c", look], timeout_s=60)
    sys.stdout.write(ran.stdout.decode())
    ran = await provider.exec(sandbox, ["cat", "/proc/1/cmdline"], timeout_s=60)
    sys.stdout.write(ran.stdout.decode().replace("\\0", " "))
    await provider.destroy(sandbox)

asyncio.run(main())
"""


def test_a_package_installed_under_usr_shows_a_sandbox_nothing_of_itself(tmp_path):
    require_binary("bwrap")
    prefix = Path("/usr/local/lib") / f"company-gateway-install-test-{secrets.token_hex(4)}"
    try:
        prefix.mkdir()
    except PermissionError:
        if os.environ.get("CI") == "true":
            pytest.fail("writing under /usr needs root; CI=true requires this test to run", pytrace=False)
        pytest.skip("writing under /usr needs root (CI runs as root)")
    try:
        source = tmp_path / "source"  # a copy: a build writes into its source folder
        skip = shutil.ignore_patterns(".*", "build", "*.egg-info", "__pycache__", "node_modules", "tests", "bench")
        shutil.copytree(REPO, source, ignore=skip)
        # --ignore-installed: pip would otherwise uninstall the copy this test runs from
        pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", "--prefix", str(prefix)]
        installed = subprocess.run([*pip, str(source)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert installed.returncode == 0, installed.stderr[-2000:]
        site = prefix / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
        assert (site / "gateway" / "tasks" / "rows" / "core.jsonl").is_file()  # there is something to hide
        assert (prefix / "bin" / "company-gateway").is_file()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env["PYTHONPATH"] = str(site)  # the installed copy, not this checkout, makes the provider
        probe = subprocess.run(
            [sys.executable, "-c", PROBE, str(prefix)], capture_output=True, text=True, cwd=tmp_path, env=env,
            timeout=300,
        )  # fmt: skip
        assert probe.returncode == 0, probe.stderr[-2000:]
        listed, scripts, found, imported, tmp, cmdline = probe.stdout.split("==\n")
        assert listed.split() == [".", ".."]  # not even the names of its folders
        assert scripts.split() == []
        assert found.strip() == ""
        assert imported.strip() == "ModuleNotFoundError: No module named 'gateway'"
        bwrap, option, fd, *rest = cmdline.split()  # pid 1 is bubblewrap's own process
        assert [bwrap, option, fd.isdigit(), *rest] == [
            shutil.which("bwrap"), "--args", True, "--", "cat", "/proc/1/cmdline"
        ]  # fmt: skip
        assert int(tmp) == 1024 * 1024  # /tmp holds at most the sandbox's disk bound
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
