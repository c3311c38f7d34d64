# "7 Dec 2026", "7 Dec 2026, 15:23": day first and a named month read the same to every
# English reader (12/07 is July in Britain, December in the United States).
DATE_FORMAT = SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = SHORT_DATETIME_FORMAT = "j M Y, H:i"
