"""Released scenarios that use the file system, played through the tools as a correct agent would."""

from __future__ import annotations

import pytest

from testkit import REFERENCE, call_ok

SCENARIO_0152 = REFERENCE / "scenarios" / "nominal" / "scenario_0152.json"


@pytest.mark.skipif(not SCENARIO_0152.exists(), reason="the released scenario files are absent")
def test_scenario_0152_guest_list_to_todoist_project():
    """Read the VIP's name from ~/dinner_plan/guest_list.txt, build the Todoist project, then change the menu."""
    from mmtsb.eval.entity_diff import EvalOptions, evaluate_world
    from mmtsb.scenarios.build import build_world
    from mmtsb.scenarios.loader import load_scenario
    from mmtsb.tools.session import ToolSession
    from mmtsb.tools.toolbox import full_registry

    scenario = load_scenario(SCENARIO_0152)
    built = build_world(scenario, images="placeholder", file=SCENARIO_0152)
    try:
        session = ToolSession(built.world, full_registry())
        # round 1: the user says 'Dinner_Plan'; the folder is really ~/dinner_plan/
        found = call_ok(session, "file_system_show_directory", directory_path="~/", substring="Dinner_Plan")
        assert found == ["/home/chris/dinner_plan/", "/home/chris/dinner_plan/guest_list.txt"]
        guest_list = call_ok(session, "file_system_show_file", file_path=found[1])
        assert "VIP Guest: Alexander Sterling" in guest_list["content"] and guest_list["file_id"] == 26000
        created = session.call("todoist_create_project", {"name": "Alexander Sterling"})
        assert created.ok, created.error
        project = created.value["project_id"]
        call_ok(session, "todoist_create_task", project_id=project, title="Finalize Menu")
        # round 2: two tasks from the first images, then round 3 replaces them
        wrong = [call_ok(session, "todoist_create_task", project_id=project, title=t)["task_id"]
                 for t in ("Source Iberico ham", "Prepare matcha mochi")]
        for task_id in wrong:
            call_ok(session, "todoist_delete_task", task_id=task_id)
        call_ok(session, "todoist_create_task", project_id=project, title="Prepare Catalan crème brûlée")
        call_ok(session, "todoist_create_task", project_id=project,
                title="Contact St Mary's Secret Garden to buy cabbage")

        result = evaluate_world(scenario.entity_diff_specs, built.world, built.initial, EvalOptions())
        unscored = [(g.table_key, g.operation, e.reason) for g in result.groups for e in g.entities if e.score < 1]
        assert result.f1 == 1.0, unscored
        assert result.unexpected_writes == [] and result.guardrail_pass
        strict = evaluate_world(scenario.entity_diff_specs, built.world, built.initial,
                                EvalOptions(strict_reference=True))
        assert strict.f1 == 1.0
        assert built.world.diff(built.initial).tables.get("file_system.files") is None  # reading writes nothing
    finally:
        built.world.close()


def test_seeded_home_follows_the_scenario_rows(world):
    """A scenario that puts ~/ at /home/bren/ moves the seeded home tree there (one home per user)."""
    from mmtsb.apps.file_system import drop_shadowed_seed_directories

    world.insert("file_system.directories", {"id": 3600, "path": "/home/bren/documents/", "tilde_path": "~/documents/",
                                             "user_id": 50}, replace=True)
    world.insert("file_system.files", {"id": 26000, "path": "/home/bren/notes.txt", "tilde_path": "~/notes.txt",
                                       "user_id": 50, "content": "hi", "compressed_data": []})
    assert drop_shadowed_seed_directories(world) == 1  # the seeded ~/documents/ twin
    paths = sorted(r["path"] for r in world.rows("file_system.directories"))
    assert paths == ["/home/bren/", "/home/bren/documents/", "/home/bren/downloads/", "/home/bren/photos/"]
