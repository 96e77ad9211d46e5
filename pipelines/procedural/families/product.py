"""The product kind (brand, product, size, price: something the user could buy on Amazon) drawn four ways: a
package label photographed in a shop, a shelf with one price tag, a shop window sign and a shopping app's
product page."""

from __future__ import annotations

import random

from pipelines.procedural.families.base import Content, knob_family, money, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done
from pipelines.procedural.render.canvas import GREY, INK, Canvas, mix
from pipelines.procedural.render.knobs import Knobs
from pipelines.procedural.render.scene import object_blob, soften
from pipelines.procedural.render.screens import phone, phone_rows

__all__ = ["PRODUCT_FAMILIES", "sample", "values"]

DOMAINS = ("amazon", "simple_note")
BRANDS = ["Northfield", "Brightline", "Cascadia", "Juniper", "Halvorsen", "Tidewater", "Oakmont", "Lumen",
          "Evergreen", "Saltmarsh"]
#: product, Amazon product type, sizes, base price, the shape it is drawn as
PRODUCTS = [("Ceramic Mug", "Mugs", ["12 oz", "16 oz"], 14.0, "can"), ("Cold Brew Coffee", "Coffee",
            ["32 oz", "48 oz"], 9.0, "bottle"), ("Olive Oil", "Cooking Oils", ["500 ml", "1 L"], 12.0, "bottle"),
            ("Trail Mix", "Snacks", ["10 oz", "24 oz"], 7.0, "box"), ("Dish Soap", "Cleaning", ["16 oz", "28 oz"],
            4.0, "bottle"), ("Spiral Notebook", "Notebooks", ["A5", "A4"], 6.0, "box"), ("Water Bottle", "Bottles",
            ["20 oz", "32 oz"], 19.0, "bottle"), ("Green Tea", "Tea", ["20 bags", "50 bags"], 5.0, "box"),
            ("Granola", "Cereal", ["12 oz", "32 oz"], 6.0, "box"), ("Hand Cream", "Skin Care", ["2 oz", "6 oz"],
            8.0, "jar"), ("Sunscreen SPF 50", "Sun Care", ["3 oz", "8 oz"], 11.0, "bottle"),
            ("Peanut Butter", "Spreads", ["16 oz", "40 oz"], 5.0, "jar"), ("Sparkling Water", "Beverages",
            ["12 pack", "24 pack"], 8.0, "can"), ("Bath Towel", "Towels", ["Standard", "Oversized"], 22.0, "box"),
            ("Phone Charger", "Chargers", ["20 W", "65 W"], 18.0, "box"), ("Dog Treats", "Pet Food",
            ["8 oz", "20 oz"], 9.0, "box")]


def sample(rng: random.Random) -> Content:
    """A branded product in one of two sizes, priced from its base price."""
    product, ptype, sizes, base, shape = rng.choice(PRODUCTS)
    brand = rng.choice(BRANDS)
    k = rng.randrange(2)
    price = round(base * (1 + 0.8 * k) + rng.randint(0, 400) / 100 + 0.99 - 1, 2)
    other = round(base * (1 + 0.8 * (1 - k)) + rng.randint(0, 400) / 100 + 0.99 - 1, 2)
    return {"brand": brand, "product": product, "size": sizes[k], "other_size": sizes[1 - k],
            "name": f"{brand} {product}, {sizes[k]}", "type": ptype, "price": price, "other_price": other,
            "shape": shape}


def values(c: Content) -> list[str]:
    """The brand, the product, its size and price (the other size is never shown)."""
    return [c["brand"], c["product"], c["name"], f"{c['brand']} {c['product']}", c["size"], money(c["price"]),
            f"{c['price']:.2f}"]


def facts(c: Content) -> list[str]:
    return [f"product: {c['brand']} {c['product']}", f"size: {c['size']}", f"price: {money(c['price'])}"]


def _label(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "product_label")
    accent = st.choice(ACCENTS)
    w, h = 520, 640
    cv = Canvas(w, h, mix(accent, (255, 255, 255), 0.86), knobs)
    cv.rect((0, 0, w, 120), fill=accent)
    cv.center(40, c["brand"].upper(), 30, (255, 255, 255), "sans_bold")
    cv.draw.ellipse((w / 2 - 110, 160, w / 2 + 110, 380), fill=mix(accent, (255, 255, 255), 0.45))
    y = 410.0
    cv.center(y, c["product"], 34, INK, st.choice(["serif_bold", "sans_bold"]))
    y += cv.line_height(34, 1.4)
    cv.center(y, c["size"], 24, GREY, "sans")
    cv.draw.ellipse((w - 170, h - 150, w - 20, h - 20), fill=(230, 40, 40))
    cv.text(w - 95, h - 102, money(c["price"]), 26, (255, 255, 255), "sans_bold", anchor="ma")
    return done(cv, knobs, st, photo=True, tilt=6, perspective=0.08, lighting=0.5, noise=1.4, max_side=760)


def _shelf(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "shelf")
    w, h = 900, 620
    cv = Canvas(w, h, (205, 200, 192), knobs)
    for y in (250, 540):
        cv.rect((0, y, w, y + 22), fill=(150, 120, 90))
    target = st.randrange(5)
    accent = st.choice(ACCENTS)
    for i in range(5):
        x0 = 40 + i * 170
        shape = c["shape"] if i == target else st.choice(["box", "jar", "can", "bottle"])
        color = accent if i == target else tuple(st.randint(90, 200) for _ in range(3))
        for row_y in (250, 540):
            object_blob(cv, (x0, row_y - st.randint(160, 200), x0 + 110, row_y - 2), color, st, shape)
    soften(cv, 1.0)
    x0 = 40 + target * 170
    for row_y in (250, 540):  # the product's own label, on both rows
        cv.rect((x0 + 8, row_y - 110, x0 + 102, row_y - 60), fill=(250, 250, 245))
        cv.text(x0 + 55, row_y - 106, c["brand"], 11, INK, "sans_bold", anchor="ma")
        cv.text(x0 + 55, row_y - 88, c["product"].split()[-1], 10, GREY, "sans", anchor="ma")
    tx = x0 - 30
    cv.rect((tx, 552, tx + 170, 618), fill=(255, 252, 160), outline=(160, 160, 160))
    cv.text(tx + 6, 556, f"{c['brand']} {c['product']}", 11, INK, "sans_bold")
    cv.text(tx + 6, 574, c["size"], 11, GREY, "sans")
    cv.text(tx + 164, 590, money(c["price"]), 20, (200, 30, 30), "sans_bold", anchor="ra")
    for i in range(5):
        if i != target:
            x = 40 + i * 170 - 20
            cv.rect((x, 552, x + 150, 598), fill=(250, 250, 246), outline=(170, 170, 170))
            for k in range(9):
                cv.rect((x + 10 + k * 9, 562, x + 13 + k * 9 + st.choice([0, 2]), 588), fill=(60, 60, 60))
    return done(cv, knobs, st, lighting=0.45, noise=0.52, perspective=0.02, max_side=800)


def _window(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "shop_window")
    accent = st.choice(ACCENTS)
    w, h = 860, 560
    cv = Canvas(w, h, (60, 64, 72), knobs)
    cv.rect((0, 0, w, 90), fill=accent)
    cv.center(24, st.choice(["MARKET & CO.", "CORNER STORE", "THE GENERAL STORE", "MAIN ST. GOODS"]), 34,
              (255, 255, 255), "serif_bold")
    cv.rect((60, 130, w - 60, h - 30), fill=(120, 140, 150))
    object_blob(cv, (110, 300, 230, 500), tuple(st.randint(80, 200) for _ in range(3)), st, c["shape"])
    object_blob(cv, (620, 320, 740, 500), tuple(st.randint(80, 200) for _ in range(3)), st, "box")
    soften(cv, 1.0)
    cv.rect((260, 170, 600, 470), fill=(255, 252, 235), outline=accent, width=6)
    cv.center(190, "TODAY ONLY", 22, accent, "sans_bold", 260, 600)
    cv.center(240, f"{c['brand']}", 26, INK, "sans_bold", 260, 600)
    cv.center(280, c["product"], 24, INK, "sans", 260, 600)
    cv.center(318, c["size"], 20, GREY, "sans", 260, 600)
    cv.center(370, money(c["price"]), 44, (200, 30, 30), "sans_bold", 260, 600)
    return done(cv, knobs, st, photo=True, tilt=4, perspective=0.06, lighting=0.4, noise=1.4, max_side=800)


def _shop_screen(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "shop_screen")
    accent = st.choice(ACCENTS)
    cv, y = phone(knobs, st, "Shop", accent, "Product", height=720)
    cv.rect((20, y + 8, 370, y + 230), fill=mix(accent, (255, 255, 255), 0.8), radius=10)
    object_blob(cv, (150, y + 50, 240, y + 210), accent, st, c["shape"])
    y += 246
    y = phone_rows(cv, y, [(f"{c['brand']} {c['product']}", f"Size: {c['size']}", money(c["price"])),
                           ("Rating", f"{st.randint(36, 49) / 10} of 5 ({st.randint(20, 900)} reviews)", ""),
                           ("Delivery", f"in {st.randint(2, 6)} days", "")], size=13)
    cv.rect((20, y + 6, 370, y + 50), fill=accent, radius=22)
    cv.center(y + 18, "Add to cart", 15, (255, 255, 255), "sans_bold")
    return done(cv, knobs, st, max_side=800)


_family = knob_family("product", DOMAINS, sample, values, facts)


PRODUCT_FAMILIES = (
    _family("product_label", "scene_text", "synthetic_scene_text", "product photo", _label),
    _family("shelf", "photo", "synthetic_photo", "shelf photo", _shelf),
    _family("shop_window", "scene_text", "synthetic_scene_text", "shop window photo", _window),
    _family("shop_screen", "screenshot", "synthetic_screenshot", "shop screenshot", _shop_screen),
)
