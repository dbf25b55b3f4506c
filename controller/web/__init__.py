"""The web view: the board, the lights, the die and the record in a browser, live.

Starlette and uvicorn (the `web` extra); see app.py.
"""

from .app import create_app, make_server, serve

__all__ = ["create_app", "make_server", "serve"]
