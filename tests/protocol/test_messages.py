"""Message.to_dict is written field by field (for speed): it must stay what dataclasses.asdict gives."""

from __future__ import annotations

from dataclasses import asdict, fields

from mmtsb.protocol.messages import AGENT, ENV, Message, ToolCall


def test_to_dict_is_the_dataclass_form_with_every_field():
    m = Message(3, AGENT, ENV, "text", [1, 2], [ToolCall("c1", "tool", {"k": [1]}, '{"k": [1]}', None)],
                "c0", "tool", True, (AGENT,), False, {"value": {"a": 1}})
    expected = asdict(m)
    expected["visible_to"] = list(m.visible_to)
    assert m.to_dict() == expected
    assert set(m.to_dict()) == {f.name for f in fields(Message)}
    assert set(m.to_dict()["tool_calls"][0]) == {f.name for f in fields(ToolCall)}
