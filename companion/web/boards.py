"""Each game's board on the page, from its package: `/assets/games/<game>/board.js` (its renderer),
`/assets/games/boards.js` (every game's renderer by id, built from the registry) and `/assets/games/boards.css`
(every game's board.css)."""

from __future__ import annotations

import json

from flask import Blueprint, Flask, Response, abort, send_file

from companion.games.registry import all_games, game_names, get_game

MAX_AGE = 300
"""Seconds a browser may keep these (as the page's other assets)."""


def index_script() -> str:
    """The JS module whose default export maps each game id with a renderer to it."""
    boards = [game.id for game in all_games() if game.board_script is not None]
    imports = "".join(f"import b{i} from {json.dumps(f'./{name}/board.js')};\n" for i, name in enumerate(boards))
    table = ", ".join(f"{json.dumps(name)}: b{i}" for i, name in enumerate(boards))
    return (f"// Every game's board renderer by id (companion/web/boards.py builds this from the game registry).\n"
            f"{imports}export default Object.freeze({{{table}}});\n")


def style_sheet() -> str:
    """Every game's board.css, one after another, each under a comment naming its game."""
    parts = [f"/* {game.id} */\n{game.board_style.read_text(encoding='utf-8')}" for game in all_games()
             if game.board_style is not None]
    return "\n".join(parts)


def create_blueprint() -> Blueprint:
    """The `boards` blueprint."""
    bp = Blueprint("boards", __name__)

    @bp.get("/assets/games/boards.js")
    def index() -> Response:
        """The renderers' index."""
        return Response(index_script(), mimetype="text/javascript", headers={"Cache-Control": f"max-age={MAX_AGE}"})

    @bp.get("/assets/games/boards.css")
    def styles() -> Response:
        """The boards' styles."""
        return Response(style_sheet(), mimetype="text/css", headers={"Cache-Control": f"max-age={MAX_AGE}"})

    @bp.get("/assets/games/<game>/board.js")
    def script(game: str) -> Response:
        """One game's renderer (404 for an unknown game or one without a renderer)."""
        path = get_game(game).board_script if game in game_names() else None
        if path is None:
            abort(404)
        return send_file(path, mimetype="text/javascript", max_age=MAX_AGE)

    return bp


def register(app: Flask) -> None:
    """Add the boards' assets to an app."""
    app.register_blueprint(create_blueprint())
