"""The baseline: a bare Flask view returning a short string, served exactly like the app.

gunicorn -w 2 --pythonpath bench baseline:app
"""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, Canasta!"
