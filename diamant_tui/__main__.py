"""``python -m diamant_tui`` runs the ``diamant`` command."""

import sys

from .cli import main

sys.exit(main())
