"""A new agent kind in a dozen lines (the README's example): it looks up the tools for each request and says
which it would use, without ever changing the world."""

from mmtsb.protocol import USER, Action, CallTools, Message, Role, Say, ToolCall
from mmtsb.protocol.registry import RoleRequest, agent_kind


class SearchOnlyAgent(Role):
    name = "search_only"

    def observe(self, message: Message) -> None:
        if message.sender == USER:
            self.request, self.found = message.content, None
        elif message.tool_name == "api_docs_search_api_docs":
            self.found = message.content

    async def act(self) -> Action:
        if self.found is None:
            return CallTools([ToolCall("search", "api_docs_search_api_docs", {"query": self.request})])
        return Say(f"I would use: {self.found[:300]}")


@agent_kind("search_only", interface="tool_use", needs_model=False)
def search_only(req: RoleRequest) -> Role:
    return SearchOnlyAgent()
