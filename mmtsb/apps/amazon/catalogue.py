"""The project's own deterministic product catalogue: sellers, products (with size/color variations),
reviews, questions and answers.

Every World gets the same rows. They are generated once per process from a fixed seed (so loading them into
a World is one ``executemany`` per table) and use small ids (sellers and products below 200, reviews below
16000) so the rows that scenario files inject (ids of 200 and more) never collide with them. Reviews,
questions and answers are written by base users (ids 1..110) at fixed dates before any scenario's reference
time; the seed re-assigns whatever the main user would have written to another base user, so the user never
finds reviews they did not write under their name.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from random import Random

SIZES = ("extra-small", "small", "medium", "large", "extra-large")
_SIZE_FACTOR = {"extra-small": 0.8, "small": 0.9, "medium": 1.0, "large": 1.12, "extra-large": 1.25}

#: (name, rating) of every seller; ids 1..N in this order
SELLERS: tuple[tuple[str, float], ...] = (
    ("Northwind Audio", 4.6), ("Brightline Home", 4.4), ("Cobalt Outfitters", 4.2), ("Maple & Finch", 4.7),
    ("Summit Gear Co.", 4.5), ("Pixel Harbor", 4.1), ("Willow Kitchenworks", 4.8), ("Redwood Books", 4.9),
    ("Playful Pines Toys", 4.3), ("Urban Thread", 3.9), ("Evergreen Pet Supply", 4.6), ("Lumen Office", 4.0),
    ("Coastal Skin Lab", 4.4), ("Ironclad Fitness", 4.2), ("Blue Heron Traders", 3.7), ("Aurora Goods", 4.5),
)

#: colour choices for items sold in several colours
_PALETTES = {
    "basic": ("Black", "White", "Gray"),
    "bright": ("Blue", "Red", "Green", "Pink"),
    "earth": ("Brown", "Green", "Gray"),
    "tech": ("Black", "Silver", "Blue"),
}


@dataclass(frozen=True)
class Item:
    """One catalogue item; it becomes one product per (colour, size) combination."""

    product_type: str
    name: str
    description: str
    price: float
    weight: float
    dims: tuple[float, float, float]
    sellers: tuple[int, ...]          # seller ids offering it (one product group each)
    palette: str | None = None        # colour variations
    sized: bool = False               # size variations (small, medium, large)


def _i(t: str, name: str, desc: str, price: float, weight: float, dims: tuple[float, float, float],
       sellers: tuple[int, ...], palette: str | None = None, sized: bool = False) -> Item:
    return Item(t, name, desc, price, weight, dims, sellers, palette, sized)


ITEMS: tuple[Item, ...] = (
    _i("headphones", "Wireless Over-Ear Headphones", "Bluetooth over-ear headphones with 30-hour battery and "
       "active noise cancelling", 89.99, 0.6, (8.0, 7.0, 3.5), (1,), "tech"),
    _i("headphones", "True Wireless Earbuds", "Compact earbuds with charging case, touch controls and "
       "sweat resistance", 49.99, 0.1, (2.5, 2.0, 1.2), (1, 6)),
    _i("headphones", "Studio Monitor Headphones", "Closed-back wired headphones for mixing and podcasting",
       129.0, 0.7, (9.0, 7.5, 4.0), (1,)),
    _i("phone accessories", "Slim Silicone Phone Case", "Shock-absorbing silicone case with raised camera "
       "edges", 14.99, 0.1, (6.5, 3.2, 0.5), (6,), "bright"),
    _i("phone accessories", "Fast Wireless Charging Pad", "15W Qi charging pad with non-slip surface",
       24.99, 0.3, (4.0, 4.0, 0.4), (6, 16)),
    _i("phone accessories", "Braided USB-C Cable 6ft", "Durable braided charging and data cable", 11.49, 0.1,
       (6.0, 1.0, 0.5), (6,), "tech"),
    _i("kitchen appliances", "Programmable Drip Coffee Maker", "12-cup coffee maker with timer, keep-warm "
       "plate and reusable filter", 59.99, 4.5, (14.0, 8.0, 12.0), (7, 2)),
    _i("kitchen appliances", "Electric Gooseneck Kettle", "Temperature-control kettle for pour-over coffee "
       "and tea", 44.99, 2.4, (11.0, 7.0, 8.0), (7,), "basic"),
    _i("kitchen appliances", "High-Speed Countertop Blender", "1200W blender with tamper for smoothies and "
       "soups", 99.0, 7.9, (8.5, 7.5, 17.0), (7,)),
    _i("cookware", "Cast Iron Skillet", "Pre-seasoned cast iron pan for searing, baking and frying", 29.99,
       5.0, (16.0, 10.5, 2.0), (7, 4), sized=True),
    _i("cookware", "Nonstick Saucepan with Lid", "Ceramic nonstick saucepan, oven safe to 450F", 34.5, 2.2,
       (15.0, 8.0, 5.0), (7,), sized=True),
    _i("bedding", "Cotton Percale Sheet Set", "Breathable 100% cotton sheets with deep pockets", 69.0, 3.1,
       (12.0, 10.0, 3.0), (2, 4), "basic", sized=True),
    _i("bedding", "Down Alternative Pillow", "Hypoallergenic pillow with a soft microfiber cover", 24.0, 1.6,
       (26.0, 20.0, 6.0), (2,), sized=True),
    _i("t-shirts", "Classic Crew Neck T-Shirt", "Soft cotton tee with a relaxed fit", 16.0, 0.3,
       (10.0, 8.0, 1.0), (10, 3), "basic", sized=True),
    _i("t-shirts", "Performance Running Tee", "Moisture-wicking tee for training and races", 22.0, 0.2,
       (10.0, 8.0, 1.0), (14,), "bright", sized=True),
    _i("shoes", "Trail Running Shoes", "Grippy trail shoes with a cushioned midsole", 94.99, 1.8,
       (12.0, 8.0, 5.0), (5, 3), "earth", sized=True),
    _i("shoes", "Canvas Low-Top Sneakers", "Everyday canvas sneakers with rubber soles", 39.99, 1.5,
       (12.0, 8.0, 5.0), (10,), "basic", sized=True),
    _i("backpacks", "Water-Resistant Laptop Backpack", "Padded 15-inch laptop sleeve and USB port", 54.99,
       1.9, (18.0, 12.0, 7.0), (5, 16), "basic"),
    _i("backpacks", "Ultralight Hiking Daypack", "Packable 20L daypack for hikes and travel", 32.0, 0.6,
       (17.0, 11.0, 6.0), (5,), "earth"),
    _i("books", "The Quiet Orchard", "A novel about three generations tending a family orchard", 17.99, 0.9,
       (8.5, 5.5, 1.2), (8,)),
    _i("books", "Practical Home Cooking", "Over 200 weeknight recipes with step-by-step photos", 28.5, 2.1,
       (10.0, 8.0, 1.0), (8, 4)),
    _i("books", "A Field Guide to City Birds", "Identify the birds of parks and backyards", 19.95, 1.0,
       (8.0, 5.0, 0.8), (8,)),
    _i("toys", "Wooden Stacking Rainbow", "Eleven-piece wooden stacking toy for open-ended play", 26.99, 1.4,
       (11.0, 5.5, 2.0), (9,)),
    _i("toys", "Magnetic Building Tiles Set", "60-piece magnetic tiles for building and learning shapes",
       44.99, 2.6, (12.0, 9.0, 4.0), (9, 16)),
    _i("toys", "Plush Sleepy Fox", "Soft plush fox for naps and cuddles", 18.5, 0.4, (10.0, 6.0, 5.0), (9,),
       sized=True),
    _i("sports equipment", "Non-Slip Yoga Mat", "6mm cushioned mat with alignment lines and carry strap",
       27.99, 2.5, (24.0, 6.0, 6.0), (14, 5), "bright"),
    _i("sports equipment", "Adjustable Dumbbell Pair", "Quick-change dumbbells from 5 to 25 pounds", 149.0,
       50.0, (16.0, 8.0, 9.0), (14,)),
    _i("sports equipment", "Insulated Steel Water Bottle", "Keeps drinks cold for 24 hours, leakproof lid",
       21.99, 0.9, (3.0, 3.0, 10.0), (5, 16), "bright", sized=True),
    _i("office products", "Gel Ink Rollerball Pens 12-Pack", "Quick-drying gel pens in assorted colors",
       12.99, 0.3, (6.0, 4.0, 0.8), (12,)),
    _i("office products", "Ergonomic Wireless Mouse", "Contoured mouse with silent clicks and USB receiver",
       25.99, 0.2, (4.5, 3.0, 1.6), (12, 6), "tech"),
    _i("office products", "Hardcover Dotted Notebook", "A5 dotted notebook with 200 numbered pages", 15.0, 0.7,
       (8.3, 5.8, 0.7), (12, 4), "earth"),
    _i("pet supplies", "Orthopedic Dog Bed", "Memory-foam dog bed with a washable cover", 64.99, 6.0,
       (36.0, 28.0, 6.0), (11,), "earth", sized=True),
    _i("pet supplies", "Interactive Cat Feather Wand", "Retractable wand with refill feathers", 9.99, 0.2,
       (36.0, 2.0, 2.0), (11,)),
    _i("skin care", "Daily Hydrating Face Moisturizer", "Fragrance-free moisturizer with hyaluronic acid",
       18.0, 0.4, (2.0, 2.0, 5.0), (13,)),
    _i("skin care", "Mineral Sunscreen SPF 50", "Broad-spectrum zinc sunscreen, water resistant", 15.5, 0.3,
       (2.0, 1.5, 6.0), (13, 15)),
)

_TITLES = {5: ("Absolutely love it", "Exceeded my expectations", "Worth every penny"),
           4: ("Very good overall", "Solid choice", "Happy with this purchase"),
           3: ("It's okay", "Decent but not great", "Average quality"),
           2: ("Disappointed", "Not as described", "Would not buy again"),
           1: ("Terrible", "Broke quickly", "Waste of money")}
_TEXTS = {5: "Really happy with the {name}: great quality and it arrived quickly.",
          4: "Good {name} overall; it does what it should, with only minor quibbles.",
          3: "The {name} is fine for the price, but I expected a bit more.",
          2: "Disappointed with the {name}; the quality feels cheap.",
          1: "My {name} stopped working after a few uses, so I returned it."}
_QUESTIONS = ("Does the {name} come with a warranty?", "Is the {name} a good gift?",
              "What are the exact dimensions of the {name}?", "Is the {name} easy to clean?")
_ANSWERS = ("Yes, it comes with a one-year limited warranty.", "I bought it as a gift and they loved it.",
            "The listing dimensions were accurate for mine.", "Mine has been easy to keep clean.",
            "Not sure, but mine has held up well so far.")


@dataclass(frozen=True)
class CatalogueRows:
    """Rows of every catalogue table, as tuples in each table's column order (``columns``)."""

    sellers: tuple[tuple, ...]
    products: tuple[tuple, ...]
    reviews: tuple[tuple, ...]
    questions: tuple[tuple, ...]
    answers: tuple[tuple, ...]

    columns = {
        "sellers": ("id", "name", "rating"),
        "products": ("id", "product_type", "name", "description", "seller_id", "price", "delivery_days",
                     "inventory_quantity", "weight", "length", "width", "height", "color", "relative_size",
                     "rating", "seller_rating", "has_variations"),
        "reviews": ("id", "product_id", "user_id", "is_verified", "rating", "title", "text", "created_at"),
        "questions": ("id", "product_id", "user_id", "question", "created_at"),
        "answers": ("id", "question_id", "user_id", "is_verified", "answer", "created_at"),
    }


def money(value: float) -> float:
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _stamp(rng: Random) -> str:
    """A fixed date in 2024-2025 (before any scenario reference time)."""
    return f"{rng.choice((2024, 2025))}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T" \
           f"{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def _variants(item: Item) -> list[tuple[str | None, str | None]]:
    colors = _PALETTES[item.palette] if item.palette else (None,)
    sizes = ("small", "medium", "large") if item.sized else (None,)
    return [(c, s) for c in colors for s in sizes]


@functools.cache
def catalogue() -> CatalogueRows:
    """The catalogue (computed once per process; identical in every run)."""
    rng = Random(20260416)
    sellers = tuple((i, name, rating) for i, (name, rating) in enumerate(SELLERS, start=1))
    products, reviews, questions, answers = [], [], [], []
    for item in ITEMS:
        for seller_id in item.sellers:
            variants = _variants(item)
            seller_price = item.price * (1.0 if seller_id == item.sellers[0] else 0.94 + rng.random() * 0.12)
            delivery = rng.choice((1, 2, 2, 3, 4, 5, 7))
            good = rng.random() > 0.25  # one quality level per listing, shared by its variations
            for color, size in variants:
                pid = len(products) + 1
                factor = _SIZE_FACTOR[size] if size else 1.0
                ratings = _review_ratings(rng, good)
                for r in ratings:
                    reviews.append((len(reviews) + 1, pid, rng.randint(1, 110), rng.random() < 0.7, r,
                                    rng.choice(_TITLES[r]), _TEXTS[r].format(name=item.name.lower()), _stamp(rng)))
                if rng.random() < 0.3:
                    qid = len(questions) + 1
                    questions.append((qid, pid, rng.randint(1, 110),
                                      rng.choice(_QUESTIONS).format(name=item.name.lower()), _stamp(rng)))
                    for _ in range(rng.randint(0, 2)):
                        answers.append((len(answers) + 1, qid, rng.randint(1, 110), rng.random() < 0.5,
                                        rng.choice(_ANSWERS), _stamp(rng)))
                length, width, height = (round(d * factor, 1) for d in item.dims)
                stock = rng.choice((3, 8, 15, 25, 40, 60, 120)) if rng.random() > 0.05 else 0
                products.append((pid, item.product_type, item.name, item.description, seller_id,
                                 money(seller_price * factor), delivery, stock, round(item.weight * factor, 2),
                                 length, width, height, color, size, round(sum(ratings) / len(ratings), 1),
                                 SELLERS[seller_id - 1][1], len(variants) > 1))
    assert len(products) < 200 and len(reviews) < 16000, "catalogue ids must stay below scenario ids"
    return CatalogueRows(sellers, tuple(products), tuple(reviews), tuple(questions), tuple(answers))


def _review_ratings(rng: Random, good: bool) -> list[int]:
    """1..5 ratings, skewed towards good ones for a good listing, like a real shop."""
    weights = (1, 1, 2, 5, 9) if good else (3, 4, 4, 3, 1)
    return rng.choices((1, 2, 3, 4, 5), weights=weights, k=rng.randint(1, 4))
