"""``python -m services.bench.balance``: see :mod:`services.bench.balance.report`."""

import sys

from .report import main

sys.exit(main())
