"""``python -m skat.cli``: the ``skat`` command."""

from . import main

main()
