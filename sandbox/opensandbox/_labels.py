"""OpenSandbox metadata and egress rules: Kubernetes label keys and values, and domain names to allow."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

__all__ = ["OWNER_LABEL", "check_label", "check_label_value", "egress_host"]

OWNER_LABEL = "company-gateway/owner"
"""Metadata key holding the provider's owner; ``list_owned`` filters on it."""

# Metadata keys and values: Kubernetes label rules, as specs/sandbox-lifecycle.yml states for metadata.
_LABEL_NAME = re.compile(r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?")
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_HOST = re.compile(r"(\*\.)?([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\.)*[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


def check_label_value(what: str, value: str) -> None:
    if not _LABEL_NAME.fullmatch(value):
        raise ValueError(
            f"{what} {value!r} is not a Kubernetes label value (1-63 letters, digits, '-', '_', '.', "
            "starting and ending with a letter or digit), as OpenSandbox requires for metadata"
        )


def check_label(key: str, value: str) -> None:
    prefix, _, name = key.rpartition("/")
    if (
        key == OWNER_LABEL
        or key.startswith("opensandbox.io/")
        or not _LABEL_NAME.fullmatch(name)
        or (prefix and (len(prefix) > 253 or not _DNS_SUBDOMAIN.fullmatch(prefix)))
    ):
        raise ValueError(
            f"label key {key!r} is not usable as OpenSandbox metadata: use a Kubernetes label key such as "
            f"'session' (not {OWNER_LABEL!r} nor one under 'opensandbox.io/')"
        )
    check_label_value(f"label {key!r} value", value)


def egress_host(host: str) -> str:
    """A host as an egress rule target: a domain name or ``*.`` wildcard, without scheme or port."""
    raw = host.strip()
    name = (urlsplit(raw if "://" in raw else f"//{raw}").hostname or "").rstrip(".")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        raise ValueError(f"egress host {host!r} is an IP address; OpenSandbox's egress rules match domain names only")
    if not _HOST.fullmatch(name):
        raise ValueError(f"egress host {host!r} is not a domain name such as 'api.openai.com' or '*.openai.com'")
    return name
