"""skat: Skat by the International Skat Order.

Layers (ARCHITECTURE.md): ``skat.engine`` (pure rules) <- ``series`` <-
``players`` <- ``server`` <- ``web``; ``skat.cli`` is the command line.
"""

__version__ = "0.1.0"
