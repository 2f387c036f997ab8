"""House-rule declarations: what kind of value each option takes, so a form can be built from them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping


class OptionType(str, Enum):
    """The kinds of house-rule value a form can ask for."""

    BOOL = "bool"
    INT = "int"
    SUBSET = "subset"
    """A list of ids chosen from `choices`."""
    JSON = "json"
    """Anything else (a whole card catalogue): typed as JSON."""


@dataclass(frozen=True)
class OptionSpec:
    """One option's kind, and its range (integers) or its ids (subsets); the default stays in `option_defaults`."""

    type: OptionType
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The declaration as the host page reads it."""
        out: dict[str, Any] = {"type": self.type.value}
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.choices:
            out["choices"] = list(self.choices)
        return out


def spec_for(default: Any) -> OptionSpec:
    """What an undeclared option's default says it is (a flag, a whole number, else JSON)."""
    if isinstance(default, bool):
        return OptionSpec(OptionType.BOOL)
    if isinstance(default, int):
        return OptionSpec(OptionType.INT)
    return OptionSpec(OptionType.JSON)


def option_specs(rules: Any) -> dict[str, OptionSpec]:
    """Every option of an engine with its declaration (`rules.option_specs`, else derived from its default)."""
    declared: Mapping[str, OptionSpec] = getattr(rules, "option_specs", {})
    unknown = set(declared) - set(rules.option_defaults)
    if unknown:
        raise ValueError(f"{rules.name}: option_specs names options it does not have: {sorted(unknown)}")
    return {name: declared.get(name) or spec_for(default) for name, default in rules.option_defaults.items()}
