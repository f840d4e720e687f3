"""The task row's model: its fields, validated (:class:`Task`); loading rows is :mod:`gateway.control.rows`.

A task row (one JSON object per line) has these fields::

    id               unique id, e.g. "mail-forward-invoice"
    instruction      the request, written as a colleague would write it
    apps             the apps the row enables, e.g. ["gmail", "drive"]
    exposure         "mcp" (default), "cli" or "http"
    docs_tool        "api_fetch" (default) or "api_docs"; the docs tool's name for the http exposure
    sandbox          lend a sandbox by default (true for rows that move files through the workspace);
                     default: only for the cli and http exposures
    image            the sandbox image a container provider should start (e.g. the documents image)
    now, timezone, user   optional overrides of the fixture's clock, zone and acting user
    world            {"fixture": "default", "overrides": {app: {collection: {id: record or null}}}};
                     fixture names the company: "default" or a generated "gen-<n>" (tools.companies)
    family, seed     the family and instance seed that generated the row (gateway.tasks.loader); none when hand-written
    split            "train" (default), "validation" or "test"
    tier             "easy", "medium" or "hard" (see gateway.tasks.families.tier_of); computed when absent
    kind             what the work is: "task" (default), "refusal", "document", "long_horizon" or "ambiguity"
    workspace        {"relative/path": "text"}: files placed in the workspace at seed
    documents        {blob id: document spec}: files the overrides' records hold, made from their spec
                     (tools.companies.shared) when the world is built
    checks           list of checks (see gateway.grading)
    allowed_changes  list of change rules (see gateway.grading)
    solution         reference solution: list of steps
    alternative_solutions  other reference solutions (another natural way to the same outcome), each a list of steps
    negative_controls  list of {"name", "why", "steps"}: plausible wrong solutions that must score 0.0
    no_controls      {generated control name: why it cannot be generated for this row}

A step is ``{"tool": "gmail.search_messages", "args": {...}, "save": {"var": "results.0.id"}}``;
``"{var}"`` inside a later argument is replaced by the saved value (a whole-string
``"{var}"`` keeps the saved value's type). ``"tool": "complete_task"`` is the app-less action.
A shell step ``{"shell": "python3 totals.py", "save": {"var": "stdout"}}`` runs the command line with
``sh -c`` in the session's sandbox workspace (the provider that runs the agent's commands), ``{var}`` in it
replaced as in arguments; its result is ``{"stdout", "stderr", "exit_code"}`` (text; stdout without trailing
newlines), and a non-zero exit fails the play (:mod:`gateway.control.steps`).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sandbox import WorkspacePathError, workspace_path
from tools import REGISTRY
from tools.companies import CompanyError, Split, check_company

__all__ = [
    "CONTROL_NAMES", "KINDS", "NOW_YEARS", "SHELL_TOOL", "Control", "Exposure", "Kind", "Step", "Task", "Tier",
    "WorldSpec",
]  # fmt: skip

Exposure = Literal["mcp", "cli", "http"]

#: The generated controls (:mod:`gateway.control.controls`), in the order they are proved; a row's
#: ``no_controls`` names only these.
CONTROL_NAMES = (
    "list_everything", "claim_without_acting", "over_reach", "fair_context", "extra_recipient", "share_what_you_made",
    "negated_message", "context_in_messages", "typed_file", "refuses_everything",
)  # fmt: skip


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: The ``tool`` of a shell step (:attr:`Step.shell`): no app action has this name.
SHELL_TOOL = "shell"


class Step(_Strict):
    """One call of a scripted solution: an app action, ``complete_task``, or a shell command (``shell``)."""

    tool: str = Field(SHELL_TOOL, description="'<app>.<action>' or 'complete_task'; 'shell' for a shell step")
    args: dict[str, Any] = {}
    save: dict[str, str] = Field(default={}, description="variable name -> dotted path into the result")
    shell: str = Field("", max_length=100_000, description="a command line run with sh -c in the sandbox workspace")

    @field_validator("tool")
    @classmethod
    def _known_tool(cls, value: str) -> str:
        if value in ("complete_task", SHELL_TOOL):
            return value
        app, _, action = value.partition(".")
        if app not in REGISTRY.apps or action not in REGISTRY.apps[app].actions:
            raise ValueError(f"unknown tool {value!r}; write '<app>.<action>' with a registered action")
        return value

    @model_validator(mode="after")
    def _shell_or_tool(self) -> Step:
        if self.tool == SHELL_TOOL and not self.shell.strip():
            raise ValueError("a step needs 'tool' ('<app>.<action>' or 'complete_task') or 'shell' (a command line)")
        if self.tool != SHELL_TOOL and self.shell:
            raise ValueError("a step has either 'tool' or 'shell', not both")
        if self.shell and self.args:
            raise ValueError("a shell step takes no 'args'; write the values into the command line")
        return self

    @property
    def is_shell(self) -> bool:
        """Whether this is a shell step (a command line in the sandbox, not a call of an app action)."""
        return self.tool == SHELL_TOOL


class Control(_Strict):
    """A negative control: a plausible wrong solution that must score 0.0."""

    name: str
    why: str = ""
    steps: list[Step]


class WorldSpec(_Strict):
    """Which company the world starts from and what the row changes in it."""

    fixture: str = Field("default", description="the company: 'default' or a generated 'gen-<n>'")
    overrides: dict[str, dict[str, dict[str, dict[str, Any] | None]]] = {}

    @field_validator("fixture")
    @classmethod
    def _known_company(cls, value: str) -> str:
        try:
            check_company(value)  # the name only: the company is built later, off the event loop
        except CompanyError as exc:
            raise ValueError(str(exc)) from None
        return value


Tier = Literal["easy", "medium", "hard"]
#: What the work is: an ordinary task, a request to decline, document work in the shell, a long plan across
#: apps, or a request that is clear only once the world is read.
Kind = Literal["task", "refusal", "document", "long_horizon", "ambiguity"]
#: The kinds, in the order ``tasks --stats`` lists them.
KINDS: tuple[Kind, ...] = ("task", "refusal", "document", "long_horizon", "ambiguity")


#: The years a row's ``now`` may fall in (the apps count forward from it).
NOW_YEARS = (1970, 2200)
_ADDRESS = re.compile(r"^[^@\s,;]{1,64}@[^@\s,;]+\.[^@\s,;]+$")


class Task(_Strict):
    """One task row, validated. See the module docstring for the fields."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$")
    instruction: str = Field(min_length=1)
    apps: list[str] = Field(min_length=1)
    exposure: Exposure = "mcp"
    docs_tool: Literal["api_fetch", "api_docs"] = "api_fetch"
    sandbox: bool | None = None
    image: str | None = Field(None, description="sandbox image for container providers, e.g. a documents image")
    now: datetime | None = None
    timezone: str | None = None
    user: str | None = None
    world: WorldSpec = WorldSpec()
    workspace: dict[str, str] = {}
    checks: list[dict[str, Any]] = Field(min_length=1)
    allowed_changes: list[dict[str, Any]] = []
    solution: list[Step] = []
    alternative_solutions: list[list[Step]] = []
    negative_controls: list[Control] = []
    no_controls: dict[str, str] = {}
    family: str | None = Field(None, pattern=r"^[a-z0-9][a-z0-9-]{0,47}$")
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    split: Split = "train"
    tier: Tier | None = None
    kind: Kind = "task"
    documents: dict[str, dict[str, Any]] = {}

    @property
    def needs_shell(self) -> bool:
        """Whether a reference or control runs shell steps: the row is played only where a sandbox is lent."""
        plays = [self.solution, *self.alternative_solutions, *(c.steps for c in self.negative_controls)]
        return any(step.is_shell for steps in plays for step in steps)

    @field_validator("apps")
    @classmethod
    def _known_apps(cls, value: list[str]) -> list[str]:
        unknown = [a for a in value if a not in REGISTRY.apps]
        if unknown:
            raise ValueError(f"unknown apps {unknown}; apps: {list(REGISTRY.apps)}")
        if len(set(value)) != len(value):
            raise ValueError("an app is named twice")
        return value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        if value is not None and value.strip("/").lower() in HOST_ZONES:
            raise ValueError(
                f"{value[:60]!r} stands for the host's own zone (the same row would give other times on another "
                "host); give an IANA zone name such as 'Europe/Berlin'"
            )
        if value is not None and not _is_zone(value):
            raise ValueError(f"unknown time zone {value[:60]!r}; give an IANA zone name such as 'Europe/Berlin'")
        if value is not None and _not_civil(value):
            raise ValueError(
                f"{value[:60]!r} is not a place's clock (Factory has no offset of its own; right/ zones count leap "
                "seconds and run 27 s off); give an IANA zone name such as 'Europe/Berlin'"
            )
        return value

    @field_validator("now")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.utcoffset() is None:
            raise ValueError("the time has no zone; give one such as '2026-03-12T09:00:00+01:00' or '...Z'")
        if value is not None and not NOW_YEARS[0] <= value.year <= NOW_YEARS[1]:
            # the apps count days and weeks past it (a calendar's default window): year 9999 would overflow them
            raise ValueError(f"year {value.year} is out of range; give a time in {NOW_YEARS[0]}-{NOW_YEARS[1]}")
        return value

    @field_validator("user")
    @classmethod
    def _an_address(cls, value: str | None) -> str | None:
        if value is not None and (len(value) > 254 or not _ADDRESS.match(value)):
            raise ValueError(f"{value[:60]!r} is not an email address; give the user's, e.g. 'priya.shah@example.com'")
        return value

    @model_validator(mode="after")
    def _overrides_of_its_apps(self) -> Task:
        stray = [app for app in self.world.overrides if app not in self.apps and app != "directory"]
        if stray:
            raise ValueError(
                f"world.overrides: {stray[0][:40]!r} is not one of the row's apps {self.apps}; "
                "add it to apps or drop its overrides"
            )
        return self

    @field_validator("no_controls")
    @classmethod
    def _known_controls(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = [n for n in value if n not in CONTROL_NAMES]
        if unknown:
            raise ValueError(f"unknown generated controls {unknown}; controls: {list(CONTROL_NAMES)}")
        return value

    @field_validator("workspace")
    @classmethod
    def _paths_inside(cls, value: dict[str, str]) -> dict[str, str]:
        files: dict[PurePosixPath, str] = {}
        for path in value:
            try:
                where = workspace_path(path)
            except WorkspacePathError as exc:
                raise ValueError(f"{path[:80]!r} is not a path inside the workspace ({exc})") from None
            if where == PurePosixPath(".") or path.endswith("/"):
                raise ValueError(f"{path[:80]!r} names a folder; give a file's path such as 'notes/todo.txt'")
            if any(len(part.encode()) > MAX_NAME_BYTES for part in where.parts):
                raise ValueError(f"{path[:80]!r}: a name on the path is longer than {MAX_NAME_BYTES} bytes")
            files[where] = path
        for where, path in sorted(files.items()):
            for folder in where.parents:
                if folder in files:  # "a" and "a/b": a file where the other needs a folder
                    raise ValueError(f"{files[folder][:80]!r} is a file, so {path[:80]!r} cannot be inside it")
        return value


#: Longest name of one file or folder on a path (bytes): the limit of Linux file systems.
MAX_NAME_BYTES = 255
#: Zone names that stand for the host's own zone: the same row would give other times on another host.
HOST_ZONES = ("localtime", "posixrules")


def _not_civil(name: str) -> bool:
    """Whether ``name`` is a zone file that is no place's clock: ``Factory`` or a leap-second ``right/`` zone."""
    key = name.strip("/").lower()
    return key == "factory" or key.startswith("right/")


def _is_zone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows (``Europe/Berlin``, ``UTC``)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # ValueError: a path-like or malformed key
        return False
    return True
