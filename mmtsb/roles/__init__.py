"""Roles: agents (oracle, code-exec, tool-use), users (scripted, LLM) and judges."""
