"""The local provider lends a host folder of tools: read-only at /opt/tools, its bin on PATH after the app commands."""

import io
import os

import pytest

from gateway.control.workspace import document_tools
from sandbox import SandboxSpec
from sandbox.local import COMMANDS_DIR, LocalProvider
from tests.conftest import require_binary

SPEC = SandboxSpec(labels={"session": "s1"})


def _tools(tmp_path):
    tools = tmp_path / "host-tools"
    (tools / "bin").mkdir(parents=True)
    script = tools / "bin" / "hello"
    script.write_text("#!/bin/sh\necho hello from $0\n")
    script.chmod(0o755)
    return tools


async def _run(provider, sb, command):
    result = await provider.exec(sb, ["sh", "-c", command], timeout_s=60)
    return result.exit_code, result.stdout.decode().strip(), result.stderr.decode().strip()


@pytest.mark.bwrap
async def test_tools_are_shown_read_only_at_opt_tools_and_come_after_the_app_commands(tmp_path):
    require_binary("bwrap")
    provider = LocalProvider(tmp_path / "sandboxes", owner="t", use_bwrap=True, tools=_tools(tmp_path))
    sb = await provider.create(SPEC)
    assert await _run(provider, sb, "hello") == (0, "hello from /opt/tools/bin/hello", "")
    code, path, _ = await _run(provider, sb, 'echo "$PATH"')
    assert path.split(":")[:2] == [COMMANDS_DIR, "/opt/tools/bin"]
    code, _, err = await _run(provider, sb, "touch /opt/tools/bin/other")
    assert code != 0 and "Read-only" in err
    assert (await _run(provider, sb, f"ls {tmp_path}"))[0] != 0  # the host folder itself is not in sight
    await provider.destroy(sb)


async def test_without_bubblewrap_the_host_folders_bin_is_on_path(tmp_path):
    tools = _tools(tmp_path)
    provider = LocalProvider(tmp_path / "sandboxes", owner="t", use_bwrap=False, tools=tools)
    sb = await provider.create(SPEC)
    code, out, _ = await _run(provider, sb, "hello")
    assert (code, out) == (0, f"hello from {tools}/bin/hello")
    await provider.destroy(sb)


async def test_no_tools_leaves_path_as_before(tmp_path):
    provider = LocalProvider(tmp_path / "sandboxes", owner="t", use_bwrap=False)
    sb = await provider.create(SPEC)
    code, path, _ = await _run(provider, sb, 'echo "$PATH"')
    assert path.split(":")[1:] == ["/usr/local/bin", "/usr/bin", "/bin"]
    await provider.destroy(sb)


def _document_tools():
    found = document_tools()
    if found is None:
        reason = "the document tools are not installed; run bash scripts/install-document-tools.sh"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true requires them", pytrace=False)
        pytest.skip(reason)
    return found


@pytest.mark.bwrap
async def test_python3_in_a_sandbox_reads_and_writes_office_files_with_the_document_tools(tmp_path):
    require_binary("bwrap")
    provider = LocalProvider(tmp_path / "sandboxes", owner="t", use_bwrap=True, tools=_document_tools())
    sb = await provider.create(SPEC)
    script = (
        "import sys, openpyxl, docx, pypdf\n"
        "book = openpyxl.Workbook(); book.active.append(['Category', 'Total']); book.active.append(['Travel', 12.5])\n"
        "book.save('totals.xlsx')\n"
        "d = docx.Document(); d.add_paragraph('Changed lines'); d.save('diff.docx')\n"
        "print(sys.prefix, pypdf.PdfWriter().__class__.__name__)\n"
    )
    await provider.write_files(sb, {"make.py": script.encode()})
    assert await _run(provider, sb, "python3 make.py") == (0, "/opt/tools PdfWriter", "")
    import openpyxl

    data = await provider.read_file(sb, "totals.xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    assert [list(r) for r in sheet.iter_rows(values_only=True)] == [["Category", "Total"], ["Travel", 12.5]]
    code, out, _ = await _run(provider, sb, "grep -rlI -e company-gateway -e /.cache/ /opt/tools || echo clean")
    assert out == "clean"  # nothing the sandbox can read there names the host's folders
    await provider.destroy(sb)
