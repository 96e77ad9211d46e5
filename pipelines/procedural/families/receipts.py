"""Till receipts: vendor, date, line items, subtotal, tax and total (domains: notes, email, shared expenses)."""

from __future__ import annotations

import random
from datetime import date

from mmtsb.authoring.draw import GREY, INK, Sheet
from pipelines.procedural.families.base import Content, ImageFamily, long_date, money, short_date, style_rng

__all__ = ["RECEIPTS"]

_VENDORS = [
    ("Bluebird Cafe", "412 Alder St, Seattle WA", ["Cappuccino", "Blueberry muffin", "Breakfast burrito", "Chai latte"]),
    ("Harbor Grill", "18 Pier Way, Tacoma WA", ["Fish tacos", "Clam chowder", "Iced tea", "Garden salad"]),
    ("QuickPrint Copy Center", "88 Western Ave, Seattle WA", ["Color poster", "Name badge", "Binding", "Flyer pack"]),
    ("Green Basket Market", "901 Elm St, Portland OR", ["Apples (lb)", "Sourdough loaf", "Olive oil", "Coffee beans"]),
    ("Summit Hardware", "77 Ridge Rd, Boise ID", ["Duct tape", "Extension cord", "Work gloves", "LED bulb"]),
    ("Lantern Noodle House", "230 Jackson St, Seattle WA", ["Pho bowl", "Spring rolls", "Thai iced tea", "Dumplings"]),
    ("Rainier Office Supply", "15 Main St, Renton WA", ["Printer paper", "Gel pens", "Sticky notes", "Stapler"]),
    ("Cedar Pizza Co.", "640 Cedar Ln, Bellevue WA", ["Large pizza", "Caesar salad", "Garlic knots", "Soda"]),
    ("Northwind Books", "12 Library Sq, Olympia WA", ["Paperback", "Notebook", "Bookmark set", "Gift wrap"]),
    ("Alpine Bike Shop", "5 Trail Ave, Bend OR", ["Inner tube", "Chain lube", "Bike light", "Water bottle"]),
]


def sample(rng: random.Random) -> Content:
    """A receipt dated April 1-16, 2026 (before the scenarios' reference day) with 2-4 item lines."""
    vendor, address, pool = rng.choice(_VENDORS)
    items = []
    for name in rng.sample(pool, rng.randint(2, 4)):
        qty, price = rng.randint(1, 3), rng.randint(150, 2400) / 100
        items.append({"name": name, "qty": qty, "price": price, "amount": round(qty * price, 2)})
    subtotal = round(sum(i["amount"] for i in items), 2)
    rate = rng.choice([8.0, 8.5, 9.0, 9.5, 10.1])
    tax = round(subtotal * rate / 100, 2)
    day = rng.randint(1, 16)
    return {"vendor": vendor, "address": address, "date": date(2026, 4, day).isoformat(),
            "time": f"{rng.randint(8, 20):02d}:{rng.randint(0, 59):02d}", "order": rng.randint(1000, 9999),
            "items": items, "subtotal": subtotal, "tax_rate": rate, "tax": tax, "total": round(subtotal + tax, 2)}


def draw(c: Content, style_seed: int) -> bytes:
    """The receipt on a paper-tinted sheet; margins, font size and rules vary with the style seed."""
    st = style_rng(style_seed, "receipt")
    size, margin, width = st.randint(15, 18), st.randint(22, 40), st.randint(420, 500)
    paper = (st.randint(245, 255), st.randint(243, 253), st.randint(236, 248))
    height = 230 + int(size * 1.7) * (len(c["items"]) + 7)
    s = Sheet(width, height, paper)
    y = 26
    s.center(y, c["vendor"], size + 6, bold=True)
    y += size + 16
    s.center(y, c["address"], size - 2, GREY)
    y += size + 14
    d = date.fromisoformat(c["date"])
    s.text(margin, y, f"Date: {d:%m/%d/%Y}   {c['time']}", size - 1, GREY)
    y += size + 8
    s.text(margin, y, f"Order #{c['order']}", size - 1, GREY)
    y += size + 10
    s.hline(y, margin - 6, width - margin + 6, GREY, 2, dashed=st.random() < 0.7)
    y += 14
    for it in c["items"]:
        s.pair(margin, width - margin, y, f"{it['qty']} x {it['name']} @ {it['price']:.2f}", f"{it['amount']:.2f}", size)
        y += int(size * 1.7)
    s.hline(y, margin - 6, width - margin + 6, GREY, 2, dashed=True)
    y += 12
    s.pair(margin, width - margin, y, "Subtotal", f"{c['subtotal']:.2f}", size)
    y += int(size * 1.7)
    s.pair(margin, width - margin, y, f"Sales tax {c['tax_rate']:g}%", f"{c['tax']:.2f}", size)
    y += int(size * 1.7)
    s.pair(margin, width - margin, y, "TOTAL", money(c["total"]), size + 3, INK, bold=True)
    y += int(size * 2.2)
    s.center(y, st.choice(["Thank you!", "Thanks for shopping with us", "Please come again"]), size - 3, GREY)
    s.img = s.img.crop((0, 0, width, min(height, int(y) + 3 * size)))
    return s.png()


def values(c: Content) -> list[str]:
    """Vendor, address, date forms, order number and every printed amount."""
    d = date.fromisoformat(c["date"])
    amounts = [c["subtotal"], c["tax"], c["total"]] + [x for it in c["items"] for x in (it["price"], it["amount"])]
    return [c["vendor"], c["address"], f"{d:%m/%d/%Y}", short_date(c["date"]), long_date(c["date"]),
            str(c["order"]), *(f"{a:.2f}" for a in amounts), *(it["name"] for it in c["items"])]


def facts(c: Content) -> list[str]:
    return [f"vendor: {c['vendor']}", f"date: {c['date']}", f"subtotal: {money(c['subtotal'])}",
            f"tax: {money(c['tax'])}", f"total: {money(c['total'])}",
            *(f"item: {it['qty']} x {it['name']} = {money(it['amount'])}" for it in c["items"])]


RECEIPTS = ImageFamily("receipt", "document", "synthetic_receipt", ("simple_note", "gmail", "splitwise"), True,
                       "receipt", sample, draw, values, facts, kind="expense")
