"""The released scenarios that use Amazon are playable: a correct agent's actions reach entity-diff F1 = 1.0.

scenario_0094 (nominal and UI): add the cheaper toy to the cart, then text Marcus Cole.
scenario_0960: validate five toys against price/rating limits, add them and place the order (the Splitwise part
belongs to that app; here we check the Amazon specs, and that the order's total is the amount the scenario
expects to be split).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit import REFERENCE, call_ok

from mmtsb.eval.entity_diff import EvalOptions, evaluate_world
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import load_scenario
from mmtsb.tools.session import ToolSession
from mmtsb.tools.toolbox import full_registry

SCENARIOS = REFERENCE / "scenarios"
pytestmark = pytest.mark.skipif(not SCENARIOS.exists(), reason="the released scenario files are absent")


def _play(path: Path):
    scenario = load_scenario(path)
    built = build_world(scenario, images="placeholder", file=path)
    return scenario, built, ToolSession(built.world, full_registry())


def _assert_perfect(specs, built) -> None:
    result = evaluate_world(specs, built.world, built.initial, EvalOptions())
    unscored = [(g.table_key, g.operation, e.reason) for g in result.groups for e in g.entities if e.score < 1]
    assert result.f1 == 1.0, unscored
    assert result.unexpected_writes == [] and result.guardrail_pass
    assert evaluate_world(specs, built.world, built.initial, EvalOptions(strict_reference=True)).f1 == 1.0


@pytest.mark.parametrize("kind", ["nominal", "ui"])
def test_scenario_0094_cheaper_toy_in_cart_and_text(kind: str):
    scenario, built, session = _play(SCENARIOS / kind / "scenario_0094.json")
    try:
        toys = {}
        for name in ("Manhattan Ball", "Busy Ball"):
            hit = call_ok(session, "amazon_search_products", query=name)[0]
            toys[hit["name"]] = call_ok(session, "amazon_show_product", product_id=hit["product_id"])
        cheaper = min(toys.values(), key=lambda p: p["price"])
        assert cheaper["name"] == "Manhattan Ball Toy"
        call_ok(session, "amazon_add_product_to_cart", product_id=cheaper["product_id"])
        assert [i["product_id"] for i in call_ok(session, "amazon_show_cart")["cart_items"]] == [200]
        marcus = [c for c in call_ok(session, "contacts_search_contacts", query="Marcus Cole")
                  if c["last_name"] == "Cole"][0]
        call_ok(session, "messages_send_text_message", phone_number=marcus["phone_number"],
                message="Hey Marcus, I recommend we purchase the Yard-O-Led silver pencil as a premium client gift.")
        _assert_perfect(scenario.entity_diff_specs, built)
    finally:
        built.world.close()


def test_scenario_0960_amazon_part_validates_adds_and_orders():
    scenario, built, session = _play(SCENARIOS / "nominal" / "scenario_0960.json")
    try:
        rounds = [(("Tamagotchi", "Liv Heart Polar Bear Sleep Hug Plush Toy"), 25.0, 0.0),
                  (("Squishmallows plush", "Gund Sound-Activated Kiss-Flapping Plush Penguin Vicky"), None, 4.5),
                  (("Jellycat Barcelona Bear",), 35.0, 4.5)]
        for queries, max_price, min_rating in rounds:
            for query in queries:
                product = call_ok(session, "amazon_search_products", query=query)[0]
                rating = call_ok(session, "amazon_show_product_rating_distribution",
                                 product_id=product["product_id"])["rating"]
                if (max_price is None or product["price"] < max_price) and rating >= min_rating:
                    call_ok(session, "amazon_add_product_to_cart", product_id=product["product_id"])
        cart = call_ok(session, "amazon_show_cart")
        assert [i["product_id"] for i in cart["cart_items"]] == [200, 201, 202, 203, 204]
        me = built.main_user_id
        card = call_ok(session, "amazon_show_payment_cards")[0]["payment_card_id"]
        address = call_ok(session, "amazon_show_addresses")[0]["address_id"]
        order_id = call_ok(session, "amazon_place_order", payment_card_id=card, address_id=address)["order_id"]
        order = call_ok(session, "amazon_show_order", order_id=order_id)
        assert order["total_cost"] == cart["total_cost"] and built.world.get("amazon.orders", order_id)["user_id"] == me
        amazon_specs = [s for s in scenario.entity_diff_specs if s.table.startswith("amazon.")]
        assert len(amazon_specs) == 6
        _assert_perfect(amazon_specs, built)
        expense = next(s for s in scenario.entity_diff_specs if s.table == "splitwise.expenses")
        share = next(s for s in scenario.entity_diff_specs if s.table == "splitwise.expense_shares")
        assert order["total_cost"] == expense.entity_data["amount"] == 153.44  # what the user splits
        assert round(order["total_cost"] / 2, 2) == share.entity_data["share_amount"]
    finally:
        built.world.close()
