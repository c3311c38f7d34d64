"""The solver's version: part of every hint's input key and of the plan book's.

A hint is reused, and the plan book answers, only for the same version. Bump
``SOLVER_VERSION`` (by one) in the same commit as any change that can change the plan a
hint recommends or the figures it shows for it: the search, the simulated players, the plan
conventions or their words' inputs, the odds. Every stored answer of the old version is then
retired at once: it is never offered again, and the plan book is filled anew (``manage.py
prefill_plans``, and the beat task). A change that only re-words a plan needs no bump: the
words are written when a hint is read.
"""

SOLVER_VERSION = 26
