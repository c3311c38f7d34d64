"""One way to write dates and times in each language, everywhere (FORMAT_MODULE_PATH).

Django's own formats give three per language (English: "12/07/2026" short, "Dec. 14, 2026,
12:45 p.m." long), and the pages used both, next to a bare "13:01": one browser read three
styles. Here the short formats equal the long ones, so whichever a page asks for reads the
same; anything not set here (input formats, separators) is Django's.
"""
