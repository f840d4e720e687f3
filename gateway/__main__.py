"""``python -m gateway``: the command line, as the ``company-gateway`` script runs it."""

import sys

from gateway.runners.cli import main

sys.exit(main())
