"""``python -m gateway.runners.cli``: the command line, as the ``company-gateway`` script runs it."""

import sys

from gateway.runners.cli.main import main

sys.exit(main())
