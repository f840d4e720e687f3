"""Files the apps read from a workspace are bounded (``max_file_bytes``): a larger one is the caller's mistake.

The tester's case: ``truncate -s 20G sparse.bin; drive upload-file --path=sparse.bin --name=s.bin`` in a
cli sandbox made the server read all 20 GB into memory. Now the provider refuses the file on its size,
before reading it, and the caller gets an error naming the parameter, graded as usual (not masked).
"""

import asyncio
import resource

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway import Settings, create_app
from gateway.control.workspace import MAX_FILE_BYTES, SandboxFiles
from gateway.surfaces.serve import serve_in_background
from sandbox import SandboxSpec
from sandbox.local import LocalProvider
from tests.conftest import require_binary
from tools import InvalidArgument

pytestmark = pytest.mark.bwrap

ROW = {
    "id": "limits-row",
    "instruction": "Share the data.",
    "apps": ["drive", "gmail"],
    "exposure": "cli",
    "workspace": {"notes/todo.txt": "call Maya\n"},
    "checks": [{"name": "a", "kind": "answer", "match": {"contains": "x"}}],
}
SPARSE = 20 * 1024**3  # bytes of `truncate -s 20G`
LIMIT = 25 * 1024 * 1024
TOO_LARGE = (
    f"the file 'sparse.bin' is {SPARSE} bytes, larger than the limit of {LIMIT} bytes (25 MiB) for files taken "
    "from your workspace; use a smaller file instead (compress it, or split it into parts under the limit)"
)


@pytest.fixture
async def provider(tmp_path):
    """The local provider under real bubblewrap, as the tester ran it."""
    require_binary("bwrap")
    made = LocalProvider(tmp_path / "sandboxes", owner="test-owner", use_bwrap=True)
    yield made
    await made.close()


@pytest.fixture
async def served(provider):
    app = create_app(Settings(), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
        yield app, control


async def seed_with_sparse_file(app, control, provider, **extra):
    """A session whose workspace holds ``sparse.bin``, made with ``truncate -s 20G`` inside its sandbox."""
    r = await control.post("/seed_session", json={"task": ROW, **extra})
    assert r.status_code == 200, r.text
    info = r.json()
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    made = await provider.exec(sandbox, ["truncate", "-s", "20G", "sparse.bin"], timeout_s=30)
    assert made.exit_code == 0, made.stderr
    return info, sandbox


async def graded_as_usual(control, info):
    verdict = (await control.post("/verify", json={"session_id": info["session_id"]})).json()
    assert verdict["mask_sample"] is False and verdict["failure_kind"] is None


def test_the_default_limit_is_gmails_attachment_limit():
    assert Settings().max_file_bytes == MAX_FILE_BYTES == 25 * 1024 * 1024


async def test_a_20g_sparse_upload_from_the_shell_is_refused_without_reading_it(served, provider):
    app, control = served
    info, sandbox = await seed_with_sparse_file(app, control, provider)
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    ran = await provider.exec(
        sandbox, ["drive", "upload-file", "--path=sparse.bin", "--name=s.bin"], timeout_s=60
    )  # the tester's command, under bubblewrap, through the API socket
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert (ran.exit_code, ran.stdout) == (1, b"")
    assert ran.stderr.decode() == f"drive upload-file: --path: {TOO_LARGE}\n"
    assert grown_mib < 256  # was 20 GB; the file's content never entered this process
    drive = app.state.gateway.get_session(info["session_id"]).world.states["drive"]
    assert not [f for f in drive.files.values() if f.name == "s.bin"]
    await graded_as_usual(control, info)


async def test_an_oversized_upload_or_attachment_over_http_names_its_parameter(served, provider):
    app, control = served
    info, _ = await seed_with_sparse_file(app, control, provider, exposure="http")
    headers = {"Authorization": f"Bearer {info['token']}"}
    async with httpx.AsyncClient(base_url=info["company_api_url"], headers=headers, timeout=60) as client:
        r = await client.post("/drive/upload_file", json={"path": "sparse.bin", "name": "s.bin"})
        assert (r.status_code, r.json()["error"]) == (400, {"message": TOO_LARGE, "parameter": "path"})
        mail = {"to": ["priya.shah@northwind.example"], "subject": "data", "attachments": ["sparse.bin"]}
        r = await client.post("/gmail/send_message", json=mail)
        assert (r.status_code, r.json()["error"]) == (400, {"message": TOO_LARGE, "parameter": "attachments"})
    await graded_as_usual(control, info)


async def test_an_oversized_upload_over_mcp_is_a_tool_error(served, provider):
    app, control = served
    info, _ = await seed_with_sparse_file(app, control, provider, exposure="mcp", sandbox=True)
    transport = StreamableHttpTransport(info["mcp"]["url"], headers=info["mcp"]["headers"])
    async with Client(transport) as client:
        result = await client.call_tool(
            "company_drive_upload_file", {"path": "sparse.bin", "name": "s.bin"}, raise_on_error=False
        )
    assert result.is_error
    assert TOO_LARGE in " ".join(getattr(part, "text", "") for part in result.content)
    await graded_as_usual(control, info)


async def test_sandbox_files_reads_up_to_its_max_bytes_and_refuses_one_byte_more(provider):
    sandbox = await provider.create(SandboxSpec())
    await provider.write_files(sandbox, {"ten.bin": b"0123456789"})
    loop = asyncio.get_running_loop()
    assert await asyncio.to_thread(SandboxFiles(provider, sandbox, loop, max_bytes=10).load, "ten.bin") == b"0123456789"
    with pytest.raises(InvalidArgument) as caught:
        await asyncio.to_thread(SandboxFiles(provider, sandbox, loop, max_bytes=9).load, "ten.bin", "attachments")
    assert caught.value.parameter == "attachments"
    assert caught.value.message.startswith("the file 'ten.bin' is 10 bytes, larger than the limit of 9 bytes for")
    await provider.destroy(sandbox)


async def test_the_max_file_bytes_setting_is_the_limit_the_apps_get(provider):
    app = create_app(Settings(max_file_bytes=100), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
        r = await control.post("/seed_session", json={"task": ROW, "exposure": "http"})
        info = r.json()
        sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
        await provider.write_files(sandbox, {"small.txt": b"x" * 100, "big.txt": b"x" * 101})
        headers = {"Authorization": f"Bearer {info['token']}"}
        async with httpx.AsyncClient(base_url=info["company_api_url"], headers=headers, timeout=60) as client:
            small = await client.post("/drive/upload_file", json={"path": "small.txt", "name": "small.txt"})
            big = await client.post("/drive/upload_file", json={"path": "big.txt", "name": "big.txt"})
    assert small.status_code == 200, small.text
    assert big.status_code == 400 and "larger than the limit of 100 bytes" in big.json()["error"]["message"], big.text


async def test_the_limit_counts_every_file_of_one_call_and_starts_anew_with_the_next(provider):
    app = create_app(Settings(max_file_bytes=100), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
        info = (await control.post("/seed_session", json={"task": ROW, "exposure": "http"})).json()
        sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
        await provider.write_files(sandbox, {"a.txt": b"a" * 60, "b.txt": b"b" * 60})
        headers = {"Authorization": f"Bearer {info['token']}"}
        mail = {"to": ["priya.shah@northwind.example"], "subject": "two", "attachments": ["a.txt", "b.txt"]}
        async with httpx.AsyncClient(base_url=info["company_api_url"], headers=headers, timeout=60) as client:
            both = await client.post("/gmail/send_message", json=mail)
            one = await client.post("/gmail/send_message", json={**mail, "attachments": ["b.txt"]})
    assert both.status_code == 400, both.text
    error = both.json()["error"]
    assert error["parameter"] == "attachments"
    assert error["message"].startswith("the files of this request come to more than 100 bytes"), error
    assert "'b.txt' is 60 bytes after 60 bytes of other files" in error["message"]
    assert one.status_code == 200, one.text  # a new call, a new budget
