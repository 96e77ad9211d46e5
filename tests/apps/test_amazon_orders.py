"""Amazon: checkout, orders, purchases, returns, receipts, Prime, payment cards and addresses."""

from testkit import MAIN_ID, call_err, call_ok

from mmtsb.world import device
from mmtsb.world.clock import Clock


def _fs_token(world) -> str:
    return device.session_of(world, "file_system")["access_token"]


def _fill_cart(session, world) -> None:
    world.update("amazon.products", 1, {"price": 40.00, "inventory_quantity": 10, "delivery_days": 2})
    world.update("amazon.products", 4, {"price": 12.50, "inventory_quantity": 10, "delivery_days": 5})
    call_ok(session, "amazon_add_product_to_cart", product_id=1, quantity=2)
    call_ok(session, "amazon_add_product_to_cart", product_id=4, quantity=3)
    call_ok(session, "amazon_add_gift_wrapping_to_product", product_id=4, quantity=1)
    call_ok(session, "amazon_apply_promo_code_to_cart", promo_code="SAVE10")


def test_place_order_charges_the_cart_total_and_empties_it(session, world):
    _fill_cart(session, world)
    cart = call_ok(session, "amazon_show_cart")
    placed = call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID)
    assert f"${cart['total_cost']:.2f}" in placed["message"]
    order = world.get("amazon.orders", placed["order_id"])
    card = world.get("amazon.payment_cards", MAIN_ID)
    assert order["user_id"] == MAIN_ID and order["payment_card_digits"] == card["card_number"][-4:]
    assert (order["tax"], order["delivery_fee"], order["gift_wrap_fee"], order["discount"]) == (
        cart["tax"], cart["delivery_fee"], cart["gift_wrap_fee"], cart["discount"])
    assert order["receipt_download_count"] == 0 and order["address_id"] == MAIN_ID
    items = world.select("amazon.order_items", "order_id = ?", (order["id"],))
    assert [(i["product_id"], i["ordered_quantity"], i["gift_wrap_quantity"], i["price"], i["returned_quantity"])
            for i in items] == [(1, 2, 0, 40.0, 0), (4, 3, 1, 12.5, 0)]
    assert [i["expected_delivery_at"] for i in items] == ["2026-04-18T23:59:59", "2026-04-21T23:59:59"]
    assert world.get("amazon.products", 1)["inventory_quantity"] == 8
    assert world.select("amazon.cart_entries", "user_id = ?", (MAIN_ID,)) == []
    assert world.select("amazon.carts", "user_id = ?", (MAIN_ID,))[0]["promo_code"] is None
    shown = call_ok(session, "amazon_show_order", order_id=order["id"])
    assert shown["total_cost"] == cart["total_cost"] and shown["base_cost"] == 117.5
    assert shown["total_cost"] == round(shown["base_cost"] + shown["gift_wrap_fee"] - shown["discount"]
                                        + shown["tax"] + shown["delivery_fee"], 2)
    # as AppWorld, the order confirmation is mailed with its receipt attached
    (mail,) = [e for e in world.select("gmail.emails") if e["subject"] == "Amazon Order Confirmation"]
    (receipt,) = world.select("gmail.attachments", "email_id = ?", (mail["id"],))
    assert receipt["file_name"] == f"order_{order['id']}.txt" and str(order["id"]) in receipt["file_content"]


def test_place_order_failures(session, world):
    assert "cart is empty" in call_err(session, "amazon_place_order", payment_card_id=MAIN_ID,
                                       address_id=MAIN_ID).message
    _fill_cart(session, world)
    other = 1 if MAIN_ID != 1 else 2
    world.insert("amazon.addresses", {"id": 900, "user_id": other, "name": "Home", "street_address": "1 A St",
                                      "city": "X", "state": "Y", "country": "US", "zip_code": "12345"})
    assert "Address with address_id=900" in call_err(session, "amazon_place_order", payment_card_id=MAIN_ID,
                                                     address_id=900).message
    assert "payment_card_id=77" in call_err(session, "amazon_place_order", payment_card_id=77,
                                            address_id=MAIN_ID).message
    world.update("amazon.payment_cards", MAIN_ID, {"expiry_year": 2025})
    assert "expired" in call_err(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID).message
    world.update("amazon.payment_cards", MAIN_ID, {"expiry_year": 2030})
    world.update("amazon.products", 1, {"inventory_quantity": 1})
    before = world.snapshot()
    assert "in stock" in call_err(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID).message
    assert world.diff(before).empty


def test_orders_listing_purchases_and_last_purchase(session, world):
    variants = world.select("amazon.products", "name = ? AND inventory_quantity > 0", ("Slim Silicone Phone Case",))
    first, second = variants[0], variants[1]
    call_ok(session, "amazon_add_product_to_cart", product_id=first["id"])
    o1 = call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID)["order_id"]
    world.clock = Clock.at("2026-04-17T10:00:00+00:00")  # a later day
    call_ok(session, "amazon_add_product_to_cart", product_id=second["id"], quantity=2)
    call_ok(session, "amazon_add_product_to_cart", product_id=5)
    o2 = call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID)["order_id"]
    assert [o["order_id"] for o in call_ok(session, "amazon_show_orders")] == [o2, o1]
    assert [o["order_id"] for o in call_ok(session, "amazon_show_orders", sort_by="+created_at")] == [o1, o2]
    assert [o["order_id"] for o in call_ok(session, "amazon_show_orders", query="earbuds")] == [o2]
    assert "sort_by" in call_err(session, "amazon_show_orders", sort_by="-total").message
    totals = {o["order_id"]: o["total_cost"] for o in call_ok(session, "amazon_show_orders")}
    by_paid = [o["order_id"] for o in call_ok(session, "amazon_show_orders", sort_by="-paid_amount")]
    assert by_paid == sorted(totals, key=lambda oid: -totals[oid])  # AppWorld's paid_amount: the order total
    purchases = call_ok(session, "amazon_show_product_purchases")
    assert [p["product_id"] for p in purchases][-1] == first["id"] and len(purchases) == 3
    assert purchases[0]["last_order_id"] == o2
    assert "page_limit" in call_err(session, "amazon_show_product_purchases", page_limit=0).message
    last = call_ok(session, "amazon_show_last_product_purchase", product_id=first["id"])
    assert last["order_id"] == o2 and last["product_id"] == second["id"]  # a variation bought later counts
    assert last["product_color"] == second["color"]
    assert "not purchased" in call_err(session, "amazon_show_last_product_purchase", product_id=100).message
    assert "does not exist" in call_err(session, "amazon_show_order", order_id=99999).message


def test_returns(session, world):
    _fill_cart(session, world)
    order_id = call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID)["order_id"]
    couriers = call_ok(session, "amazon_show_return_deliverers")
    assert [c["name"] for c in couriers] == ["UPS", "FedEx", "USPS", "DHL"]
    started = call_ok(session, "amazon_initiate_return", order_id=order_id, product_id=1, deliverer_id=2, quantity=1)
    ret = call_ok(session, "amazon_show_return", return_id=started["return_id"])
    order = world.get("amazon.orders", order_id)  # discount 11.75, tax 10% of (117.50 + 2.99 - 11.75)
    assert (order["discount"], order["tax"]) == (11.75, 10.87)
    assert ret["refund_amount"] == round((117.5 - 11.75 + 10.87) * 40 / 117.5, 2) == 39.7
    assert (ret["deliverer_name"], ret["quantity"], ret["status"]) == ("FedEx", 1, "awaiting pickup")
    (label,) = [e for e in world.select("gmail.emails") if e["subject"] == "Amazon Return Initiated"]  # AppWorld's
    assert world.select("gmail.attachments", "email_id = ?", (label["id"],))[0]["file_name"] == \
        f"return_{order_id}_1_1.txt"
    call_ok(session, "amazon_initiate_return", order_id=order_id, product_id=4, deliverer_id=1, quantity=3)
    item = world.select("amazon.order_items", "order_id = ? AND product_id = 1", (order_id,))[0]
    assert item["returned_quantity"] == 1
    assert [r["quantity"] for r in call_ok(session, "amazon_show_returns", sort_by="+quantity")] == [1, 3]
    assert len(call_ok(session, "amazon_show_returns", order_id=order_id)) == 2
    assert "can still be returned" in call_err(session, "amazon_initiate_return", order_id=order_id, product_id=4,
                                               deliverer_id=1, quantity=1).message
    assert "not part of order" in call_err(session, "amazon_initiate_return", order_id=order_id, product_id=2,
                                           deliverer_id=1, quantity=1).message
    assert "Deliverer" in call_err(session, "amazon_initiate_return", order_id=order_id, product_id=1,
                                   deliverer_id=99, quantity=1).message
    assert "does not exist" in call_err(session, "amazon_show_return", return_id=555).message
    assert "sort_by" in call_err(session, "amazon_show_returns", sort_by="price").message
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_show_returns").message
    assert len(call_ok(session, "amazon_show_return_deliverers")) == 4  # public, no login needed


def test_order_receipt_is_written_to_the_file_system(session, world):
    _fill_cart(session, world)
    order_id = call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID)["order_id"]
    token = _fs_token(world)
    out = call_ok(session, "amazon_download_order_receipt", order_id=order_id, file_system_access_token=token)
    assert out["file_path"] == f"/home/brenda/downloads/amazon_order_{order_id}_receipt.txt"
    row = world.select("file_system.files", "path = ?", (out["file_path"],))[0]
    total = call_ok(session, "amazon_show_order", order_id=order_id)["total_cost"]
    assert row["user_id"] == MAIN_ID and f"Order total: ${total:.2f}" in row["content"]
    assert world.get("amazon.orders", order_id)["receipt_download_count"] == 1
    assert "already exists" in call_err(session, "amazon_download_order_receipt", order_id=order_id,
                                        file_system_access_token=token).message
    call_ok(session, "amazon_download_order_receipt", order_id=order_id, file_system_access_token=token,
            overwrite=True)
    custom = call_ok(session, "amazon_download_order_receipt", order_id=order_id, file_system_access_token=token,
                     download_to_file_path="~/documents/receipts/")
    assert custom["file_path"] == f"/home/brenda/documents/receipts/amazon_order_{order_id}_receipt.txt"
    assert world.select("file_system.directories", "path = ?", ("/home/brenda/documents/receipts/",))
    assert world.get("amazon.orders", order_id)["receipt_download_count"] == 3
    assert "file_system_access_token" in call_err(session, "amazon_download_order_receipt", order_id=order_id,
                                                  file_system_access_token="bogus").message
    assert "must have an extension" in call_err(session, "amazon_download_order_receipt", order_id=order_id,
                                                file_system_access_token=token, download_to_file_path="receipts").message


def test_prime_subscription_waives_delivery(session, world):
    assert call_ok(session, "amazon_show_prime_plans") == {"monthly": 15, "yearly": 139}
    assert "duration" in call_err(session, "amazon_subscribe_prime", payment_card_id=MAIN_ID,
                                  duration="weekly").message
    assert "payment_card_id=3" in call_err(session, "amazon_subscribe_prime", payment_card_id=3,
                                           duration="monthly").message
    sub = call_ok(session, "amazon_subscribe_prime", payment_card_id=MAIN_ID, duration="yearly")
    assert call_ok(session, "amazon_show_account")["is_prime"] is True
    (mail,) = [e for e in world.select("gmail.emails") if e["subject"] == "Amazon Prime Subscription Confirmation"]
    attachment = world.select("gmail.attachments", "email_id = ?", (mail["id"],))[0]
    assert attachment["file_name"] == f"prime_subscription_{sub['prime_subscription_id']}.txt"
    assert "Amazon Prime subscription receipt" in attachment["file_content"]
    assert "already have an active" in call_err(session, "amazon_subscribe_prime", payment_card_id=MAIN_ID,
                                                duration="monthly").message
    subs = call_ok(session, "amazon_show_prime_subscriptions")
    assert subs[0]["prime_subscription_id"] == sub["prime_subscription_id"] and subs[0]["paid_amount"] == 139.0
    assert subs[0]["end_date"] == "2027-04-16T23:51:15"
    assert "page_limit" in call_err(session, "amazon_show_prime_subscriptions", page_limit=30).message
    call_ok(session, "amazon_add_product_to_cart", product_id=4)
    assert call_ok(session, "amazon_show_cart")["delivery_fee"] == 0.0
    token = _fs_token(world)
    out = call_ok(session, "amazon_download_prime_subscription_receipt",
                  prime_subscription_id=sub["prime_subscription_id"], file_system_access_token=token,
                  download_to_file_path="/home/brenda/prime.txt")
    assert out["file_path"] == "/home/brenda/prime.txt"
    assert "Amount paid: $139.00" in world.select("file_system.files", "path = ?", (out["file_path"],))[0]["content"]
    assert "does not exist" in call_err(session, "amazon_download_prime_subscription_receipt",
                                        prime_subscription_id=404, file_system_access_token=token).message


def test_payment_cards(session, world):
    cards = call_ok(session, "amazon_show_payment_cards")
    assert [c["payment_card_id"] for c in cards] == [MAIN_ID]
    supervisor = world.rows("supervisor.payment_cards")[0]
    assert cards[0]["card_number"] == int(supervisor["card_number"])
    added = call_ok(session, "amazon_add_payment_card", card_name="Travel", owner_name="Brenda Webster",
                    card_number=5555444433332222, expiry_year=2029, expiry_month=8, cvv_number=321)
    card = call_ok(session, "amazon_show_payment_card", payment_card_id=added["payment_card_id"])
    assert (card["card_number"], card["cvv_number"], card["expiry_month"]) == (5555444433332222, 321, 8)
    assert "already saved" in call_err(session, "amazon_add_payment_card", card_name="Dup", owner_name="B",
                                       card_number=5555444433332222, expiry_year=2029, expiry_month=8,
                                       cvv_number=321).message
    for bad, word in (({"card_number": 1234}, "16 digits"), ({"expiry_month": 13}, "expiry_month"),
                      ({"cvv_number": 12}, "cvv_number"), ({"expiry_year": 2025}, "expired"),
                      ({"card_name": ""}, "card_name")):
        args = {"card_name": "X", "owner_name": "B", "card_number": 4111111111111111, "expiry_year": 2030,
                "expiry_month": 1, "cvv_number": 123, **bad}
        assert word in call_err(session, "amazon_add_payment_card", **args).message
    call_ok(session, "amazon_update_payment_card", payment_card_id=added["payment_card_id"], card_name="Trips")
    assert world.get("amazon.payment_cards", added["payment_card_id"])["card_name"] == "Trips"
    assert "card_name" in call_err(session, "amazon_update_payment_card", payment_card_id=MAIN_ID,
                                   card_name=" ").message
    call_ok(session, "amazon_delete_payment_card", payment_card_id=added["payment_card_id"])
    assert "does not exist" in call_err(session, "amazon_delete_payment_card",
                                        payment_card_id=added["payment_card_id"]).message
    assert "does not exist" in call_err(session, "amazon_show_payment_card", payment_card_id=10**6).message
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_show_payment_cards").message


def test_addresses_copied_from_the_supervisor(session, world):
    work = next(a for a in world.rows("supervisor.addresses") if a["name"] == "Work")
    fields = {k: work[k] for k in ("name", "street_address", "city", "state", "country")}
    outcome = session.call("amazon_add_address", {**fields, "zip_code": int(work["zip_code"])})
    assert outcome.ok, outcome.error
    added = outcome.value
    listed = call_ok(session, "amazon_show_addresses")
    assert [a["name"] for a in listed] == ["Home", "Work"] and listed[1]["address_id"] == added["address_id"]
    again = session.call("amazon_add_address", {**fields, "zip_code": int(work["zip_code"])})
    assert not again.ok and "already saved" in again.error.message
    bad_zip = session.call("amazon_add_address", {**fields, "street_address": "1 Main St", "zip_code": 123})
    assert not bad_zip.ok and "zip_code" in bad_zip.error.message
    no_city = session.call("amazon_add_address", {**fields, "city": " ", "zip_code": 12345})
    assert not no_city.ok and "city must be" in no_city.error.message
    call_ok(session, "amazon_update_address", address_id=added["address_id"], city="Tacoma", zip_code=98401)
    row = world.get("amazon.addresses", added["address_id"])
    assert (row["city"], row["zip_code"], row["street_address"]) == ("Tacoma", "98401", work["street_address"])
    assert "Nothing to update" in call_err(session, "amazon_update_address", address_id=added["address_id"]).message
    clash = session.call("amazon_add_address", {**fields, "street_address": "9 Other Rd", "zip_code": 98001})
    assert not clash.ok and "address names must be unique" in clash.error.message  # AppWorld: (user, name)
    rename = session.call("amazon_update_address", {"address_id": added["address_id"], "name": "Home"})
    assert not rename.ok and "address names must be unique" in rename.error.message
    call_ok(session, "amazon_add_product_to_cart", product_id=4)
    order_id = call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID,
                       address_id=added["address_id"])["order_id"]
    assert world.get("amazon.orders", order_id)["address_text"] == f"{work['street_address']}, Tacoma, " \
                                                                     f"{work['state']} 98401"
    call_ok(session, "amazon_delete_address", address_id=added["address_id"])
    assert "does not exist" in call_err(session, "amazon_delete_address", address_id=added["address_id"]).message
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_show_addresses").message
