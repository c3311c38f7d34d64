"""rules.game: the numbers every game of Take Time shares, and their agreement with the seats."""

from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.seats import SEAT_SIZES, parse_colours


def test_every_player_count_has_its_seat_sizes() -> None:
    assert sorted(SEAT_SIZES) == list(PLAYER_COUNTS) == [2, 3, 4]


def test_the_most_face_up_cards_are_the_players_plus_every_bonus_token() -> None:
    assert BONUS_TOKENS == 3
    assert parse_colours("SSMM/MMSS/SMSM").most_face_up == 3 + BONUS_TOKENS
