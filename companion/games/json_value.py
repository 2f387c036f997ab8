"""JSON values as types: what an action, a view or a command's arguments are made of, so an annotation says
"JSON" where it would otherwise say `Any`."""

from __future__ import annotations

from typing import Mapping, TypeAlias, Union

Json: TypeAlias = Union[None, bool, int, float, str, list["Json"], tuple["Json", ...], Mapping[str, "Json"]]
"""A JSON value (a tuple stands for a list: frozen values hold tuples)."""

JsonObject: TypeAlias = Mapping[str, Json]
"""A JSON object: an action, a view, a command's arguments."""
