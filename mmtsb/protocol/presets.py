"""Protocol presets: how closely an episode follows the paper's protocol (§4.3, Appendix A and E).

``paper`` (the default) runs episodes the way the paper runs them; ``mmtsb`` keeps our earlier, stricter
budget. Everything else that the paper fixes (the prompts' rules, the frozen clock in the sandbox, the wall clock
enforced during model calls and code runs, tool recall at every toolbox level, the step count) is the same
under both. The Hydra group ``conf/protocol/`` holds the same values (a test checks they agree), and
``mmtsb episode protocol=<name>`` applies them before the other overrides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ProtocolPreset:
    """A named set of settings; ``changes`` says in words what it sets and why (printed in the README)."""

    name: str
    description: str
    budgets: dict[str, Any] = field(default_factory=dict)
    changes: tuple[str, ...] = ()


PAPER = ProtocolPreset(
    "paper",
    "the paper's protocol (§4.3): comparable with its Table 2",
    budgets={"max_steps": None, "max_interaction_steps": 100},
    changes=(
        "budgets.max_interaction_steps=100: an episode ends after 100 interaction steps (messages of the agent "
        "and the user together), the paper's cap",
        "budgets.max_steps=null: no separate cap on the agent's own actions (the paper has none)",
    ),
)
MMTSB = ProtocolPreset(
    "mmtsb",
    "mmtsb's earlier protocol: a cap of 60 agent actions instead of the paper's 100 interaction steps",
    budgets={"max_steps": 60, "max_interaction_steps": None},
    changes=(
        "budgets.max_steps=60: an episode ends after 60 agent actions",
        "budgets.max_interaction_steps=null: no cap on the agent's and user's messages together (the scenario's "
        "max_messages still holds)",
    ),
)
PROTOCOLS: dict[str, ProtocolPreset] = {p.name: p for p in (PAPER, MMTSB)}
DEFAULT_PROTOCOL = PAPER.name


def preset(name: str) -> ProtocolPreset:
    """The preset called ``name``; a ValueError lists the known ones."""
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise ValueError(f"protocol={name!r} is not one of {', '.join(PROTOCOLS)}") from None
