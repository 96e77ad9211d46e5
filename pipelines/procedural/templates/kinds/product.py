"""Recipes over products (labels, shelves, shop windows, shop screens): the products go to the Amazon cart or
wish list, all of them, the cheapest, those within a budget, as many as a budget buys, those already wished
for, or a list of delivery times looked up on Amazon."""

from __future__ import annotations

import math

from mmtsb.authoring.rows import product, seller
from pipelines.procedural.families.base import money
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity, Seed, search_save
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, misstate, nth

__all__ = ["RECIPES", "product_rows"]

SELLER = (700, "Main Street Goods")
AMAZON = {"cart": ("amazon_search_products", "amazon_add_product_to_cart"),
          "wish": ("amazon_search_products", "amazon_add_product_to_wish_list")}


def pid(k: int) -> int:
    """The Amazon id of the product on image ``k`` (its other size is ``pid(k) + 1``)."""
    return 700 + 2 * k


def delivery(k: int, c: Content) -> int:
    return 2 + (sum(map(ord, c["name"])) + k) % 6


def full(c: Content) -> str:
    return c["name"]


def product_rows(items: list[Item]) -> dict[str, list[dict]]:
    """The products on the images as Amazon sells them, each also in its other size (a distractor)."""
    rows = []
    for k, c in items:
        rows.append(product(pid(k), SELLER[0], c["name"], c["type"], c["price"], delivery_days=delivery(k, c)))
        rows.append(product(pid(k) + 1, SELLER[0], f"{c['brand']} {c['product']}, {c['other_size']}", c["type"],
                            c["other_price"], delivery_days=delivery(k, c) + 2))
    return {"amazon.sellers": [seller(*SELLER)], "amazon.products": rows}


def item(m: Material, kind: str, key: str, k: int, c: Content, quantity: int = 1) -> Entity:
    where = "cart" if kind == "cart" else "wish list"
    return Entity(key, kind, {"query": full(c), "product_id": pid(k), "quantity": quantity},
                  f"the {where} entry for the product on {nth(m, k)}")


def wrong_price(m: Material, k: int):
    c = m.items[k - 1][1]
    right = c["price"]
    cands = [money(round(right + d, 2)) for d in (m.rng.choice([-1, 1]) * m.rng.randint(2, 9), 3.0, -2.5, 5.5)
             if right + d > 0]
    return misstate(m, k, "price", money(right), cands)


def _distinct(cs: list[Content]) -> bool:
    return (len({c["name"] for c in cs}) == len(cs) and len({(c["brand"], c["product"]) for c in cs}) == len(cs)
            and len({c["price"] for c in cs}) == len(cs))


def _aggregate(m: Material) -> Plan:
    title = m.rng.choice(["Shopping list", "Things to buy", "Store finds"])

    def body(items: list[Item]) -> str:
        return "\n".join([*(f"{full(c)}: {money(c['price'])}" for _, c in items),
                          f"Total: {money(round(sum(c['price'] for _, c in items), 2))}"])

    everything = Goal("add one of each of these products to my Amazon cart (the exact size shown)",
                      lambda items, final: [item(m, "cart", f"cart_{k}", k, c) for k, c in items],
                      lambda items: "The cart must hold one each of: " + "; ".join(full(c) for _, c in items) + ".")
    wish = Goal("put them on my Amazon wish list instead of the cart, one of each",
                lambda items, final: [item(m, "wish", f"wish_{k}", k, c) for k, c in items],
                lambda items: "The wish list must hold one each of: " + "; ".join(full(c) for _, c in items) + ".")
    if m.sink in ("", "cart"):
        return Plan(title, f"{m.user.first} buys what they spotted.", everything, wish, rows=product_rows(m.items),
                    misstatement=wrong_price(m, m.rng.randint(1, len(m.items))))
    goal = doc_goal(m, "list_doc", title, "one line per product with its full name, size and price, as 'Brand "
                    "Product, size: $X', and a last line 'Total: $Y'", body)
    return Plan(title, f"{m.user.first} lists what they spotted.", goal, everything, rows=product_rows(m.items),
                misstatement=wrong_price(m, m.rng.randint(1, len(m.items))))


def _compare(m: Material) -> Plan:
    def pick(items: list[Item], sign: int) -> Item:
        return min(items, key=lambda it: (sign * it[1]["price"], it[0]))

    goal = Goal("add only the cheapest of these products to my Amazon cart, one of it (if a later one is cheaper, "
                "swap it)", lambda items, final: [item(m, "cart", "cheapest", *pick(items, 1))],
                lambda items: f"The cart must hold exactly one {full(pick(items, 1)[1])}.")
    pivot = Goal("put only the most expensive one on my wish list instead",
                 lambda items, final: [item(m, "wish", "priciest", *pick(items, -1))],
                 lambda items: f"The wish list must hold exactly one {full(pick(items, -1)[1])}.")
    return Plan("Cheapest pick", f"{m.user.first} buys the cheapest option.", goal, pivot, rows=product_rows(m.items),
                misstatement=wrong_price(m, pick(m.items, 1)[0]))


def thresholds(cs: list[Content]) -> list[int]:
    prices = sorted(c["price"] for c in cs)
    return [math.floor(a) + 1 for a, b in zip(prices, prices[1:]) if math.floor(a) + 1 < b]


def _filter(m: Material) -> Plan:
    t = m.rng.choice(thresholds([c for _, c in m.items]))

    def chosen(items: list[Item], cheap: bool) -> list[Item]:
        return [(k, c) for k, c in items if (c["price"] < t) == cheap]

    goal = Goal(f"put on my Amazon wish list, one each, only the products that cost less than ${t}",
                lambda items, final: [item(m, "wish", f"wish_{k}", k, c) for k, c in chosen(items, True)],
                lambda items: "The wish list must hold exactly: " + "; ".join(full(c) for _, c in chosen(items, True))
                + ".")
    pivot = Goal(f"put only the ones that cost ${t} or more on my wish list instead",
                 lambda items, final: [item(m, "wish", f"dear_{k}", k, c) for k, c in chosen(items, False)],
                 lambda items: "The wish list must hold exactly: " + "; ".join(
                     full(c) for _, c in chosen(items, False)) + ".")
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Under budget", f"{m.user.first} saves the cheaper finds for later.", goal, pivot,
                rows=product_rows(m.items), misstatement=wrong_price(m, k))


def _compute(m: Material) -> Plan:
    budget = m.rng.choice([40, 50, 60, 75])

    def qty(c: Content) -> int:
        return max(1, math.floor(budget / c["price"]))

    goal = Goal(f"for each product, add to my Amazon cart as many as ${budget} buys (the most whole units whose "
                "total stays within it, at least one)",
                lambda items, final: [item(m, "cart", f"bulk_{k}", k, c, qty(c)) for k, c in items],
                lambda items: "The cart must hold: " + "; ".join(f"{qty(c)} x {full(c)}" for _, c in items) + ".")
    pivot = Goal("just add two of each to the cart instead",
                 lambda items, final: [item(m, "cart", f"pair_{k}", k, c, 2) for k, c in items],
                 lambda items: "The cart must hold two each of: " + "; ".join(full(c) for _, c in items) + ".")
    return Plan("Stock up", f"{m.user.first} stocks up within a budget.", goal, pivot, rows=product_rows(m.items),
                misstatement=wrong_price(m, m.rng.randint(1, len(m.items))))


def _cross(m: Material) -> Plan:
    ks = [k for k, _ in m.items]
    matched = set(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))
    seeds = tuple(Seed("wish", {"query": full(c), "product_id": pid(k), "quantity": 1}, 600 + k, f"wish_{k}", full(c))
                  for k, c in m.items if k in matched)

    def wishes(items: list[Item], final: bool) -> list[Entity]:
        return [item(m, "wish", f"wish_{k}", k, c, 2 if k in matched else 1) for k, c in items]

    goal = Goal("check my Amazon wish list: for each product already on it, raise the quantity to 2; add each one "
                "that is not on it yet with quantity 1", wishes,
                lambda items: "The wish list must hold " + "; ".join(
                    f"{2 if k in matched else 1} x {full(c)}" for k, c in items) + ".")
    pivot = Goal("leave my wish list as it is and put the products that are not on it into my cart instead, one each",
                 lambda items, final: [item(m, "cart", f"cart_{k}", k, c) for k, c in items if k not in matched],
                 lambda items: "The cart must hold one each of: " + "; ".join(
                     full(c) for k, c in items if k not in matched) + ".")
    k = m.rng.choice([k for k in ks if k not in matched])
    return Plan("Wish list check", f"{m.user.first} checks finds against the wish list.", goal, pivot, seeds=seeds,
                rows=product_rows(m.items), misstatement=wrong_price(m, k),
                preexisting=tuple(f"wish list entry '{s.find_text}'" for s in seeds))


def _chain(m: Material) -> Plan:
    title = "Delivery times"

    def body(items: list[Item]) -> str:
        return "\n".join(f"{full(c)}: {delivery(k, c)} days" for k, c in items)

    def look(k: int, c: Content) -> Entity:
        found = search_save(full(c))
        return Entity(f"look_{k}", "look", {}, f"the Amazon listing of the product on {nth(m, k)}",
                      (("amazon_search_products", {"query": full(c)}, found),
                       ("amazon_show_product", {"product_id": f"${found}.0.product_id"}, None)))

    listing = doc_goal(m, "delivery_doc", title, "one line per product saying how many days Amazon takes to deliver "
                       "that exact product and size, as 'Brand Product, size: N days'", body)
    goal = Goal(f"look each product up on Amazon, then {listing.ask}",
                lambda items, final: [*(look(k, c) for k, c in items), *listing.outcome(items, final)],
                listing.criteria, listing.share)
    pivot = Goal("skip the list and add one of each to my Amazon cart instead",
                 lambda items, final: [item(m, "cart", f"cart_{k}", k, c) for k, c in items],
                 lambda items: "The cart must hold one each of: " + "; ".join(full(c) for _, c in items) + ".")
    return Plan(title, f"{m.user.first} checks how soon things would arrive.", goal, pivot,
                rows=product_rows(m.items), misstatement=wrong_price(m, m.rng.randint(1, len(m.items))))


RECIPES = {
    "aggregate": Recipe(_aggregate, (), fits=_distinct, sinks={"cart": AMAZON["cart"], **DOC}),
    "compare": Recipe(_compare, AMAZON["cart"] + ("amazon_delete_product_from_cart",), fits=_distinct),
    "filter": Recipe(_filter, AMAZON["wish"], fits=lambda cs: _distinct(cs) and bool(thresholds(cs))),
    "compute": Recipe(_compute, AMAZON["cart"], fits=_distinct),
    "cross_reference": Recipe(_cross, ("amazon_search_products", "amazon_update_product_quantity_in_wish_list",
                                       "amazon_add_product_to_wish_list"), fits=_distinct),
    "lookup_chain": Recipe(_chain, ("amazon_search_products", "amazon_show_product"), fits=_distinct, sinks=DOC),
}
