"""The players' languages: English, German and Romanian.

Every word a player reads comes from a gettext catalogue (locale/<lang>/LC_MESSAGES/<domain>.mo,
kept with Babel: docs/make_catalogues.py), never from a table in the code. English is the
catalogues' source language, so it needs none. catalogue.py looks the words up in the language
in use; choosing.py picks that language from an environment, a browser's header or an option;
forms.py writes numbers and dates as the language writes them.
"""
