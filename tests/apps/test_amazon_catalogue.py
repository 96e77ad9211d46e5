"""Amazon: the generated catalogue, product search and browsing, sellers, account and browsing history."""

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok, mailed_code

from mmtsb.apps.amazon.catalogue import catalogue


def test_catalogue_is_deterministic_small_and_below_scenario_ids(world):
    rows = catalogue()
    assert rows is catalogue()  # generated once per process
    assert 100 <= len(rows.products) < 200 and len(rows.sellers) < 200 and len(rows.reviews) < 16000
    assert world.count("amazon.products") == len(rows.products)
    assert not world.select("amazon.product_reviews", "user_id = ?", (MAIN_ID,))  # never in the main user's name
    for p in world.rows("amazon.products")[:40]:
        ratings = [r["rating"] for r in world.select("amazon.product_reviews", "product_id = ?", (p["id"],))]
        assert ratings and p["rating"] == round(sum(ratings) / len(ratings), 1)
        assert p["seller_rating"] == world.get("amazon.sellers", p["seller_id"])["rating"]


def test_search_products_ranks_filters_sorts_and_pages(session):
    found = call_ok(session, "amazon_search_products", query="yoga mat")
    assert found and all(p["name"] == "Non-Slip Yoga Mat" for p in found[:3])
    assert {"product_id", "price", "rating", "seller_name", "num_product_reviews"} <= set(found[0])
    by_price = call_ok(session, "amazon_search_products", product_type="t-shirts", sort_by="+price", page_limit=20)
    prices = [p["price"] for p in by_price]
    assert prices == sorted(prices) and {p["product_type"] for p in by_price} == {"t-shirts"}
    blue_small = call_ok(session, "amazon_search_products", color="blue", relative_size="small", page_limit=20)
    assert blue_small and all(p["color"] == "Blue" and p["relative_size"] == "small" for p in blue_small)
    cheap_good = call_ok(session, "amazon_search_products", max_price=20, min_product_rating=4.5, page_limit=20)
    assert cheap_good and all(p["price"] <= 20 and p["rating"] >= 4.5 for p in cheap_good)
    seller = call_ok(session, "amazon_search_products", seller_id=8, page_limit=20)
    assert seller and {p["seller_id"] for p in seller} == {8}
    page0 = call_ok(session, "amazon_search_products", page_limit=3)
    page1 = call_ok(session, "amazon_search_products", page_limit=3, page_index=1)
    assert [p["product_id"] for p in page0 + page1] == [1, 2, 3, 4, 5, 6]
    assert call_ok(session, "amazon_search_products", query="zzzqqq") == []


def test_search_products_validation(session):
    assert "relative_size" in call_err(session, "amazon_search_products", relative_size="huge").message
    assert "min_product_rating" in call_err(session, "amazon_search_products", min_product_rating=7).message
    assert "must not exceed" in call_err(session, "amazon_search_products", min_price=50, max_price=10).message
    assert "sort_by" in call_err(session, "amazon_search_products", sort_by="-name").message
    assert "page_limit" in call_err(session, "amazon_search_products", page_limit=21).message


def test_show_product_with_variations_and_rating_distribution(session):
    p = call_ok(session, "amazon_show_product", product_id=1)
    assert p["product_id"] == 1 and p["has_variations"] and p["variations"]
    assert all(v["product_id"] != 1 for v in p["variations"])
    dist = call_ok(session, "amazon_show_product_rating_distribution", product_id=1)
    assert [b["rating"] for b in dist["breakdown"]] == [5, 4, 3, 2, 1]
    assert sum(b["num_product_reviews"] for b in dist["breakdown"]) == dist["num_product_reviews"] > 0
    assert dist["rating"] == p["rating"]
    assert "does not exist" in call_err(session, "amazon_show_product", product_id=99999).message
    assert "does not exist" in call_err(session, "amazon_show_product_rating_distribution", product_id=0).message


def test_product_types_feature_choices_and_sellers(session):
    types = call_ok(session, "amazon_search_product_types", page_limit=100)
    assert types == sorted(types) and "toys" in types and "office products" in types
    assert call_ok(session, "amazon_search_product_types", query="toy") == ["toys"]
    assert "page_limit" in call_err(session, "amazon_search_product_types", page_limit=0).message
    choices = call_ok(session, "amazon_show_product_feature_choices", product_type="T-Shirts")
    assert choices["relative_sizes"] == ["small", "medium", "large"] and "Black" in choices["colors"]
    assert {s["seller_id"] for s in choices["sellers"]} == {3, 10, 14}
    everything = call_ok(session, "amazon_show_product_feature_choices")
    assert set(choices["colors"]) <= set(everything["colors"])
    assert "amazon_search_product_types" in call_err(session, "amazon_show_product_feature_choices",
                                                     product_type="spaceships").message
    sellers = call_ok(session, "amazon_search_sellers", query="audio")
    assert sellers[0] == {"seller_id": 1, "name": "Northwind Audio", "rating": 4.6}
    assert len(call_ok(session, "amazon_search_sellers", page_limit=20)) == 16
    assert "page_index" in call_err(session, "amazon_search_sellers", page_index=-1).message
    seller = call_ok(session, "amazon_show_seller", seller_id=1)
    assert seller["name"] == "Northwind Audio" and seller["num_products"] > 0
    assert "does not exist" in call_err(session, "amazon_show_seller", seller_id=999).message


def test_recommendations_follow_the_users_interests(session):
    fresh = call_ok(session, "amazon_show_recommended_products")
    assert [p["product_id"] for p in fresh] == sorted((p["product_id"] for p in fresh), reverse=True)
    toys = [p["product_id"] for p in call_ok(session, "amazon_search_products", product_type="toys")]
    call_ok(session, "amazon_add_product_to_browsing_history", product_id=toys[0])
    recommended = call_ok(session, "amazon_show_recommended_products", page_limit=3)
    assert {p["product_type"] for p in recommended} == {"toys"}
    assert "page_limit" in call_err(session, "amazon_show_recommended_products", page_limit=99).message


def test_browsing_history(session, world):
    call_ok(session, "amazon_add_product_to_browsing_history", product_id=3)
    call_ok(session, "amazon_add_product_to_browsing_history", product_id=7)
    call_ok(session, "amazon_add_product_to_browsing_history", product_id=3)  # moves to the top, no duplicate
    history = call_ok(session, "amazon_show_browsing_history")
    assert [p["product_id"] for p in history] == [3, 7] and history[0]["viewed_at"]
    assert "does not exist" in call_err(session, "amazon_add_product_to_browsing_history", product_id=9999).message
    call_ok(session, "amazon_remove_product_from_browsing_history", product_id=7)
    assert "not in your browsing history" in call_err(session, "amazon_remove_product_from_browsing_history",
                                                      product_id=7).message
    call_ok(session, "amazon_update_browsing_history_tracking", track_browsing_history=False)
    assert call_ok(session, "amazon_show_account")["track_browsing_history"] is False
    assert "tracking is turned off" in call_err(session, "amazon_add_product_to_browsing_history",
                                                product_id=5).message
    assert call_ok(session, "amazon_clear_browsing_history")["message"].startswith("Browsing history cleared (1")
    assert call_ok(session, "amazon_show_browsing_history") == []
    assert "page_index" in call_err(session, "amazon_show_browsing_history", page_index=-2).message
    assert world.select("amazon.browsing_history", "user_id = ?", (MAIN_ID,)) == []
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_clear_browsing_history").message
    assert "Not authenticated" in call_err(session, "amazon_update_browsing_history_tracking",
                                           track_browsing_history=True).message


def test_account_tools(session, world):
    acct = call_ok(session, "amazon_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["is_prime"] is False and acct["verified"] is True
    assert call_ok(session, "amazon_show_profile", email=MAIN_EMAIL)["first_name"] == "Brenda"
    assert call_ok(session, "amazon_show_profile")["email"] == MAIN_EMAIL
    assert "not a valid email" in call_err(session, "amazon_show_profile", email="not-an-email").message
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    call_ok(session, "amazon_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in call_err(session, "amazon_signup", first_name="Ann", last_name="Lee",
                                        email="ann@lee.com", password="secret1").message
    assert "Invalid credentials" in call_err(session, "amazon_login", username="ann@lee.com", password="no").message
    call_ok(session, "amazon_send_verification_code", email="ann@lee.com")
    assert "Invalid verification code" in call_err(session, "amazon_verify_account", email="ann@lee.com",
                                 verification_code="000").message
    assert "No amazon account" in call_err(session, "amazon_send_verification_code", email="x@y.com").message
    call_ok(session, "amazon_send_password_reset_code", email="ann@lee.com")
    assert "not a valid email" in call_err(session, "amazon_send_password_reset_code", email="ann").message
    assert "Invalid password reset code" in call_err(session, "amazon_reset_password", email="ann@lee.com", password_reset_code="1",
                                 new_password="abcdef").message
    call_ok(session, "amazon_verify_account", email="ann@lee.com",
            verification_code=mailed_code(world, "amazon", "ann@lee.com", "verify"))
    call_ok(session, "amazon_reset_password", email="ann@lee.com", new_password="secret1",
            password_reset_code=mailed_code(world, "amazon", "ann@lee.com", "reset"))
    call_ok(session, "amazon_login", username="ann@lee.com", password="secret1")
    ann = call_ok(session, "amazon_show_account")
    assert ann["email"] == "ann@lee.com" and ann["verified"] is True and ann["track_browsing_history"] is True
    assert call_ok(session, "amazon_show_payment_cards") == []
    assert call_ok(session, "amazon_show_cart")["cart_items"] == []
    call_ok(session, "amazon_update_account_name", last_name="Leigh")
    assert call_ok(session, "amazon_show_account")["last_name"] == "Leigh"
    assert "first_name" in call_err(session, "amazon_update_account_name", first_name=" ").message
    call_ok(session, "amazon_logout")
    assert "Not authenticated" in call_err(session, "amazon_show_account").message
    assert "Not authenticated" in call_err(session, "amazon_logout").message
    assert "Not authenticated" in call_err(session, "amazon_delete_account").message
    call_ok(session, "amazon_login", username="ann@lee.com", password="secret1")
    call_ok(session, "amazon_delete_account")
    assert "Invalid credentials" in call_err(session, "amazon_login", username="ann@lee.com",
                                             password="secret1").message


def test_public_tools_need_the_network(session, world):
    device_id = world.rows("SETTING")[0]["device_id"]
    world.update("SETTING", device_id, {"wifi": False, "cellular": False})
    for name in ("amazon_show_prime_plans", "amazon_show_return_deliverers", "amazon_search_products"):
        err = call_err(session, name)
        assert err.type == "ConnectionError" and "Network is not available" in err.message
    world.update("SETTING", device_id, {"cellular": True})
    assert call_ok(session, "amazon_show_prime_plans")["monthly"] == 15
