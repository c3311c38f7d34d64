"""Benchmarks: tools that print figures, run by ``make bench`` (``python -m bench.<name>``).

They are not part of the product: nothing in ``rules``, ``solver``, ``campaigns``, ``config``
or ``ops`` imports them, and no test imports their private names.
"""
