"""The shell commands placed in a workspace: one POSIX ``sh`` script per app, plus ``company``.

Each script forwards all its words, untouched, to ``POST <base>/cli/<app>``
(``<base>`` is ``COMPANY_API_URL`` without a trailing ``/api``) as a
form-encoded body (``argc`` then one ``argv`` per word) with the bearer token
from ``COMPANY_API_TOKEN``, asking for plain-text errors (``Accept: text/plain``);
the server parses them. It needs only ``sh`` and ``curl``, or ``python3`` when ``curl`` is missing.

When ``COMPANY_API_SOCKET`` names a unix socket (a sandbox without a network of
its own), the request goes through it (``curl --unix-socket``; in Python an
``http.client`` connection over ``AF_UNIX``) to the same URL, which then only
names the path and the ``Host`` header.

The HTTP status decides the exit status: 200 prints the body on stdout and
exits 0; 400 (wrong usage) prints it on stderr and exits 2; anything else
(a failed call, 401, 404, 409, 5xx, no connection) prints on stderr and exits 1.

Nothing is written to disk on the way: with ``curl`` the answer streams
through (``curl -i``; the head's status line picks stdout or stderr, then
``cat`` copies the body), and the Python fallback holds it in memory. So a
full ``/tmp`` changes nothing, and "cannot reach the company API" means just
that. When the answer cannot be written out (stdout on a full disk), the
command says so, and that the call itself went through, and exits 1; when
stdout's reader has gone (``| head``) it exits 141 (SIGPIPE) without a word.
"""

from __future__ import annotations

from cli_shim.parse import APPLESS_COMMAND
from tools import REGISTRY

__all__ = ["command_scripts", "script_for"]

# Python fallback, run as ``python3 -c '<this>' <cmd> <url> <word>...``: it must hold no single quote.
_PYTHON = """
import http.client, os, socket, sys, urllib.error, urllib.parse, urllib.request
cmd, url, words = sys.argv[1], sys.argv[2], sys.argv[3:]
where = os.environ.get("COMPANY_API_SOCKET", "")
fields = [("argc", str(len(words)))] + [("argv", w) for w in words]
body = urllib.parse.urlencode(fields, encoding="utf-8", errors="surrogateescape").encode("ascii")
headers = {
    "Authorization": "Bearer " + os.environ["COMPANY_API_TOKEN"],
    "Content-Type": "application/x-www-form-urlencoded",
    "Accept": "text/plain",
}
class SocketConnection(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(where)
try:
    if where:
        parts = urllib.parse.urlsplit(url)
        connection = SocketConnection(parts.netloc or "localhost")
        connection.request("POST", parts.path or "/", body=body, headers=headers)
        response = connection.getresponse()
        code, data = response.status, response.read()
        connection.close()
    else:
        request = urllib.request.Request(url, data=body, method="POST", headers=headers)
        with urllib.request.urlopen(request) as response:
            code, data = response.getcode(), response.read()
except urllib.error.HTTPError as error:
    code, data = error.code, error.read()
except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
    place = url + (" through " + where if where else "")
    sys.stderr.write(cmd + ": cannot reach the company API at " + place + " (" + str(error) + ")\\n")
    sys.exit(1)
out = sys.stdout if code == 200 else sys.stderr
try:
    out.flush()
    out.buffer.write(data)
    out.flush()
except BrokenPipeError:
    os._exit(141)
except OSError as error:
    said = "the call went through, but its answer could not be written to standard output"
    if code != 200:
        said = "the call failed, and its message could not be written to standard error"
    sys.stderr.write(cmd + ": " + said + " (" + (error.strerror or str(error)) + ")\\n")
    sys.stderr.flush()
    os._exit(1)
sys.exit(0 if code == 200 else 2 if code == 400 else 1)
"""

_TEMPLATE = """#!/bin/sh
# @CMD@: @SUMMARY@
# Run '@CMD@ --help' for its commands, '@CMD@ <command> --help' for one command's options.
# Sends its words unchanged to the company API (COMPANY_API_URL, COMPANY_API_TOKEN), which parses them;
# through the unix socket COMPANY_API_SOCKET when that is set.
# Exit status: 0 done (JSON result on stdout), 1 the request failed, 2 wrong usage (message on stderr).
cmd=@CMD@
if [ -z "${COMPANY_API_URL:-}" ] || [ -z "${COMPANY_API_TOKEN:-}" ]; then
    echo "$cmd: COMPANY_API_URL and COMPANY_API_TOKEN must both be set in the environment" >&2
    exit 2
fi
base=${COMPANY_API_URL%/}
base=${base%/api}
url="$base/cli/$cmd"

if command -v curl >/dev/null 2>&1; then
    argc=$#
    for word; do
        set -- "$@" --data-urlencode "argv=$word"
        shift
    done
    if [ -n "${COMPANY_API_SOCKET:-}" ]; then
        set -- --unix-socket "$COMPANY_API_SOCKET" "$@"
    fi
    # The answer streams through, its head first (curl -i): nothing is kept on disk, so a full /tmp does not matter.
    # The head's status sends the body to stdout (200) or stderr; "c<curl's exit> h<status> w<cat's exit>"
    # come back on fd 5.
    relay() {
        code=000
        while IFS= read -r line; do
            case $line in
                HTTP/*) code=${line#* }; code=${code%%[!0-9]*} ;;
                ?|"") case $code in 1??) ;; *) break ;; esac ;;  # the blank line (a lone CR) ending a head
            esac
        done
        case $code in
            000) ;;
            200) cat ;;
            *) cat >&2 ;;
        esac
        echo "h$code w$?" >&5
    }
    exec 4>&1
    got=$( { { curl -sS -i -H "Authorization: Bearer $COMPANY_API_TOKEN" -H "Accept: text/plain" \\
        --data-urlencode "argc=$argc" "$@" "$url"; echo "c$?" >&5; } | relay >&4; } 5>&1 )
    status=1 code=000 wrote=0
    for part in $got; do
        case $part in
            c*) status=${part#c} ;;
            h*) code=${part#h} ;;
            w*) wrote=${part#w} ;;
        esac
    done
    if [ "$code" = 000 ]; then
        echo "$cmd: cannot reach the company API at $url${COMPANY_API_SOCKET:+ through $COMPANY_API_SOCKET}" >&2
        exit 1
    fi
    if [ "$wrote" -gt 128 ]; then
        exit "$wrote"  # the reader of stdout went away (as in '| head'): say nothing, like other commands
    fi
    if [ "$wrote" != 0 ] && [ "$code" = 200 ]; then
        echo "$cmd: the call went through, but its answer could not be written to standard output" \\
            "(cat says why above)" >&2
        exit 1
    elif [ "$wrote" != 0 ]; then
        echo "$cmd: the call failed, and its message could not be written to standard error (cat says why above)" >&2
        exit 1
    fi
    if [ "$status" != 0 ]; then
        echo "$cmd: the answer from the company API at $url was cut off (curl exit status $status)" >&2
        exit 1
    fi
    case $code in
        200) exit 0 ;;
        400) exit 2 ;;
        *) exit 1 ;;
    esac
fi

if command -v python3 >/dev/null 2>&1; then
    exec python3 -c '@PYTHON@' "$cmd" "$url" "$@"
fi
echo "$cmd: needs curl or python3" >&2
exit 1
"""


def script_for(command: str, summary: str) -> bytes:
    """The ``sh`` script of one command (``command`` is an app name or ``company``)."""
    if "'" in _PYTHON:
        raise AssertionError("the python fallback must not hold a single quote")
    one_line = " ".join(summary.split())
    text = _TEMPLATE.replace("@CMD@", command).replace("@SUMMARY@", one_line).replace("@PYTHON@", _PYTHON)
    return text.encode("utf-8")


def command_scripts(apps: list[str]) -> dict[str, bytes]:
    """One executable ``sh`` script per enabled app (named after the app) plus ``company``.

    Args:
        apps: The enabled apps, e.g. ``["gmail", "drive"]``.

    Returns:
        File name to script bytes; write each with mode 0o755 somewhere on ``PATH``.

    Raises:
        ValueError: an app is not in the registry, or is named like the ``company`` command.
    """
    scripts: dict[str, bytes] = {}
    for name in apps:
        if name not in REGISTRY.apps or name == APPLESS_COMMAND:
            raise ValueError(f"no app {name!r}; apps: {', '.join(REGISTRY.apps)}")
        scripts[name] = script_for(name, REGISTRY.apps[name].description)
    scripts[APPLESS_COMMAND] = script_for(APPLESS_COMMAND, "say that the work is done (company complete-task).")
    return scripts
