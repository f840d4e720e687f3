"""The policy's next step: what the scripted model answers at one point of a conversation.

Every wire format reduces a request to a :class:`Turn` (the user messages, the system text, the tool outputs
so far, the tools offered, the replies so far); :func:`next_reply` picks the answer from the turn and the
steps the policy plays:

- **tool calls** (the harness offers tools): step *n* is played once *n* tool outputs are in the conversation.
  For the ``mcp`` exposure the step is a call of its MCP tool (found by its name, or a name ending in
  ``_<name>``: OpenCode's ``company_company_...``); for ``cli`` it is one app command through the harness's own
  shell tool (:data:`SHELL_TOOLS`: Codex's ``shell``/``exec_command``, Claude Code's ``Bash``, Gemini CLI's
  ``run_shell_command``, Pi's and mini-SWE-agent's ``bash``), and a shell step is its own command line whatever
  the exposure. Values a later step needs (its ``save`` paths) are read back out of the earlier outputs (JSON,
  possibly inside a shell tool's wrapper; a shell step's whole output is its ``stdout``).
- **a bash block in text** (no tools offered; the prompt asks for a ```` ```bash ```` block, as mini-SWE-agent's
  text mode does): one command per reply; each later user message is the previous command's output.
- **Terminus 2's JSON** (no tools offered; the prompt asks for ``"keystrokes"``): one JSON reply typing every
  step's command, then ``"task_complete": true`` on every later turn.

After the last step the model answers :data:`FINAL_TEXT` (or, when the prompt says to end with
``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``, runs that first). A request that offers no tools and asks for
neither text format (a side request such as a title) gets a short text.
"""

from __future__ import annotations

import contextlib
import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from cli_shim import APPLESS_COMMAND, to_argv
from gateway.control.rows import Step
from gateway.control.steps import extract, substitute
from gateway.runners.model.plans import ScriptError
from tools import COMPLETE_TASK, REGISTRY, Action
from tools.kernel.registry import TOOL_PREFIX

__all__ = [
    "FINAL_TEXT",
    "FINISH_COMMAND",
    "SHELL_TOOLS",
    "Call",
    "Turn",
    "decode_output",
    "next_reply",
    "reply_style",
    "shell_command",
]

#: What the model says when it has played every step.
FINAL_TEXT = "Done: everything you asked for is handled."
#: The command mini-SWE-agent ends an episode on; run after the last step when the prompt names it.
FINISH_COMMAND = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
#: Shell tools harnesses offer, in order of preference.
SHELL_TOOLS = ("shell_command", "exec_command", "shell", "bash", "Bash", "run_shell_command")


@dataclass
class Turn:
    """A request, whatever its wire format.

    Attributes:
        user: Text of each user message (tool results left out), in order.
        system: The system prompt or instructions, joined.
        outputs: Text of each tool output in the conversation, in order.
        offered: The tools offered: ``"namespace/name"`` (or ``"name"``) to the tool's JSON schema.
        replies: How many assistant turns the conversation holds.
    """

    user: list[str] = field(default_factory=list)
    system: str = ""
    outputs: list[str] = field(default_factory=list)
    offered: dict[str, dict[str, Any]] = field(default_factory=dict)
    replies: int = 0

    @property
    def text(self) -> str:
        """The system text and every user message, joined: where the instruction is looked for."""
        return "\n".join([self.system, *self.user])


@dataclass(frozen=True)
class Call:
    """A tool call: ``key`` is a key of :attr:`Turn.offered` (``"namespace/name"`` or ``"name"``)."""

    key: str
    arguments: dict[str, Any]


def reply_style(turn: Turn) -> str:
    """``"tools"``, ``"terminus"``, ``"bash_block"`` or ``"side"`` (a request with no tools and no text format)."""
    if turn.offered:
        return "tools"
    if '"keystrokes"' in turn.text:
        return "terminus"
    if "```bash" in turn.text:
        return "bash_block"
    return "side"


def next_reply(turn: Turn, steps: list[Step], exposure: str) -> Call | str:
    """The next tool call, or the text to answer, for ``turn`` when the policy plays ``steps``.

    Args:
        turn: The request.
        steps: The steps the policy plays (empty for ``noop``).
        exposure: The session's exposure: ``"mcp"`` (tool calls) or ``"cli"`` (shell commands).

    Raises:
        ScriptError: a tool or shell tool is not offered, an output cannot be read, the exposure cannot be played.
    """
    style = reply_style(turn)
    finish = FINISH_COMMAND in turn.text
    if style == "terminus":
        done = turn.replies > 0 or not steps
        commands = [] if done else [shell_command(s) for s in _concrete(steps)]
        keys = [{"keystrokes": command + "\n", "duration": 1.0} for command in commands]
        return json.dumps({"analysis": "Finished." if done else "Nothing done yet.",
                           "plan": "Nothing more." if done else "Run the commands.",
                           "commands": keys, "task_complete": done})  # fmt: skip
    outputs = turn.outputs if style == "tools" else turn.user[1:]
    if len(outputs) == len(steps) and finish:
        return _shell_or_block(style, FINISH_COMMAND, turn.offered)
    if len(outputs) >= len(steps):
        return FINAL_TEXT
    step = steps[len(outputs)]
    if step.is_shell:  # a command line of the reference's own: the harness's shell runs it as written
        return _shell_or_block(style, str(substitute(step.shell, _saved(steps, outputs))), turn.offered)
    args = substitute(step.args, _saved(steps, outputs))
    if style == "bash_block" or exposure == "cli":
        return _shell_or_block(style, shell_command(Step(tool=step.tool, args=args)), turn.offered)
    if exposure != "mcp":
        raise ScriptError(f"the {exposure!r} exposure is played by neither tool calls nor shell commands")
    wanted = TOOL_PREFIX + step.tool.replace(".", "_")
    for key in turn.offered:
        name = key.rpartition("/")[2]
        if name == wanted or name.endswith("_" + wanted):
            return Call(key, args)
    raise ScriptError(f"tool {wanted!r} is not offered; offered: {sorted(turn.offered)}")


def shell_command(step: Step) -> str:
    """``step`` as one app command line (``calendar update-event --event-id=...``); a shell step's own line."""
    if step.is_shell:
        return step.shell
    action = _action(step.tool)
    return shlex.join([action.app or APPLESS_COMMAND, *to_argv(action, step.args)])


def _concrete(steps: list[Step]) -> list[Step]:
    """``steps`` when none saves a value for a later one (they can all be typed at once)."""
    for step in steps:
        if step.save:
            raise ScriptError(f"step {step.tool} saves values a later step needs; this format types every "
                              "command in one turn, so pick a task whose steps save none")  # fmt: skip
    return steps


def _saved(steps: list[Step], outputs: list[str]) -> dict[str, Any]:
    variables: dict[str, Any] = {}
    for n, (step, output) in enumerate(zip(steps, outputs, strict=False)):
        if step.save:
            try:
                result = {"stdout": output, "stderr": "", "exit_code": 0} if step.is_shell else decode_output(output)
                variables.update({var: extract(result, path) for var, path in step.save.items()})
            except (ScriptError, ValueError, LookupError, TypeError) as exc:
                raise ScriptError(f"reading the output of step {n} ({step.tool}): {exc}") from None
    return variables


def _action(step_tool: str) -> Action:
    if step_tool == "complete_task":
        return COMPLETE_TASK
    app, _, name = step_tool.partition(".")
    return REGISTRY.action(app, name)


def _shell_or_block(style: str, command: str, offered: dict[str, dict[str, Any]]) -> Call | str:
    if style == "bash_block":
        return f"THOUGHT: the next step.\n\n```bash\n{command}\n```"
    for shell in SHELL_TOOLS:
        for key, schema in offered.items():
            if key.rpartition("/")[2] == shell:
                return Call(key, _shell_arguments(schema, command))
    raise ScriptError(f"no shell tool offered; offered: {sorted(offered)}")


def _shell_arguments(schema: dict[str, Any], command: str) -> dict[str, Any]:
    """Arguments for a shell tool, shaped by its schema: a string ``command``/``cmd``, or an argv ``command``."""
    props = schema.get("properties") or {}
    if "command" in props:
        if props["command"].get("type") == "array":
            return {"command": ["bash", "-lc", command]}
        return {"command": command}
    if "cmd" in props:
        return {"cmd": command}
    raise ScriptError(f"cannot tell how to pass a command to a shell tool with parameters {sorted(props)}")


def decode_output(text: str) -> Any:
    """The JSON value inside a tool output: bare JSON, a shell tool's wrapper, or JSON after a header.

    Raises:
        ScriptError: no JSON value can be read from ``text``.
    """
    with contextlib.suppress(ValueError):
        value = json.loads(text)
        if isinstance(value, dict) and isinstance(value.get("output"), str) and "metadata" in value:
            return decode_output(value["output"])  # Codex's shell wrapper: {"output": ..., "metadata": ...}
        return value
    if "Output:\n" in text:  # Codex's text wrapper: "Exit code: 0\nWall time: ...\nOutput:\n<stdout>"
        with contextlib.suppress(ScriptError):
            return decode_output(text.split("Output:\n", 1)[1])
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if starts:
        with contextlib.suppress(ValueError):
            return json.JSONDecoder().raw_decode(text[min(starts) :])[0]
    raise ScriptError(f"no JSON in tool output {text[:300]!r}")
