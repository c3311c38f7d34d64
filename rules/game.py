"""Numbers the rulebook fixes for every game of Take Time.

The Django apps (model constraints, forms, the API's serializers, the services) and the
solver import them from here, so that a rule is written once.
"""

from __future__ import annotations

# Take Time is played by 2, 3 or 4 players (rules.seats.SEAT_SIZES: the cards each seat holds).
PLAYER_COUNTS = range(2, 5)

# The people a group lists (any of them sit at a table): the one cap that creating a group,
# the members page's "Add player", the API and an import all apply, so that every group can
# re-import its own export.
MAX_PLAYERS_LISTED = 12

# The Bonus tokens beside the clock: each failed attempt flips one face up (never more than
# these), and each face-up token lets the table play one more card face up.
BONUS_TOKENS = 3

# The box holds ten chapters of four clocks each (clock ids "1-1" … "10-4"), and the Rebirth
# clock after them.
CHAPTERS = range(1, 11)
CLOCKS_PER_CHAPTER = 4


def chapter_of(clock_id: str) -> int | None:
    """The chapter of a numbered clock id ("3-2" -> 3); None for the Rebirth clock."""
    head, dash, _number = clock_id.partition("-")
    return int(head) if dash else None
