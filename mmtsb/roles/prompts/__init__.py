"""mmtsb's own prompt texts for the model-driven roles, each with a version string recorded in trajectories."""

from mmtsb.roles.prompts.agent import (
    AGENT_CODE_EXEC_PROMPT_VERSION,
    AGENT_HYBRID_PROMPT_VERSION,
    AGENT_TOOL_USE_PROMPT_VERSION,
    AGENT_UI_HYBRID_PROMPT_VERSION,
    AGENT_UI_PROMPT_VERSION,
    code_exec_prompt,
    format_now,
    tool_use_prompt,
    ui_first_prompt,
)
from mmtsb.roles.prompts.user import USER_PROMPT_VERSION, USER_UI_PROMPT_VERSION, user_instruction

__all__ = [
    "AGENT_CODE_EXEC_PROMPT_VERSION", "AGENT_HYBRID_PROMPT_VERSION", "AGENT_TOOL_USE_PROMPT_VERSION",
    "AGENT_UI_HYBRID_PROMPT_VERSION", "AGENT_UI_PROMPT_VERSION", "USER_PROMPT_VERSION", "USER_UI_PROMPT_VERSION",
    "code_exec_prompt", "format_now", "tool_use_prompt", "ui_first_prompt", "user_instruction",
]
