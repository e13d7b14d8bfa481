"""How many cases the long property sweeps run.

`make test` runs a fixed sample of each sweep (its first cases);
`make test-long` (ASTER_TEST_LONG=1) runs the rest of them, so the two
together run every case exactly once (CI runs both)."""
import os

LONG = os.environ.get("ASTER_TEST_LONG") == "1"


def sweep(cases, sample):
    """The first `sample` of `cases` (a range or list of seeds) in `make test`;
    the others under `make test-long`."""
    cases = list(cases)
    return cases[sample:] if LONG else cases[:sample]
