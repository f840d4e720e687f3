import base64

import pytest

from tools.kits.files import looks_encoded

PDF = base64.b64encode(b"%PDF-1.4 " + bytes(range(256))).decode()


@pytest.mark.parametrize(
    ("text", "encoded"),
    [
        (PDF, True),
        (PDF.replace("+", "-").replace("/", "_"), True),  # URL-safe alphabet
        ("\n".join(PDF[i : i + 76] for i in range(0, len(PDF), 76)), True),  # wrapped like MIME
        ("data:application/pdf;base64,JVBERi0xLjQK", True),
        ("data:text/plain,hello", True),
        ("Hi Priya, the Q1 numbers are attached. " * 5, False),
        ("Vendor,Owner\nContoso Ltd,Maya Young\n", False),
        ("a" * 200, False),  # one letter repeated is not file bytes
        ("0123456789abcdef" * 8, False),  # a hex digest
        ("sha256:" + "ab" * 32, False),
        ("", False),
    ],
)
def test_looks_encoded(text, encoded):
    assert looks_encoded(text) is encoded


def test_refuse_encoded_names_the_parameter_and_what_to_pass_instead():
    from tools.kernel.exceptions import InvalidArgument
    from tools.kits.files import refuse_encoded

    with pytest.raises(InvalidArgument) as err:
        refuse_encoded(PDF, "content", instead="path=<its workspace path>")
    assert err.value.parameter == "content"
    assert "save the file in your workspace and pass path=<its workspace path> instead" in err.value.message
    refuse_encoded("Hi Priya, the numbers are in.", "content")  # ordinary text passes


ROOT_REFUSAL = "'.' names a folder (the workspace root), not a file; pick a file in it, e.g. path=\"reports/q2.xlsx\""


@pytest.mark.parametrize(
    ("app", "where"),
    [
        ("drive", {}),
        ("onedrive", {}),
        ("sharepoint", {"site": "Finance"}),
        ("slack", {"channel": "#general"}),
        ("box", {}),
    ],
)
def test_upload_file_from_the_workspace_root_names_path_and_asks_for_a_file(app, where):
    from tests.conftest import MemoryFiles
    from tests.tools.apps.conftest import app_ctx, call
    from tools.kernel.exceptions import InvalidArgument

    c = app_ctx(app, MemoryFiles({"a.txt": b"x"}))
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", **where, path=".")
    assert (err.value.parameter, err.value.message) == ("path", ROOT_REFUSAL)
    assert c.world.snapshot() == before


@pytest.mark.parametrize(("path", "folder"), [("./", True), ("reports/", True), ("a/..", True), ("a.txt", False),
                                              ("", False)])  # fmt: skip
def test_refuse_folder_path_by_the_path_s_form(path, folder):
    from tools.kernel.exceptions import InvalidArgument
    from tools.kits.files import refuse_folder_path

    if not folder:
        refuse_folder_path(path)
        return
    with pytest.raises(InvalidArgument, match="names a folder, not a file|the workspace root") as err:
        refuse_folder_path(path, "save_as")
    assert err.value.parameter == "save_as" and 'save_as="reports/q2.xlsx"' in err.value.message
