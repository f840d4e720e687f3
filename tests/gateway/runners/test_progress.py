import io
import subprocess
import sys

from gateway.runners.cli.main import LOG_LEVELS
from gateway.runners.cli.progress import Progress


def test_off_a_terminal_progress_is_a_line_per_interval_and_one_at_the_end():
    out = io.StringIO()  # not a terminal
    with Progress("proving", 4, every=0.0, stream=out) as progress:
        for _ in range(4):
            progress.advance()
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "proving: 1/4 (25%)",
        "proving: 2/4 (50%)",
        "proving: 3/4 (75%)",
        "proving: 4/4 (100%)",
        "proving: 4/4 (100%)",  # the closing line
    ]


def test_within_one_interval_only_the_closing_line_is_written():
    out = io.StringIO()
    with Progress("playing", 10, every=3600.0, stream=out) as progress:
        progress.advance(7)
    assert out.getvalue().splitlines()[0].startswith("playing: 7/10 (70%), ")
    assert len(out.getvalue().splitlines()) == 1


def test_a_run_cut_short_writes_no_closing_line():
    out = io.StringIO()
    try:
        with Progress("playing", 10, every=3600.0, stream=out) as progress:
            progress.advance(2)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert out.getvalue() == ""


def test_the_cli_log_levels_are_the_settings_log_levels():
    from gateway.settings import LOG_LEVELS as SETTINGS_LEVELS

    assert LOG_LEVELS == SETTINGS_LEVELS


def test_help_loads_neither_the_server_nor_the_registry_nor_a_task():
    probe = (
        "import sys; from gateway.runners.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('fastmcp', 'uvicorn', 'tools.apps', 'gateway.tasks.loader', 'pydantic')\n"
        "print([m for m in heavy if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
