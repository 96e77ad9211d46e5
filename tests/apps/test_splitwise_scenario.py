"""Released scenario 0960 (Amazon + Splitwise) replayed by an oracle reaches entity-diff F1 = 1.0.

The Splitwise part (create 'Kids Gifts', add Alice Powell after disambiguating two Alices, record the
order total split equally) is scored on its own with the total the file expects; the whole scenario is
replayed too (Amazon rounds first), with the expense amount taken from the placed order.
"""

import pytest
from testkit import REFERENCE

from mmtsb.eval.entity_diff import EvalOptions, evaluate_world

SCENARIO_0960 = REFERENCE / "scenarios" / "nominal" / "scenario_0960.json"
ORDER_TOTAL = 153.44  # the order total as the file's expense spec records it
pytestmark = pytest.mark.skipif(not SCENARIO_0960.exists(), reason="reference scenarios are absent")


def ok(session, tool_name, /, **args):
    out = session.call(tool_name, args)
    assert out.ok, f"{tool_name}({args}) failed: {out.error}"
    return out.value


def _play():
    from mmtsb.scenarios.build import build_world
    from mmtsb.scenarios.loader import load_scenario
    from mmtsb.tools.session import ToolSession
    from mmtsb.tools.toolbox import full_registry

    scenario = load_scenario(SCENARIO_0960)
    built = build_world(scenario, images="placeholder", file=SCENARIO_0960)
    return scenario, built, ToolSession(built.world, full_registry())


def _amazon_order_total(session) -> float:
    """Rounds 1-3 on Amazon: keep toys under the price/rating limits, then order the cart."""
    rounds = [(("Tamagotchi", "Liv Heart Polar Bear Sleep Hug Plush Toy"), 25.0, 0.0),
              (("Squishmallows plush", "Gund Sound-Activated Kiss-Flapping Plush Penguin Vicky"), None, 4.5),
              (("Jellycat Barcelona Bear",), 35.0, 4.5)]
    for queries, max_price, min_rating in rounds:
        for query in queries:
            product = ok(session, "amazon_search_products", query=query)[0]
            rating = ok(session, "amazon_show_product_rating_distribution", product_id=product["product_id"])["rating"]
            if (max_price is None or product["price"] < max_price) and rating >= min_rating:
                ok(session, "amazon_add_product_to_cart", product_id=product["product_id"])
    card = ok(session, "amazon_show_payment_cards")[0]["payment_card_id"]
    address = ok(session, "amazon_show_addresses")[0]["address_id"]
    order_id = ok(session, "amazon_place_order", payment_card_id=card, address_id=address)["order_id"]
    return ok(session, "amazon_show_order", order_id=order_id)["total_cost"]


def _splitwise_round(session, main_email: str, total: float) -> tuple[int, int]:
    """Round 3 on Splitwise, as a correct agent does it."""
    alices = ok(session, "splitwise_search_users", query="Alice")
    assert {a["email"] for a in alices} >= {"alice.powell@gmail.com", "alice.henderson@gmail.com"}  # ask who
    group_id = ok(session, "splitwise_create_group", name="Kids Gifts", member_emails=[],
                  description="Shared expenses for kids' gifts")["group_id"]
    ok(session, "splitwise_add_member_to_group", group_id=group_id, user_email="alice.powell@gmail.com")
    expense_id = ok(session, "splitwise_record_expense", description="Amazon toys order", paid_amount=total,
                    payer_email=main_email, debtor_emails=[main_email, "alice.powell@gmail.com"],
                    group_id=group_id)["expense_id"]
    return group_id, expense_id


def _assert_perfect(specs, built) -> None:
    result = evaluate_world(specs, built.world, built.initial, EvalOptions())
    unscored = [(g.table_key, g.operation, e.reason) for g in result.groups for e in g.entities if e.score < 1]
    assert result.f1 == 1.0, unscored
    assert result.unexpected_writes == [] and result.guardrail_pass


def test_scenario_0960_splitwise_part_reaches_f1_one():
    scenario, built, session = _play()
    try:
        me = ok(session, "splitwise_show_account")["email"]
        assert me == scenario.device_state_id and built.main_user_id == 29
        group_id, expense_id = _splitwise_round(session, me, ORDER_TOTAL)
        assert (group_id, expense_id) == (400, 5200)  # the ids the file's specs use
        listed = ok(session, "splitwise_show_group_expenses", group_id=group_id)
        assert [e["expense_id"] for e in listed] == [expense_id]
        assert ok(session, "splitwise_show_person_balance", email="alice.powell@gmail.com")["total"] == 76.72
        specs = [s for s in scenario.entity_diff_specs if (s.table or "").startswith("splitwise.")]
        assert len(specs) == 5
        _assert_perfect(specs, built)
    finally:
        built.world.close()


def test_scenario_0960_whole_replay_reaches_f1_one():
    scenario, built, session = _play()
    try:
        total = _amazon_order_total(session)
        assert total == ORDER_TOTAL  # the placed order costs what the file's expense spec records
        _splitwise_round(session, scenario.device_state_id, total)
        _assert_perfect(scenario.entity_diff_specs, built)
    finally:
        built.world.close()
