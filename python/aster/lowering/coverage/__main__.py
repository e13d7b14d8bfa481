"""python -m aster.lowering.coverage: the audit's command line (run.main)."""
import sys

from .run import main

sys.exit(main())
