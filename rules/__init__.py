"""The rules of Take Time as plain Python: cards, seats, deals, layouts, clocks and their rules.

This package imports nothing from Django (a test enforces it): the Django apps and the solver
call into it, never the other way round. Import the submodules you need, e.g.
``from rules.validate import validate``; importing ``rules`` alone loads nothing heavy.
"""
