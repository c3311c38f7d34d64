# "7 dec 2026", "7 dec 2026 15:23": Dutch writes the month in lower case ("b", not "M").
DATE_FORMAT = SHORT_DATE_FORMAT = "j b Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = SHORT_DATETIME_FORMAT = "j b Y H:i"
