"""Scale-out on Ray: gateway replicas as Ray actors, each serving uvicorn on its own node's address.

Each :class:`ReplicaServer` (run as a Ray actor) builds ``create_app`` with
``public_url`` set to its own absolute URL, so every URL a seed hands out points
at that replica, and tool calls never cross another process. A random
``incarnation`` per start goes into every session token, so a replica restarted
on a reused port refuses the tokens of its earlier run. The replicas are placed
with a SPREAD placement group (one bundle each); :mod:`gateway.cluster.router` places
seeds and routes verify and close.

Needs the ``ray`` extra: ``pip install 'company-gateway[ray]'``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette

from gateway.cluster.router import ReplicaRef, Router
from gateway.settings import Settings
from gateway.surfaces.protocol import http_protocol

__all__ = [
    "RAY_CONNECT_TIMEOUT_S",
    "Cluster",
    "ReplicaServer",
    "connect_ray",
    "import_ray",
    "local_auth_env",
    "replica_app",
    "serve_cluster",
    "start_cluster",
]

logger = logging.getLogger(__name__)


def import_ray() -> Any:
    """Import ``ray``, or raise ImportError that names the extra to install."""
    try:
        import ray
    except ImportError:
        raise ImportError("scale-out needs Ray: pip install 'company-gateway[ray]'") from None
    return ray


def local_auth_env() -> None:
    """Prepare Ray token authentication for a cluster this process starts itself.

    Ray 2.60+ turns token authentication on by default for a new local cluster and writes
    ``~/.ray/auth_token``; a driver then joins only with that token. When ``RAY_AUTH_MODE`` is
    unset, this keeps authentication on but with a fresh random token held in the environment
    (``RAY_AUTH_TOKEN``, inherited by every Ray process started from here), so nothing is written
    to the home folder and a stale token file from another run cannot cause a mismatch.
    """
    if os.environ.get("RAY_AUTH_MODE") is None:
        os.environ["RAY_AUTH_MODE"] = "token"
        os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
        os.environ.pop("RAY_AUTH_TOKEN_PATH", None)
    if "ray" in sys.modules:  # Ray caches its config at import: refresh it as Ray's own _enable_token_auth does
        from ray._raylet import AuthenticationTokenLoader, Config  # type: ignore[attr-defined]  # Ray's private API

        Config.initialize("")
        AuthenticationTokenLoader.instance().reset_cache()


def replica_app(settings: Settings) -> Starlette:
    """``create_app(settings)`` whose session tokens carry ``settings.incarnation``."""
    from gateway.surfaces.asgi import create_app

    return create_app(settings)


class ReplicaServer:
    """One gateway replica; run as a Ray actor (``ray.remote(ReplicaServer)``) or in-process.

    Args:
        settings: Gateway settings as a dict (``host`` is the address to bind; ``public_url``
            and ``incarnation`` are set here).
        host: Address to bind (default: this node's IP, ``ray.util.get_node_ip_address()``).
    """

    def __init__(self, settings: dict[str, Any], host: str | None = None) -> None:
        self._settings = settings
        self._host = host
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._app: Starlette | None = None

    async def start(self) -> dict[str, Any]:
        """Bind a socket on this node, serve the gateway on it; returns ``{"url", "incarnation", "sandbox_root"}``."""
        host = self._host
        if host is None:
            import ray

            host = ray.util.get_node_ip_address()  # type: ignore[no-untyped-call]  # untyped in Ray
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, int(self._settings.get("port") or 0)))
        url = f"http://{host}:{sock.getsockname()[1]}"
        incarnation = secrets.token_hex(6)
        settings = Settings(**{**self._settings, "host": host, "public_url": url, "incarnation": incarnation})
        self._app = replica_app(settings)
        config = uvicorn.Config(
            self._app,
            log_level="warning",
            lifespan="on",
            proxy_headers=False,
            http=http_protocol(settings.read_timeout_s, settings.max_request_bytes),
        )
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                self._task.result()
                raise RuntimeError("the replica stopped before it started")
            await asyncio.sleep(0.01)
        provider = self._app.state.gateway.provider
        root = getattr(provider, "root", None)
        logger.info("replica serving at %s (incarnation %s)", url, incarnation)
        return {"url": url, "incarnation": incarnation, "sandbox_root": str(root) if root else None}

    async def ping(self) -> dict[str, Any]:
        """``{"live": sessions held, "closing": bool}``."""
        gateway = self._app.state.gateway if self._app else None
        return {"live": len(gateway.store) if gateway else 0, "closing": bool(gateway and gateway.closing)}

    async def stop(self) -> int:
        """Refuse seeds, stop serving (the gateway's shutdown destroys every lent sandbox); returns sessions held."""
        if self._server is None or self._task is None or self._app is None:
            return 0
        gateway = self._app.state.gateway
        held = len(gateway.store)
        gateway.begin_shutdown()
        self._server.should_exit = True
        await self._task
        self._server = None
        return held


@dataclass
class Cluster:
    """Replicas started on Ray, their placement group, and the router over them."""

    router: Router
    actors: list[Any]
    placement_group: Any
    infos: list[dict[str, Any]] = field(default_factory=list)

    async def stop(self, drain_s: float = 0.0) -> int:
        """Drain the router (seeds refused; up to ``drain_s`` seconds), mask the rest, stop every replica.

        Each replica's gateway destroys its sandboxes; the actors are then killed and the placement
        group removed. Returns how many sessions were masked at the deadline.
        """
        ray = import_ray()
        masked = await self.router.drain(drain_s)
        live = [(a, r) for a, r in zip(self.actors, self.router.replicas, strict=True) if not r.lost]
        refs = [a.stop.remote() for a, _ in live]
        for ref, (_, replica) in zip(refs, live, strict=True):
            try:
                await asyncio.wait_for(ref, 60)
            except (TimeoutError, ray.exceptions.RayError) as exc:
                logger.error("replica %s did not stop cleanly: %s", replica.name, exc)
        for actor in self.actors:
            with contextlib.suppress(ray.exceptions.RayError):
                ray.kill(actor)
        from ray.util.placement_group import remove_placement_group

        remove_placement_group(self.placement_group)
        return masked


async def start_cluster(
    replicas: int,
    settings: Settings,
    *,
    replica_host: str | None = None,
    num_cpus: float = 0.25,
    health_timeout_s: float = 5.0,
) -> Cluster:
    """Start ``replicas`` gateway replicas spread over the Ray cluster this process is connected to.

    Args:
        replicas: How many replicas (one placement-group bundle each, SPREAD over nodes).
        settings: Settings for every replica (``max_concurrent_sessions`` is also the router's cap
            per replica). The router's own address is added to the replicas' ``trusted_networks``.
        replica_host: Address each replica binds (default: its node's IP).
        num_cpus: CPUs reserved per replica.
        health_timeout_s: Seconds a health check or actor ping may take before a replica counts as lost.

    Raises:
        ImportError: Ray is not installed.
        TimeoutError: the placement group could not be placed within 60 s.
    """
    ray = import_ray()
    from ray.util.placement_group import placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    pg = placement_group([{"CPU": num_cpus}] * replicas, strategy="SPREAD")
    await asyncio.wait_for(pg.ready(), 60)
    router_ip = ray.util.get_node_ip_address()
    trusted = list(dict.fromkeys([*settings.trusted_networks, f"{router_ip}/32"]))
    base = settings.model_dump(exclude={"public_url", "incarnation", "port"})
    base["trusted_networks"] = trusted
    remote = ray.remote(ReplicaServer)
    actors = [
        remote.options(
            num_cpus=num_cpus,
            max_restarts=0,
            scheduling_strategy=PlacementGroupSchedulingStrategy(pg, placement_group_bundle_index=i),
        ).remote(base, replica_host)
        for i in range(replicas)
    ]
    infos = [await ref for ref in [a.start.remote() for a in actors]]
    refs = [ReplicaRef(name=f"r{i}", url=info["url"], incarnation=info["incarnation"], handle=a)
            for i, (a, info) in enumerate(zip(actors, infos, strict=True))]  # fmt: skip

    async def alive(replica: ReplicaRef) -> bool:
        try:
            await replica.handle.ping.remote()
        except ray.exceptions.RayActorError:
            return False
        return True

    router = Router(refs, settings.max_concurrent_sessions, alive=alive, health_timeout_s=health_timeout_s)
    return Cluster(router=router, actors=actors, placement_group=pg, infos=infos)


#: Seconds :func:`connect_ray` waits to reach an existing cluster's address before giving up.
RAY_CONNECT_TIMEOUT_S = 10.0


def connect_ray(address: str | None, *, log_to_driver: bool = True, timeout_s: float = RAY_CONNECT_TIMEOUT_S) -> None:
    """Join the Ray cluster at ``address`` (``"auto"``, ``"ray://head:10001"``, ``"host:6379"``), or start a local one.

    Without ``address`` the ``RAY_ADDRESS`` environment variable names the cluster; when it is unset
    too (or ``"local"``), a new local cluster starts, whatever address a finished Ray run left in
    Ray's temp folder (its ``ray_current_cluster`` file, which Ray would otherwise try forever).
    A local cluster keeps Ray's token authentication on, with a token held in the environment
    (:func:`local_auth_env`). Joining an existing cluster that uses token authentication needs its
    token, as Ray documents: ``RAY_AUTH_TOKEN`` or ``~/.ray/auth_token``.

    Args:
        address: The cluster to join, or None for ``RAY_ADDRESS`` or a new local cluster.
        log_to_driver: Whether the actors' output is printed here.
        timeout_s: Seconds to wait for an existing cluster's address to accept a connection.

    Raises:
        ConnectionError: The cluster's address does not accept a connection within ``timeout_s``
            (or ``"auto"`` finds no cluster); the message names ``RAY_ADDRESS`` and what to do.
    """
    ray = import_ray()
    source = "--address" if address else "RAY_ADDRESS"
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is None or address == "local":
        local_auth_env()
        ray.init(address="local", include_dashboard=False, logging_level="WARNING", log_to_driver=log_to_driver)
        return
    _check_reachable(address, source, timeout_s)
    ray.init(address=address, logging_level="WARNING", log_to_driver=log_to_driver)


def _check_reachable(address: str, source: str, timeout_s: float) -> None:
    """Refuse, after at most ``timeout_s`` seconds, a Ray address that accepts no TCP connection.

    Raises:
        ConnectionError: naming the address, where it came from, and what to do instead.
    """
    advice = (
        "start that cluster, point RAY_ADDRESS (or --address) at a running one, "
        "or set RAY_ADDRESS=local to start a local cluster"
    )
    target = address
    try:
        if address == "auto":
            from ray._private.services import canonicalize_bootstrap_address  # Ray's own lookup of "auto"

            target = canonicalize_bootstrap_address("auto") or ""
            source = "Ray's ray_current_cluster file"
        hostport = target.removeprefix("ray://").rsplit("/", 1)[0]
        host, _, port = hostport.rpartition(":")
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
            pass
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
        raise ConnectionError(
            f"cannot reach the Ray cluster at {target[:200]!r} (from {source}) within {timeout_s:g} s: {reason}; "
            f"{advice}"
        ) from exc


def serve_cluster(
    replicas: int,
    settings: Settings,
    *,
    address: str | None,
    drain_s: float,
    replica_host: str | None = None,
    announce: Callable[[str], None] = logger.info,
) -> None:
    """``company-gateway cluster``: start replicas on Ray, serve the router until SIGTERM or SIGINT.

    On the first signal seeds are refused and open sessions get ``drain_s`` seconds to be verified
    and closed; the rest are masked (failure_kind ``"shutdown"``), every replica stops (destroying
    its sandboxes), the actors are killed and the placement group removed. A second signal stops
    at once. ``announce`` receives one line per replica and the router's URL.
    """
    from gateway.cluster.router import create_router_app

    ray = import_ray()
    connect_ray(address)

    async def main() -> None:
        cluster = await start_cluster(replicas, settings, replica_host=replica_host)
        app = create_router_app(cluster.router, settings.trusted_networks)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((settings.host, settings.port))
        loop = asyncio.get_running_loop()
        config = uvicorn.Config(
            app,
            log_level=settings.log_level.lower(),
            proxy_headers=False,
            lifespan="on",
            http=http_protocol(settings.read_timeout_s, settings.max_request_bytes),
        )

        class Server(uvicorn.Server):
            """Drains the router on the first signal; a second one exits at once."""

            draining = False

            def handle_exit(self, sig: int, frame: Any) -> None:
                if self.draining:
                    super().handle_exit(sig, frame)
                    return
                self.draining = True
                loop.call_soon_threadsafe(lambda: loop.create_task(drain_then_exit()))

        server = Server(config)

        async def drain_then_exit() -> None:
            masked = await cluster.router.drain(drain_s)
            logger.info("cluster: drained; %d session(s) masked", masked)
            server.should_exit = True

        for r in cluster.router.replicas:
            announce(f"company-gateway cluster: replica {r.name} at {r.url}")
        host, port = sock.getsockname()[:2]
        announce(f"company-gateway cluster: seed router at http://{host}:{port}")
        try:
            await server.serve(sockets=[sock])
        finally:
            await cluster.stop(0.0)
            sock.close()

    try:
        asyncio.run(main())
    finally:
        ray.shutdown()
