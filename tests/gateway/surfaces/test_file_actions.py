"""With a workspace, no file content travels in a tool result: every file-bearing action saves and answers a path."""

import json

import pytest

from gateway.control.rows import Task
from gateway.control.worlds import world_template
from tests.conftest import MemoryFiles
from tools import REGISTRY, Context
from tools.kernel.examples import example_arguments

FILE_ACTIONS = [a for a in REGISTRY.actions() if "save_as" in a.input_schema["properties"]]
EVERY_APP = Task(id="all", instruction="-", apps=list(REGISTRY.apps),
                 checks=[{"name": "a", "kind": "answer", "match": {"contains": "-"}}])


def test_every_app_that_keeps_files_has_a_file_action():
    apps = {a.app for a in FILE_ACTIONS}
    assert apps >= {"gmail", "drive", "box", "onedrive", "sharepoint", "slack", "helpdesk"}


@pytest.mark.parametrize("action", FILE_ACTIONS, ids=lambda a: a.tool_name)
def test_a_download_with_a_workspace_answers_only_a_path(action):
    world = world_template(EVERY_APP).instantiate()
    files = MemoryFiles()
    args = example_arguments(action)  # the docstring's own example: real ids of the company
    result = action.invoke(Context(world, action.app, files), args)
    assert "content" not in result and "text" not in result
    saved = result["saved_to"]
    assert saved == args.get("save_as", saved) and files.files[saved]
    assert "save_as" in args or saved.startswith("downloads/")
    assert result["size"] == len(files.files[saved])
    shown = json.dumps(result)
    assert len(shown) < 1000 and files.files[saved][:64].decode("latin-1") not in shown
