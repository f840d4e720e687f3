"""Sandboxes lent to sessions: the guide, the commands, files through the workspace, release, and failures."""

import asyncio
import os
import time
from pathlib import Path

import httpx
import pytest

from gateway import Settings, create_app
from gateway.control.workspace import guide_text
from gateway.surfaces.serve import serve_in_background
from sandbox import ProviderUnavailable, SandboxSpec, TooManyEntries
from sandbox.local import LocalProvider, _files
from tests.conftest import banned_words, require_binary
from tests.tiers import sampled
from tools import REGISTRY
from tools.companies import company

ROW = {
    "id": "files-row",
    "instruction": "Look at the vendor list.",
    "apps": ["drive", "gmail"],
    "exposure": "cli",
    "workspace": {"notes/todo.txt": "call Maya\n"},
    "checks": [{"name": "a", "kind": "answer", "match": {"contains": "x"}}],
}


class FlakyProvider(LocalProvider):
    """The local provider, with switches that make its file steps fail the way a broken engine would."""

    fail_writes = False
    fail_reads = False
    fail_create = False

    async def create(self, spec):
        if self.fail_create:
            raise ProviderUnavailable("engine refused: out of memory")
        self.specs.append(spec)
        return await super().create(spec)

    async def write_files(self, sandbox, files, mode=0o644):
        if self.fail_writes and "README.md" not in files:
            raise ProviderUnavailable("engine timeout after 30 s writing " + ",".join(files))
        return await super().write_files(sandbox, files, mode)

    fail_exec = False
    specs: list = []

    async def read_file(self, sandbox, path, **kwargs):
        if self.fail_reads:
            raise ProviderUnavailable("connection reset by engine")
        return await super().read_file(sandbox, path, **kwargs)

    async def exec(self, sandbox, argv, **kwargs):
        if self.fail_exec:
            raise ProviderUnavailable("exec channel closed")
        return await super().exec(sandbox, argv, **kwargs)


@pytest.fixture
def provider(tmp_path):
    return FlakyProvider(tmp_path / "sandboxes", owner="test-owner")


@pytest.fixture
async def served(provider):
    app = create_app(Settings(), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        yield app, control


async def seed(control, **extra):
    r = await control.post("/seed_session", json={"task": ROW} | extra)
    assert r.status_code == 200, r.text
    return r.json()


def api(seed_info):
    return httpx.AsyncClient(
        base_url=seed_info["company_api_url"], headers={"Authorization": f"Bearer {seed_info['token']}"}
    )


@pytest.mark.parametrize("unix_socket", [False, True], ids=["network", "socket"])
@pytest.mark.parametrize("exposure", ["mcp", "cli", "http"])
def test_the_guide_speaks_plain_company_words(exposure, unix_socket):
    text = guide_text(list(REGISTRY.apps), exposure, "alex.morgan@northwind.example", "Alex Morgan",
                      company="Northwind Traders", unix_socket=unix_socket)  # fmt: skip
    assert banned_words(text) == []
    assert "Alex Morgan" in text and "downloads/" in text
    assert ("gmail --help" in text) is (exposure != "http")
    assert ("$COMPANY_API_URL" in text) is (exposure == "http")
    assert ('curl -sS --unix-socket "$COMPANY_API_SOCKET" -X POST' in text) is (exposure == "http" and unix_socket)


@pytest.mark.slow
async def test_the_guide_names_the_sessions_own_company(served, provider):
    app, control = served
    gen = company("gen-2")
    row = {**ROW, "id": "gen-row", "world": {"fixture": "gen-2"}}
    info = await seed(control, task=row)
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    guide = (await provider.read_file(sandbox, "README.md")).decode()
    assert guide.startswith(f"# Working at {gen.name}\n")
    assert gen.user_record["name"] in guide and gen.user in guide
    assert "Northwind" not in guide
    default = await seed(control)
    sandbox = app.state.gateway.get_session(default["session_id"]).sandbox
    assert (await provider.read_file(sandbox, "README.md")).decode().startswith("# Working at Northwind Traders\n")


async def test_a_cli_seed_gets_a_prepared_sandbox_that_verify_destroys(served, provider):
    app, control = served
    info = await seed(control)
    assert info["sandbox"]["provider"] == "local" and info["sandbox"]["workspace"] == "/workspace"
    session = app.state.gateway.get_session(info["session_id"])
    sandbox = session.sandbox
    assert (await provider.read_file(sandbox, "notes/todo.txt")) == b"call Maya\n"
    assert b"`drive --help`" in (await provider.read_file(sandbox, "README.md"))
    ran = await provider.exec(sandbox, ["drive", "--help"], timeout_s=30)
    assert ran.exit_code == 0 and b"search-files" in ran.stdout
    ran = await provider.exec(sandbox, ["sh", "-c", "echo $COMPANY_API_TOKEN"], timeout_s=30)
    assert ran.stdout.strip().decode() == info["token"]
    assert [s.id for s in await provider.list_owned()] == [sandbox.id]
    await control.post("/verify", json={"session_id": info["session_id"]})
    assert await provider.list_owned() == []
    assert session.sandbox is None


async def test_close_and_shutdown_release_every_sandbox(provider):
    app = create_app(Settings(), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base) as control:
        a = await seed(control)
        await seed(control)
        await seed(control)
        assert len(await provider.list_owned()) == 3
        await control.post("/close_session", json={"session_id": a["session_id"]})
        assert len(await provider.list_owned()) == 2
    assert await provider.list_owned() == []


async def test_at_start_only_expired_sandboxes_of_this_owner_are_reaped(provider):
    expired = await provider.create(SandboxSpec(labels={"session": "s_old", "expires": "1000", "incarnation": "x1"}))
    later = {"session": "s_live", "expires": "99999999999", "incarnation": "x2"}
    live = await provider.create(SandboxSpec(labels=later))
    unlabelled = await provider.create(SandboxSpec(labels={"session": "s_older_version"}))
    other_owner = LocalProvider(provider.root, owner="someone-else")
    kept = await other_owner.create(SandboxSpec(labels={"expires": "1000"}))
    app = create_app(Settings(), provider=provider)
    async with serve_in_background(app):
        owned = {s.id for s in await provider.list_owned()}
        assert owned == {live.id, unlabelled.id}  # another running gateway's, and one with no expiry: left alone
    assert [s.id for s in await other_owner.list_owned()] == [kept.id]
    assert expired.id not in owned
    for sb in (live, unlabelled):
        await provider.destroy(sb)
    await other_owner.destroy(kept)


async def test_the_start_reaps_once_though_serve_and_the_app_both_ask(provider):
    # `serve` reaps before the app starts and the app's start-up reaps again: the second found what the first
    # had left (another gateway's sandboxes) and said so twice in the log
    await provider.create(SandboxSpec(labels={"session": "s_old", "expires": "1000", "incarnation": "x1"}))
    app = create_app(Settings(), provider=provider)
    gateway = app.state.gateway
    assert await gateway.reap() == 1
    await provider.create(SandboxSpec(labels={"session": "s_old2", "expires": "1000", "incarnation": "x1"}))
    assert await gateway.reap() == 0  # once per run: a sandbox that expires later waits for the next start
    assert len(await provider.list_owned()) == 1
    for sb in await provider.list_owned():
        await provider.destroy(sb)


async def test_a_lent_sandbox_is_labelled_with_its_gateway_run_and_expiry(served, provider):
    app, control = served
    info = await seed(control)
    (sb,) = await provider.list_owned()
    gateway = app.state.gateway
    assert sb.labels["session"] == info["session_id"] and sb.labels["incarnation"] == gateway.incarnation
    assert float(sb.labels["expires"]) == pytest.approx(time.time() + gateway.settings.sandbox_ttl_s, abs=60)


async def test_a_sandbox_that_cannot_start_fails_the_seed_with_503_and_holds_nothing(served, provider):
    app, control = served
    provider.fail_create = True
    r = await control.post("/seed_session", json={"task": ROW})
    assert r.status_code == 503
    assert "out of memory" not in r.text
    assert app.state.gateway.store.all() == []
    r = await control.post("/seed_session", json={"task": ROW, "sandbox": False})
    assert r.status_code == 200 and r.json()["sandbox"] is None


async def test_a_download_lands_in_the_workspace_not_in_the_answer(served, provider):
    app, control = served
    info = await seed(control)
    async with api(info) as client:
        r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert "content" not in body and body["saved_to"] == "downloads/Vendor list.csv"
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    saved = await provider.read_file(sandbox, body["saved_to"])
    assert saved.startswith(b"Vendor,Category") and len(saved) == body["size"]


async def test_a_download_keeps_a_same_named_file_and_says_where_it_went(served, provider):
    app, control = served
    info = await seed(control)
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    await provider.write_files(sandbox, {"downloads/Vendor list.csv": b"my own notes\n"})
    async with api(info) as client:
        first = (await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})).json()
        second = (await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})).json()
        chosen = (await client.post("/drive/read_file", json={"file_id": "file_vendor_list",
                                                               "save_as": "downloads/Vendor list.csv"})).json()
    assert first["saved_to"] == "downloads/Vendor list (2).csv"
    taken = "downloads/Vendor list.csv already held a file, so this one was saved as "
    assert first["note"] == taken + first["saved_to"]
    assert second["saved_to"] == "downloads/Vendor list (3).csv"
    assert (await provider.read_file(sandbox, first["saved_to"])).startswith(b"Vendor,Category")
    assert chosen["saved_to"] == "downloads/Vendor list.csv" and "note" not in chosen  # asked for: overwritten
    assert (await provider.read_file(sandbox, "downloads/Vendor list.csv")).startswith(b"Vendor,Category")


@pytest.mark.parametrize("save_as", sampled(["downloads/", "downloads/.", "reports/q3/..", "notes"], 1, seed="folder"))
async def test_a_save_path_naming_a_folder_is_refused_and_writes_nothing(served, provider, save_as):
    app, control = served
    info = await seed(control)
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    workspace = provider.root / sandbox.id / "workspace"
    before = sorted(str(p.relative_to(workspace)) for p in workspace.rglob("*"))
    async with api(info) as client:
        r = await client.post("/drive/download_file", json={"file_id": "file_offsite_agenda_draft", "save_as": save_as})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["parameter"] == "save_as"
        expected = f"'{save_as}' names a folder, not a file; give a file path such as downloads/report.pdf"
        assert error["message"] == expected
        assert sorted(str(p.relative_to(workspace)) for p in workspace.rglob("*")) == before
        r = await client.post("/drive/download_file", json={"file_id": "file_offsite_agenda_draft"})
    assert r.status_code == 200, r.text  # the default download still finds downloads/ free for a folder
    assert (workspace / r.json()["saved_to"]).read_bytes().startswith(b"#")
    verdict = (await control.post("/verify", json={"session_id": info["session_id"]})).json()
    assert verdict["mask_sample"] is False and verdict["failure_kind"] is None


async def test_a_provider_failure_is_a_502_and_masks_the_reward(served, provider):
    app, control = served
    info = await seed(control)
    gw = app.state.gateway
    before = gw.get_session(info["session_id"]).world.snapshot()
    provider.fail_writes = True
    async with api(info) as client:
        r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
    assert r.status_code == 502
    assert "timeout" not in r.text and "engine" not in r.text
    assert gw.get_session(info["session_id"]).world.snapshot() == before
    verdict = (await control.post("/verify", json={"session_id": info["session_id"]})).json()
    assert verdict["mask_sample"] is True
    assert verdict["failure_kind"] == "provider_unavailable"
    assert "engine timeout" in verdict["failure_reason"]


async def test_a_missing_attachment_is_the_models_doing_and_not_masked(served, provider):
    app, control = served
    info = await seed(control)
    async with api(info) as client:
        r = await client.post(
            "/gmail/send_message",
            json={"to": ["priya.shah@northwind.example"], "subject": "x", "attachments": ["nope.csv"]},
        )
    assert r.status_code == 400
    assert r.json()["error"]["parameter"] == "attachments"
    verdict = (await control.post("/verify", json={"session_id": info["session_id"]})).json()
    assert verdict["mask_sample"] is False and verdict["failure_kind"] is None


async def test_an_attachment_that_is_a_folder_or_a_pipe_is_refused_saying_what_is_there(served, provider):
    app, control = served
    info = await seed(control)
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    assert (await provider.exec(sandbox, ["mkfifo", "pipe"], timeout_s=10)).exit_code == 0
    said = {}
    async with api(info) as client:
        for path in ("notes", "pipe", "nope.csv"):
            r = await client.post(
                "/gmail/send_message",
                json={"to": ["priya.shah@northwind.example"], "subject": "x", "attachments": [path]},
            )
            assert r.status_code == 400 and r.json()["error"]["parameter"] == "attachments"
            said[path] = r.json()["error"]["message"]
    assert "'notes' is a folder in your workspace, not a file" in said["notes"]
    assert "'pipe' in your workspace is not a regular file (a pipe, socket or device)" in said["pipe"]
    assert "there is no file at 'nope.csv' in your workspace" in said["nope.csv"]


async def test_an_attachment_travels_from_the_workspace(served, provider):
    app, control = served
    info = await seed(control)
    async with api(info) as client:
        r = await client.post(
            "/gmail/send_message",
            json={"to": ["priya.shah@northwind.example"], "subject": "todo", "attachments": ["notes/todo.txt"]},
        )
    assert r.status_code == 200, r.text
    world = app.state.gateway.get_session(info["session_id"]).world
    sent = [m for m in world.states["gmail"].messages.values() if m.subject == "todo"]
    assert len(sent) == 1 and world.blobs.get(sent[0].attachments[0].blob) == b"call Maya\n"


async def test_paths_leaving_the_workspace_are_refused(served, provider):
    app, control = served
    info = await seed(control)
    async with api(info) as client:
        for path in ["../etc/passwd", "/etc/passwd", "notes/../../x"]:
            r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list", "save_as": path})
            assert r.status_code == 400, path
            assert r.json()["error"]["parameter"] == "save_as"
    assert not Path("/etc/passwd.bak").exists()


async def send_attachment(info, path="notes/todo.txt"):
    async with api(info) as client:
        return await client.post(
            "/gmail/send_message",
            json={"to": ["priya.shah@northwind.example"], "subject": "todo", "attachments": [path]},
        )


async def verdict_of(control, info):
    return (await control.post("/verify", json={"session_id": info["session_id"]})).json()


@pytest.mark.bwrap
async def test_a_failed_read_of_a_file_still_there_is_the_providers_failure(served, provider):
    require_binary("bwrap")
    app, control = served
    info = await seed(control)
    provider.fail_reads = True
    r = await send_attachment(info)
    assert r.status_code == 502
    v = await verdict_of(control, info)
    assert v["mask_sample"] is True and "connection reset" in v["failure_reason"]


@pytest.mark.bwrap
async def test_a_failed_read_of_a_file_the_model_deleted_is_a_missing_file(served, provider):
    require_binary("bwrap")
    app, control = served
    info = await seed(control)
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    assert (await provider.exec(sandbox, ["rm", "notes/todo.txt"], timeout_s=30)).exit_code == 0
    provider.fail_reads = True
    r = await send_attachment(info)
    assert r.status_code == 400 and r.json()["error"]["parameter"] == "attachments"
    v = await verdict_of(control, info)
    assert v["mask_sample"] is False and v["failure_kind"] is None


async def test_a_failed_read_whose_check_cannot_run_is_the_providers_failure(served, provider):
    app, control = served
    info = await seed(control)
    provider.fail_reads = provider.fail_exec = True
    r = await send_attachment(info)
    assert r.status_code == 502
    assert (await verdict_of(control, info))["failure_kind"] == "provider_unavailable"


async def test_a_sandbox_lost_mid_session_masks_the_reward(served, provider):
    app, control = served
    info = await seed(control)
    sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
    await provider.destroy(sandbox)  # expired or killed behind the server's back
    async with api(info) as client:
        r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
    assert r.status_code == 502
    v = await verdict_of(control, info)
    assert v["mask_sample"] is True and v["failure_kind"] == "provider_unavailable" and v["reward"] == 0.0


async def test_block_internet_is_refused_by_a_provider_that_cannot_enforce_it(served, provider):
    app, control = served
    r = await control.post("/seed_session", json={"task": ROW, "block_internet": True})
    assert r.status_code == 400 and "cannot limit a sandbox's network" in r.json()["error"], r.text
    assert app.state.gateway.store.all() == [] and await provider.list_owned() == []


async def test_a_row_names_its_sandbox_image(served, provider):
    app, control = served
    await seed(control, task={**ROW, "id": "with-image", "image": "localhost/company-documents:latest"})
    assert provider.specs[-1].image == "localhost/company-documents:latest"


async def test_a_download_that_would_pass_the_workspace_bound_is_refused_whole(provider):
    bound = 64 * 1024
    app = create_app(Settings(workspace_max_bytes=bound), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        info = await seed(control)
        assert provider.specs[-1].disk_bytes == bound  # the provider bounds what the shell writes where it can
        sandbox = app.state.gateway.get_session(info["session_id"]).sandbox
        workspace = provider.root / sandbox.id / "workspace"
        held = bound - 100  # as if the shell had filled it (the local provider counts allocated blocks, as du)
        counted = provider.workspace_bytes

        async def nearly_full(sb, stop_at=None):
            return held if sb.id == sandbox.id else await counted(sb, stop_at)

        provider.workspace_bytes = nearly_full
        async with api(info) as client:
            r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["parameter"] == "save_as"
            message = r.json()["error"]["message"]
            assert message.startswith(
                "workspace full: your workspace may hold at most 64 KiB (65,536 bytes) of files; it holds 63.9 KiB "
                "(65,436 bytes) and 'downloads/Vendor list.csv' is "
            )
            assert message.endswith("nothing was saved or changed. Delete files you no longer need from your "
                                    "workspace, then try again.")  # fmt: skip
            assert banned_words(message) == []
            assert not (workspace / "downloads").exists()  # nothing half-written
            held = 0
            r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
            assert r.status_code == 200, r.text
        verdict = (await control.post("/verify", json={"session_id": info["session_id"]})).json()
        assert verdict["mask_sample"] is False


async def test_a_save_into_a_workspace_of_too_many_entries_is_refused_and_the_count_is_charged(provider, monkeypatch):
    # a shell can make 300,000 empty files in seconds: each save walked them all (1.2-5.4 s), uncharged
    monkeypatch.setattr(_files, "MAX_ENTRIES", 50)
    app = create_app(Settings(), provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        info = await seed(control)
        session = app.state.gateway.get_session(info["session_id"])
        workspace = provider.root / session.sandbox.id / "workspace"
        for n in range(60):
            (workspace / f"empty-{n}").touch()
        owed = session.cpu_owed_s
        async with api(info) as client:
            r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
        assert r.status_code == 400, r.text
        assert r.json()["error"]["parameter"] == "save_as"
        assert r.json()["error"]["message"].startswith(
            "workspace full: your workspace holds more than 50 files and folders; nothing was saved or changed."
        )
        assert not (workspace / "downloads").exists()
        assert session.cpu_owed_s > owed  # the walk is the session's to pay back
        for n in range(60):
            (workspace / f"empty-{n}").unlink()
        async with api(info) as client:
            r = await client.post("/drive/read_file", json={"file_id": "file_vendor_list"})
        assert r.status_code == 200, r.text


def test_the_count_stops_past_stop_at_and_at_too_many_entries(tmp_path):
    (tmp_path / "a").mkdir()
    for n in range(10):
        (tmp_path / "a" / f"{n}.bin").write_bytes(b"x" * 8192)
    whole = _files.disk_usage(tmp_path)
    assert whole >= 10 * 8192
    stopped = _files.disk_usage(tmp_path, stop_at=8192)
    assert 8192 < stopped < whole  # stopped early, past the bound
    assert _files.disk_usage(tmp_path, max_entries=11) == whole  # the folder and its ten files
    with pytest.raises(TooManyEntries) as caught:
        _files.disk_usage(tmp_path, max_entries=10)
    assert caught.value.limit == 10


async def test_the_local_provider_counts_the_workspace_as_du_does(provider):
    sandbox = await provider.create(SandboxSpec())
    empty = await provider.workspace_bytes(sandbox)
    await provider.write_files(sandbox, {"a/b/c.bin": b"x" * 100_000, "d.txt": b"y"})
    used = await provider.workspace_bytes(sandbox)
    du = await provider.exec(sandbox, ["du", "-sk", "--apparent-size", "."], timeout_s=10)  # the control
    assert 100_000 + 1 <= used - empty <= 100_000 + 1 + 4 * 4096  # data blocks plus two folders' and one file's
    assert int(du.stdout.split()[0]) >= 97
    await provider.destroy(sandbox)


async def test_more_file_calls_at_once_than_the_default_worker_pool_has_threads_all_go_through(served, provider):
    # A call runs in a worker thread and waits there for the provider's file work, which runs in the default pool:
    # with every default worker holding such a call, that work used to queue behind them until the 30 s timeout.
    app, control = served
    n = min(32, (os.cpu_count() or 1) + 4) + 2  # the default pool's size (asyncio's rule), and two more
    infos = [await seed(control) for _ in range(n)]

    async def upload(info):
        async with api(info) as client:
            return await client.post("/drive/upload_file", json={"path": "notes/todo.txt"})

    answers = await asyncio.gather(*(upload(info) for info in infos))
    assert [r.status_code for r in answers] == [200] * n, next(r.text for r in answers if r.status_code != 200)


@pytest.mark.bwrap
async def test_what_a_sandbox_sees_mounted_names_no_server(tmp_path):
    require_binary("bwrap")
    app = create_app(Settings(sandbox_root=str(tmp_path / "boxes")))  # the local provider, its default tools folder
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        info = await seed(control)
        gateway = app.state.gateway
        sandbox = gateway.get_session(info["session_id"]).sandbox
        seen = await gateway.provider.exec(sandbox, ["cat", "/proc/self/mountinfo"], timeout_s=30)
        assert seen.exit_code == 0 and b"/workspace" in seen.stdout
        assert b"company-gateway" not in seen.stdout
        assert banned_words(seen.stdout.decode()) == []


def test_a_docker_host_bind_that_would_show_the_installed_package_is_refused(tmp_path):
    import gateway
    from gateway.control.workspace import binds_showing, make_provider
    from gateway.settings import Settings
    from sandbox import ProviderUnavailable

    package = str(Path(gateway.__file__).parent)
    over = f"{Path(package).parent}:/srv:ro"
    with pytest.raises(ProviderUnavailable, match=r"sandbox_host_binds: .* would show every container"):
        make_provider(Settings(sandbox_provider="docker", sandbox_host_binds=[over]))
    assert binds_showing([over, f"{tmp_path}:/data"], [package]) == [(over, package)]
    assert binds_showing([f"{tmp_path}:/data:ro"], [package]) == []  # a folder without it
