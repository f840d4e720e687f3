"""The gateway's settings, read once at the command-line entry point.

Every field can be set in the environment with the ``GATEWAY_`` prefix
(``GATEWAY_PORT=8000``, ``GATEWAY_TRUSTED_NETWORKS='["127.0.0.0/8","10.0.0.0/8"]'``)
or on the command line of ``company-gateway serve``.
"""

from __future__ import annotations

import ipaddress
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["LOG_LEVELS", "Settings"]


#: The logging levels the command line takes (``logging``'s names).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class Settings(BaseSettings):
    """Gateway settings (prefix ``GATEWAY_``, ``__`` for nesting)."""

    model_config = SettingsConfigDict(env_prefix="GATEWAY_", env_nested_delimiter="__", extra="forbid")

    host: str = Field("127.0.0.1", description="Address to listen on.")
    port: int = Field(0, ge=0, le=65535, description="Port to listen on; 0 picks a free one.")
    public_url: str | None = Field(
        None, description="Base URL that clients use to reach this server (default: http://host:port)."
    )
    trusted_networks: list[str] = Field(
        default=["127.0.0.0/8", "::1/128"],
        description="CIDR blocks whose peers may call the control routes (judged by the socket peer address).",
    )
    tasks_file: str | None = Field(None, description="A JSONL file of task rows; default: the built-in tasks.")
    tasks_split: Literal["train", "validation", "test"] | None = Field(
        None, description="Serve only the tasks of this split (default: all)."
    )
    tasks_family: str | None = Field(
        None, description="Serve only these families' instances: names, comma-separated ('none': hand-written rows)."
    )
    control_token: str | None = Field(
        None,
        description="When set, control routes also require 'Authorization: Bearer <control_token>' "
        "(needed where sandboxes share this host's network: docker's host network, the local provider with "
        'sandbox_network="host" or without bubblewrap).',
    )
    session_secret: str | None = Field(None, description="Key that signs session tokens; default: random per process.")
    incarnation: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9_-]{1,32}$",
        description="Id of this run that every session token carries, so a restart refuses old tokens (replicas).",
    )
    mcp_server_name: str = Field("company", pattern=r"^[a-z][a-z0-9_-]{0,15}$", description="Name of the MCP server.")
    mcp_fast_path: bool = Field(
        True,
        description="Answer MCP tools/call and tools/list (stateless JSON, handshake-era versions) on a fast path in "
        "front of FastMCP, with the same answers at ~3x the calls/s; false sends every MCP request through FastMCP.",
    )
    close_tools_on_task_end: bool = Field(False, description="Refuse tool calls once the work was declared complete.")
    sandbox_provider: Literal["local", "docker", "opensandbox", "none"] = Field(
        "local", description="Who lends sandboxes to sessions that need one (cli and http exposures)."
    )
    sandbox_root: str | None = Field(
        None, description="local provider: folder holding the workspaces (default: a folder under the temp dir)."
    )
    sandbox_owner: str = Field(
        "company-gateway", description="Owner label on every sandbox; leftovers with it are reaped at start-up."
    )
    sandbox_network: Literal["isolated", "host"] = Field(
        "isolated",
        description='local and docker providers: "isolated" runs every sandbox in a network of its own (only '
        "loopback) that reaches the company API through a unix socket bound into it (COMPANY_API_SOCKET), so it "
        'cannot reach the control routes; "host" shares this host\'s network (the sandbox calls COMPANY_API_URL '
        "over TCP from loopback, a trusted peer: set control_token). Sandboxes always share the network without "
        "bubblewrap (local) or with a remote engine (docker: a tcp:// or ssh:// DOCKER_HOST).",
    )
    sandbox_base_url: str | None = Field(
        None, description="Base URL sandboxes use to reach this server (default: the URL the seed came in on)."
    )
    sandbox_image: str | None = Field(
        None, description="docker/opensandbox: the sandbox image (default: the provider's own default)."
    )
    sandbox_host_binds: list[str] = Field(
        default=[], description='docker: host folders bound into every sandbox, as "SRC:DST[:ro]".'
    )
    sandbox_tools: str | None = Field(
        None,
        description="local provider: a host folder lent read-only to every sandbox at /opt/tools, its bin/ on PATH "
        "after the app commands (default: the document tools, ~/.cache/office-tools/python, when "
        'scripts/install-document-tools.sh has installed them; "" lends none).',
    )
    sandbox_block_internet: bool = Field(
        False,
        description="opensandbox: every sandbox may reach only this server and sandbox_allowed_hosts "
        "(refused at start with a provider that cannot enforce it).",
    )
    sandbox_allowed_hosts: list[str] = Field(
        default=[], description="Domain names sandboxes may reach besides this server when the internet is blocked."
    )
    sandbox_ttl_s: float = Field(
        6 * 3600.0,
        gt=0,
        description="Lifetime of a sandbox in seconds, labelled on it at creation (at least session_lease_s). At "
        "start a gateway reaps only its owner's sandboxes whose lifetime has passed or that its own run created, "
        "so gateways sharing an engine and owner never reap each other's live sandboxes.",
    )
    session_lease_s: float = Field(
        900.0,
        ge=0,
        description="Seconds a live session is kept without a call, /task_state or /renew_session; then it is "
        "closed as abandoned (sandbox destroyed, slot freed, /verify masked with failure_kind 'abandoned'). "
        "0: no lease.",
    )
    max_concurrent_sessions: int | None = Field(
        None, ge=1, description="Most sessions holding a world or sandbox at once; further seeds wait (None: no cap)."
    )
    admission_timeout_s: float = Field(86400.0, gt=0, description="Longest a seed waits for a session slot (s).")
    seed_slice_s: float = Field(
        0.01,
        ge=0,
        description="Seconds of back-to-back world builds before the server serves other requests "
        "for as long again (a lone seed waits one slice).",
    )
    shutdown_timeout_s: float = Field(
        30.0, gt=0, description="Seconds shutdown may take; seeds starting a sandbox get this less 2 s."
    )
    max_request_bytes: int = Field(
        8 * 1024 * 1024, ge=1024, description="Largest request body accepted, in bytes (413 beyond)."
    )
    max_seed_bytes: int = Field(
        256 * 1024,
        ge=1024,
        description="Largest body of POST /seed_session, in bytes (413 beyond, unread): a row sent inline is parsed "
        "whole on the event loop (~10 ms a MB), so a bound far below max_request_bytes keeps a large one from "
        "stalling every session (1 MiB rows sent at once slowed another session's calls 7-14x); the largest "
        "built-in row is ~24 KB.",
    )
    large_body_bytes_per_s: int = Field(
        1024 * 1024,
        ge=1024,
        description="Pace of the bytes of tool request bodies past 64 KiB, over every session, after a burst of 4 MiB: "
        "such a body is parsed whole on the event loop (~3 ms a MB), so a session posting 4-8 MB bodies back to back "
        "slowed every other session's calls 9-22x; paced as they are read, large bodies share the rate chunk for "
        "chunk while small requests go on (the wait does not count toward the read timeout).",
    )
    session_max_inflight: int = Field(
        8,
        ge=1,
        description="Most tool requests (MCP, HTTP, shell) one session may have open at once; they run one at a "
        "time in arrival order, and one more is answered 429 with Retry-After before its body is read.",
    )
    session_cpu_share: float = Field(
        0.02,
        ge=0,
        le=1,
        description="Share of a core each session's tool calls may spend over time (on the event loop or in a worker "
        "thread), paid back per second after a burst of 0.5 s: past it, the session's next call waits (at most 5 s) "
        "while another session is live. One session's back-to-back searches over the 5 M characters it stored (~0.15 "
        "s each) raised another session's p99 3-4x; a task's own calls cost a few ms. 0 turns it off.",
    )
    read_timeout_s: float = Field(
        30.0,
        gt=0,
        description="Seconds a client may take to send a request's head (request line and headers; the connection "
        "is closed after), and as long again for its body (answered 408 after).",
    )
    max_file_bytes: int = Field(
        25 * 1024 * 1024,
        ge=1,
        description="Most bytes one call reads from a workspace (uploads, mail attachments), all its files together; "
        "a file past it is refused unread with an error naming the parameter. Default 25 MiB: Gmail's attachment limit "
        "(https://support.google.com/mail/answer/6584).",
    )
    closed_session_ttl_s: float = Field(
        3600.0,
        gt=0,
        description="Seconds a closed session's last state is kept, so /verify, /close_session and /task_state "
        "answer retries as before; after that the session is forgotten (404, as if never seeded).",
    )
    max_closed_sessions: int = Field(
        10000,
        ge=1,
        description="Most closed sessions whose last state is kept (a few KB each: the verify result with its "
        "change set); closing one more forgets the one closed longest ago (404 from then on).",
    )
    max_closed_session_bytes: int = Field(
        256 * 1024 * 1024,
        ge=0,
        description="Most bytes (as JSON) the closed sessions' kept states take together; past it the ones closed "
        "longest ago are forgotten first. A change set is at most about 2.5 MB, so this bounds the worst case.",
    )
    session_max_stored_bytes: int = Field(
        100 * 1024 * 1024,
        ge=0,
        description="Most bytes of file content one session may add (uploads, attachments, new versions; content "
        "the company already holds is free); a write past it is refused, naming the limit, and changes nothing.",
    )
    session_max_written_chars: int = Field(
        5_000_000,
        ge=0,
        description="Most characters of text one session may write through its calls (message bodies, notes, "
        "file text given inline, every text argument of a change); bounds what its searches must read. A call past "
        "it is refused, naming the limit, and changes nothing.",
    )
    session_max_new_records: int = Field(
        10000,
        ge=0,
        description="Most records one session may create (messages, events, files, comments, ...: every new id); "
        "a write past it is refused, naming the limit, and changes nothing.",
    )
    text_cache_max_bytes: int = Field(
        256 * 1024 * 1024,
        ge=0,
        description="Most bytes of memory the text read from stored files (for searches) takes in all, shared by every "
        "session; past it the text read longest ago is dropped (read again when next searched). A session's own "
        "files' text is dropped when it closes.",
    )
    memory_trim_interval_s: float = Field(
        5.0,
        ge=0,
        description="Least time between two hand-backs of freed memory to the system (glibc's malloc_trim, run off "
        "the event loop after sessions close, so RSS comes down after large files); 0 turns it off; no-op off glibc.",
    )
    document_cache_max_bytes: int = Field(
        1024 * 1024 * 1024,
        ge=0,
        description="Most bytes the on-disk cache of made documents (under ~/.cache/company-gateway/documents) keeps; "
        "past it the documents used longest ago are deleted (made again when next needed).",
    )
    company_cache_size: int = Field(
        12,
        ge=1,
        description="Most companies whose records are kept built (5-22 MiB each; the catalogue has 12); past it the "
        "company used longest ago is dropped and built again (0.1-4 s, off the event loop) when next needed.",
    )
    workspace_max_bytes: int = Field(
        1024 * 1024 * 1024,
        ge=0,
        description="Most bytes of files a session's workspace may hold. A download or save into it that would pass "
        "this is refused whole, naming the bound; what the agent's own shell writes is bounded where the provider "
        "can (docs/settings.md).",
    )
    allowed_hosts: list[str] = Field(
        default=[],
        description="Extra Host header values the MCP endpoint accepts (the names sandboxes use to reach it).",
    )
    log_level: str = Field(
        "INFO", description="Python logging level of the command-line entry point: DEBUG, INFO, WARNING or ERROR."
    )

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"log_level must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
        return value.upper()

    @model_validator(mode="after")
    def _ttl_covers_lease(self) -> Settings:
        if self.session_lease_s and self.sandbox_ttl_s < self.session_lease_s:
            raise ValueError(
                f"sandbox_ttl_s ({self.sandbox_ttl_s:g}) must be at least session_lease_s ({self.session_lease_s:g}): "
                "a sandbox must outlive its session's lease"
            )
        return self

    @field_validator("trusted_networks")
    @classmethod
    def _valid_networks(cls, value: list[str]) -> list[str]:
        for net in value:
            try:
                ipaddress.ip_network(net, strict=False)
            except ValueError:
                raise ValueError(f"trusted_networks: {net!r} is not a CIDR block such as 10.0.0.0/8") from None
        return value
