"""XSkat's computer player at our table (issue 53, point 1; docs/xskat.md).

``build`` compiles XSkat 4.0's game files from ``../shared/xskat-4.0`` with
our stub into a cache folder, ``driver`` seats XSkat's computers at a deal
refereed by our engine, ``arena`` measures our players against them and
``compare_debian`` checks the build card for card against Debian's
``xskat -auto``. The product (``src/skat``) knows nothing of it.
"""
