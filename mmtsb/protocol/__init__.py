"""What an episode's parties share, and nothing else: messages and actions, the Role and Judge interfaces with
their verdicts, the read-only view of an episode that roles get, model settings, the registry of role kinds,
and the typed trajectory.

The episode loop (``mmtsb.episode``) and the roles (``mmtsb.roles``) both depend on this package and never on
each other; the episode reaches concrete roles only through the role factory. The judges' evidence lives in
:mod:`mmtsb.protocol.evidence` (imported on its own: it pulls in the world and scoring packages).
"""

from mmtsb.protocol.actions import Action, CallTools, RunCode, Say
from mmtsb.protocol.judges import (
    AGENT_CRITERIA,
    UI_CRITERIA,
    USER_CRITERIA,
    CriterionVerdict,
    Judge,
    JudgeKind,
    JudgeVerdict,
)
from mmtsb.protocol.messages import AGENT, ENV, SYSTEM, USER, Message, Party, ToolCall
from mmtsb.protocol.roles import Role, RoleUsage
from mmtsb.protocol.view import Budgets, EpisodeView, Interface

__all__ = [
    "AGENT", "AGENT_CRITERIA", "ENV", "SYSTEM", "UI_CRITERIA", "USER", "USER_CRITERIA", "Action", "Budgets",
    "CallTools", "CriterionVerdict", "EpisodeView", "Interface", "Judge", "JudgeKind", "JudgeVerdict", "Message",
    "Party", "Role", "RoleUsage", "RunCode", "Say", "ToolCall",
]
