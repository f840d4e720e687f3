"""The document families' kit: Python shell steps and the matcher of a made file's rows."""

import pytest

from gateway.control.rows import Step
from gateway.tasks.kit.docwork import python_step, table_check


def test_python_step_is_a_shell_step_running_the_dedented_script_with_python3():
    step = python_step("""
        totals = dict()
        print('ok')
    """)
    assert step == {"shell": "python3 - <<'PY'\ntotals = dict()\nprint('ok')\nPY"}
    assert Step.model_validate(step).is_shell


def test_python_step_refuses_a_brace_name_the_step_language_would_replace():
    with pytest.raises(ValueError, match="saved value"):
        python_step("print(f'{total}')")


def test_table_check_matches_text_folded_numbers_to_the_cent_and_none_as_empty():
    rows = [{"Item": "Desk", "Old price": None, "New price": 135.5}]
    assert table_check("", rows) == {"table_rows": {"rows": [
        {"Item": {"ieq": "Desk"}, "Old price": {"exists": False}, "New price": {"num": 135.5}}], "only": True,
        "packed": True}}
    assert table_check("Changes", rows, only=False)["table_rows"]["table"] == "Changes"
