"""Amazon: the cart (quantities, stock, promo codes, gift wrapping, money) and the wish list."""

from testkit import MAIN_ID, call_err, call_ok

CART = "amazon.cart_entries"
WISH = "amazon.wish_list_entries"


def _in_stock(world, n: int = 2, minimum: int = 10) -> list[dict]:
    return world.select("amazon.products", "inventory_quantity >= ? AND seller_id < 200", (minimum,))[:n]


def _entries(world, key: str) -> dict[int, tuple[int, int | None]]:
    return {r["product_id"]: (r["quantity"], r.get("gift_wrap_quantity"))
            for r in world.select(key, "user_id = ?", (MAIN_ID,))}


def test_add_update_delete_and_clear_cart(session, world):
    a, b = _in_stock(world)
    call_ok(session, "amazon_add_product_to_cart", product_id=a["id"])
    call_ok(session, "amazon_add_product_to_cart", product_id=a["id"], quantity=2)
    call_ok(session, "amazon_add_product_to_cart", product_id=b["id"], quantity=1)
    assert _entries(world, CART) == {a["id"]: (3, 0), b["id"]: (1, 0)}
    call_ok(session, "amazon_add_product_to_cart", product_id=b["id"], quantity=2, clear_cart_first=True)
    assert _entries(world, CART) == {b["id"]: (2, 0)}
    call_ok(session, "amazon_update_product_quantity_in_cart", product_id=b["id"], quantity=5)
    assert _entries(world, CART) == {b["id"]: (5, 0)}
    call_ok(session, "amazon_update_product_quantity_in_cart", product_id=b["id"], quantity=0)
    assert _entries(world, CART) == {}
    call_ok(session, "amazon_add_product_to_cart", product_id=a["id"])
    call_ok(session, "amazon_delete_product_from_cart", product_id=a["id"])
    call_ok(session, "amazon_add_product_to_cart", product_id=b["id"])
    assert "1 product" in call_ok(session, "amazon_clear_cart")["message"]
    assert _entries(world, CART) == {}


def test_cart_failures(session, world):
    a = _in_stock(world, 1)[0]
    assert "quantity must be at least 1" in call_err(session, "amazon_add_product_to_cart", product_id=a["id"],
                                                     quantity=0).message
    assert "does not exist" in call_err(session, "amazon_add_product_to_cart", product_id=424242).message
    err = call_err(session, "amazon_add_product_to_cart", product_id=a["id"], quantity=a["inventory_quantity"] + 1)
    assert "in stock" in err.message
    out_of_stock = world.select("amazon.products", "inventory_quantity = 0")[0]
    assert "out of stock" in call_err(session, "amazon_add_product_to_cart", product_id=out_of_stock["id"]).message
    assert "not in your cart" in call_err(session, "amazon_update_product_quantity_in_cart", product_id=a["id"],
                                          quantity=2).message
    assert "not in your cart" in call_err(session, "amazon_delete_product_from_cart", product_id=a["id"]).message
    call_ok(session, "amazon_add_product_to_cart", product_id=a["id"])
    assert "at least 0" in call_err(session, "amazon_update_product_quantity_in_cart", product_id=a["id"],
                                    quantity=-1).message
    assert "in stock" in call_err(session, "amazon_update_product_quantity_in_cart", product_id=a["id"],
                                  quantity=a["inventory_quantity"] + 5).message
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_clear_cart").message
    assert "Not authenticated" in call_err(session, "amazon_show_cart").message


def test_cart_money_adds_up_with_promo_gift_wrap_and_tax(session, world):
    world.update("amazon.products", 1, {"price": 40.00, "inventory_quantity": 50})
    world.update("amazon.products", 4, {"price": 12.50, "inventory_quantity": 50})
    call_ok(session, "amazon_add_product_to_cart", product_id=1, quantity=2)
    call_ok(session, "amazon_add_product_to_cart", product_id=4, quantity=3)
    cart = call_ok(session, "amazon_show_cart")
    assert (cart["base_cost"], cart["gift_wrap_fee"], cart["discount"]) == (117.5, 0.0, 0.0)
    assert (cart["tax"], cart["delivery_fee"], cart["total_cost"]) == (11.75, 4.99, 134.24)
    assert cart["num_items"] == 5 and [i["subtotal"] for i in cart["cart_items"]] == [80.0, 37.5]
    call_ok(session, "amazon_add_gift_wrapping_to_product", product_id=1, quantity=2)
    call_ok(session, "amazon_add_gift_wrapping_to_product", product_id=4)
    call_ok(session, "amazon_apply_promo_code_to_cart", promo_code="spring25")
    cart = call_ok(session, "amazon_show_cart")
    assert cart["promo_code"] == "SPRING25" and cart["promo_valid"] is True
    # 3 wrapped units x 2.99; 25% of 117.50 = 29.375 -> 29.38 (cap 50); tax 10% of (117.50 + 8.97 - 29.38)
    assert (cart["gift_wrap_fee"], cart["discount"], cart["tax"]) == (8.97, 29.38, 9.71)
    assert cart["total_cost"] == round(117.5 + 8.97 - 29.38 + 9.71 + 4.99, 2) == 111.79
    call_ok(session, "amazon_update_product_quantity_in_cart", product_id=4, quantity=0)
    cart = call_ok(session, "amazon_show_cart")  # 80.00 is below SPRING25's 100.00 minimum
    assert cart["promo_valid"] is False and cart["discount"] == 0.0 and "at least $100.00" in cart["promo_message"]
    call_ok(session, "amazon_update_product_quantity_in_cart", product_id=1, quantity=1)
    assert _entries(world, CART)[1] == (1, 1)  # gift wrapping shrinks with the quantity
    call_ok(session, "amazon_remove_promo_code_from_cart")
    assert call_ok(session, "amazon_show_cart")["promo_code"] is None


def test_promo_code_failures(session, world):
    assert "does not exist" in call_err(session, "amazon_apply_promo_code_to_cart", promo_code="FREE100").message
    assert "expired" in call_err(session, "amazon_apply_promo_code_to_cart", promo_code="HOLIDAY30").message
    assert "No promo code" in call_err(session, "amazon_remove_promo_code_from_cart").message
    message = call_ok(session, "amazon_apply_promo_code_to_cart", promo_code="WELCOME15")["message"]
    assert "no discount yet" in message  # an empty cart is below the $50 minimum
    assert world.select("amazon.carts", "user_id = ?", (MAIN_ID,))[0]["promo_code"] == "WELCOME15"


def test_gift_wrapping(session, world):
    a = _in_stock(world, 1)[0]
    assert "not in your cart" in call_err(session, "amazon_add_gift_wrapping_to_product", product_id=a["id"]).message
    call_ok(session, "amazon_add_product_to_cart", product_id=a["id"], quantity=2)
    assert "exceeds" in call_err(session, "amazon_add_gift_wrapping_to_product", product_id=a["id"],
                                 quantity=3).message
    assert "not gift-wrapped" in call_err(session, "amazon_remove_gift_wrapping_from_product",
                                          product_id=a["id"]).message
    call_ok(session, "amazon_add_gift_wrapping_to_product", product_id=a["id"], quantity=2)
    call_ok(session, "amazon_add_gift_wrapping_to_product", product_id=a["id"], quantity=1)  # updates, not adds
    assert _entries(world, CART)[a["id"]] == (2, 1)
    call_ok(session, "amazon_remove_gift_wrapping_from_product", product_id=a["id"])
    assert _entries(world, CART)[a["id"]] == (2, 0)


def test_wish_list(session, world):
    a, b = _in_stock(world)
    call_ok(session, "amazon_add_product_to_wish_list", product_id=a["id"])
    call_ok(session, "amazon_add_product_to_wish_list", product_id=a["id"], quantity=2)
    call_ok(session, "amazon_add_product_to_wish_list", product_id=b["id"])
    listed = call_ok(session, "amazon_show_wish_list")
    assert [(w["product_id"], w["quantity"]) for w in listed] == [(a["id"], 3), (b["id"], 1)]
    assert listed[0]["product_name"] == a["name"] and listed[0]["price"] == a["price"]
    call_ok(session, "amazon_update_product_quantity_in_wish_list", product_id=a["id"], quantity=4)
    call_ok(session, "amazon_delete_product_from_wish_list", product_id=b["id"])
    assert _entries(world, WISH) == {a["id"]: (4, None)}
    call_ok(session, "amazon_add_product_to_wish_list", product_id=b["id"], clear_wish_list_first=True)
    assert _entries(world, WISH) == {b["id"]: (1, None)}
    call_ok(session, "amazon_update_product_quantity_in_wish_list", product_id=b["id"], quantity=0)
    call_ok(session, "amazon_add_product_to_wish_list", product_id=a["id"])
    assert "1 product" in call_ok(session, "amazon_clear_wish_list")["message"]
    assert call_ok(session, "amazon_show_wish_list") == []


def test_wish_list_failures(session, world):
    a = _in_stock(world, 1)[0]
    assert "at least 1" in call_err(session, "amazon_add_product_to_wish_list", product_id=a["id"], quantity=0).message
    assert "does not exist" in call_err(session, "amazon_add_product_to_wish_list", product_id=777).message
    assert "not in your wish list" in call_err(session, "amazon_delete_product_from_wish_list",
                                               product_id=a["id"]).message
    assert "not in your wish list" in call_err(session, "amazon_update_product_quantity_in_wish_list",
                                               product_id=a["id"], quantity=1).message
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_show_wish_list").message
    assert "Not authenticated" in call_err(session, "amazon_clear_wish_list").message


def test_moving_between_cart_and_wish_list(session, world):
    a = _in_stock(world, 1)[0]
    call_ok(session, "amazon_add_product_to_cart", product_id=a["id"], quantity=3)
    call_ok(session, "amazon_move_product_from_cart_to_wish_list", product_id=a["id"], quantity=2)
    assert _entries(world, CART) == {a["id"]: (1, 0)} and _entries(world, WISH) == {a["id"]: (2, None)}
    call_ok(session, "amazon_move_product_from_cart_to_wish_list", product_id=a["id"])
    assert _entries(world, CART) == {} and _entries(world, WISH) == {a["id"]: (3, None)}
    assert "cannot move 4" in call_err(session, "amazon_move_product_from_wish_list_to_cart", product_id=a["id"],
                                       quantity=4).message
    call_ok(session, "amazon_move_product_from_wish_list_to_cart", product_id=a["id"], quantity=3)
    assert _entries(world, CART) == {a["id"]: (3, 0)} and _entries(world, WISH) == {}
    assert "not in your wish list" in call_err(session, "amazon_move_product_from_wish_list_to_cart",
                                               product_id=a["id"]).message
    assert "at least 1" in call_err(session, "amazon_move_product_from_cart_to_wish_list", product_id=a["id"],
                                    quantity=0).message
    world.update("amazon.products", a["id"], {"inventory_quantity": 3})
    call_ok(session, "amazon_add_product_to_wish_list", product_id=a["id"])
    before = world.snapshot()
    assert "in stock" in call_err(session, "amazon_move_product_from_wish_list_to_cart", product_id=a["id"]).message
    assert world.diff(before).empty  # a failed move leaves both lists as they were
