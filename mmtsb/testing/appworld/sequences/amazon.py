"""Amazon: address names unique per user, order sort fields."""

from mmtsb.testing.appworld.plan import call, sequence

HOME = {"name": "Home", "street_address": "1 Main St", "city": "Seattle", "state": "WA", "country": "USA",
        "zip_code": 98101}

SEQUENCES = [
    sequence(
        "amazon addresses and orders",
        call("amazon_add_address", label="a1", **HOME),
        call("amazon_add_address", **{**HOME, "street_address": "9 Side St"}),
        call("amazon_add_address", label="a2", **{**HOME, "name": "Work", "street_address": "9 Side St"}),
        call("amazon_update_address", address_id="$a2.address_id", name="Home"),
        call("amazon_update_address", address_id="$a2.address_id", city="Tacoma"),
        call("amazon_show_addresses"),
        call("amazon_delete_address", as_="bob", address_id="$a2.address_id"),
        call("amazon_delete_address", address_id="$a2.address_id"),
        call("amazon_show_orders", sort_by="-paid_amount"),
        call("amazon_show_orders", sort_by="+created_at"),
        call("amazon_show_orders", sort_by="-total"),
    ),
]
