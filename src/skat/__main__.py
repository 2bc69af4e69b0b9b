"""``python -m skat``: the ``skat`` command, where no script is on the PATH."""

from .cli import main

main(prog_name="skat")
