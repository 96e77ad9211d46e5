"""Publish a designed set: copy the final scenarios and images of a ``mmtsb generate`` run into the set's
folder (replacing what was there), and write its dataset card (``README.md``: how it was made, composition
tables, the distribution figure, the licence, what procedural images do and do not measure) and the figure.
Everything written is deterministic (no dates, no timings), so a regenerated set is byte-identical."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from pipelines.procedural.families import KNOB_FAMILIES
from pipelines.procedural.render.fonts import FACES
from pipelines.procedural.render.knobs import PROFILES

__all__ = ["publish", "write_card"]

FIGURE = "figures/distribution.png"
ABOUT = {
    "nominal": "the designed tasks over images drawn with the nominal knobs (clean renders, moderate JPEG quality; "
               "the photo-like families add their own perspective, lighting and noise)",
    "hard": "the same tasks as mmtsb_v1 (same content, scripts, entities and solutions; only the names and the "
            "images differ), with every image drawn under the raised difficulty knobs",
    "text": "text-only twins of mmtsb_v1: each image's content is handed over in the user's words (typed out in "
            "the round that would deliver the image), so the set carries no image. Agent SR on mmtsb_v1 minus "
            "Agent SR here measures a model's visual-precision gap",
    "ui": "UI-mode twins of the mmtsb_v1 tasks that involve a choice (who gets a result or summary sent by email "
          "or text, when two contacts share the first name the user says; which Todoist project a to-do goes "
          "to): the user's decision criterion stays private and the choice is made on a screen the agent designs "
          "(A2UI), as in the paper's UI variants. Play with UI mode on (dataset=mmtsb_v1_ui sets it)",
}


def publish(run_dir: Path, target: Path, set_name: str, variant: str, seed: int, n_design: int) -> Path:
    """Replace ``target``'s scenarios and images with the run's final set and write its card; returns the card."""
    source = run_dir / "scenarios"
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.json"):
        old.unlink()
    for sub in ("images", "figures"):
        if (target / sub).exists():
            shutil.rmtree(target / sub)
    for f in sorted(source.glob("*.json")):
        shutil.copyfile(f, target / f.name)
    # a text twin's run has an empty images/ folder: git keeps no empty folder, so publishing one would make a
    # fresh clone differ from a regenerated set (`make bench-check`'s diff -r)
    if (source / "images").is_dir() and any(p.is_file() for p in (source / "images").rglob("*")):
        shutil.copytree(source / "images", target / "images")
    return write_card(target, set_name, variant, seed, n_design)


def _table(title: str, counts: dict[str, int], n: int) -> list[str]:
    lines = [f"**{title}**", "", "| value | scenarios | share |", "|---|---:|---:|"]
    lines += [f"| {k} | {v} | {v / n:.1%} |" for k, v in counts.items()]
    return [*lines, ""]


def _families_table() -> list[str]:
    from pipelines.procedural.families.base import PAPER_CATEGORY

    lines = ["| family | content kind | source type | paper category |", "|---|---|---|---|"]
    lines += [f"| {f.name} | {f.kind} | {f.dataset_type} | {PAPER_CATEGORY[f.category]} |" for f in KNOB_FAMILIES]
    return lines


def write_card(folder: Path, set_name: str, variant: str, seed: int, n_design: int) -> Path:
    """The dataset card and the distribution figure of the set in ``folder``."""
    import matplotlib
    import PIL

    from mmtsb.scenarios.stats import set_stats
    from pipelines.report import composition, distribution_figure

    files = sorted(folder.glob("*.json"))
    stats = set_stats(folder).to_dict()
    n = stats["scenarios"]
    distribution_figure(composition(files), folder / FIGURE)
    images = sorted(p for p in (folder / "images").rglob("*") if p.is_file()) if (folder / "images").is_dir() else []
    size_mb = sum(p.stat().st_size for p in [*files, *images]) / 1e6
    knobs = PROFILES["hard" if variant == "hard" else "nominal"].to_dict()
    counts: dict[str, Any] = stats["counts"]
    lines = [
        f"# {set_name}", "",
        f"{n} scenarios of mmtsb-bench v1 in the MM-ToolSandBox format: {ABOUT[variant]}. Every image is drawn "
        "by this project's procedural families, so no image can have been seen in training, and every answer is "
        "known exactly from the content the image was drawn from.", "",
        f"Play it: `mmtsb run dataset={set_name}` (offline: the oracle, the scripted user and the static judges; "
        "with a model: `mmtsb run dataset=" + set_name + " model=<entry> user=<entry> judge=<entry>`). "
        f"Coverage: `mmtsb scenarios stats scenarios/{set_name}`.", "",
        "## How it was made", "",
        f"`mmtsb generate benchmark={set_name}` (config `conf/benchmark/{set_name}.yaml`) regenerates this folder "
        "byte for byte with the procedural backend; `make bench-check` checks every set against its committed "
        "copy. The pipeline is the six-stage `mmtsb generate` (pipelines/) with a designed source:", "",
        f"1. *Design* (`pipelines/procedural/design.py`): {n_design} slots from the seed {seed}. Flows, challenges "
        "and arrival patterns are dealt in equal shares; each slot then gets the image category that lags most, a "
        "content kind and image family of that category, a recipe variant (where the result goes: a note, a file, "
        "an email, a text, a to-do, Splitwise, Venmo, the Amazon cart, Spotify, alarms, reminders, the calendar) "
        "chosen to reach every app domain, the images' content, 3-6 images and 2-5 rounds. Every slot is built "
        "and critiqued while designing; one that cannot be is replaced. No two slots share their content.",
        "2. *Source*: each image drawn from its content and style seed under the variant's knobs "
        "(`pipelines/procedural/design_source.py`), JPEG files under `images/<source type>/`.",
        "3. *Stages 1-5*: the image-tool association and viability from the ground truth, the slot's outline, the "
        "flow template's rounds (deictic image references, the challenge), the initial entities, expected "
        "entity-diff specs and reference solution, each file validated against the real table schemas and "
        "gold-checked (F1 = 1).",
        "4. *Stage 6*: the truth-based critic (seven criteria, e.g. no value the agent must read from an image "
        "appears in the user's text), then the oracle plays every scenario through the runner (F1 = 1 and the "
        "static judges pass).", "",
        "The flow templates are one module per content kind in `pipelines/procedural/templates/kinds/` (expense, "
        "event, person, product, music, departure, metric, task), each with recipes per flow type.", "",
        "### Image families", "",
        "Every renderer takes a content record, a style seed and difficulty knobs (text size, contrast, blur, JPEG "
        "quality, rotation and perspective, clutter and distractors, resolution, noise, lighting).", "",
        *_families_table(), "",
        f"Knobs of this set: `{knobs}`.", "",
        "Fonts: only the faces matplotlib ships in `mpl-data/fonts/ttf` (" + ", ".join(sorted(set(FACES.values())))
        + "): DejaVu (Bitstream Vera licence), STIX (SIL Open Font License), Computer Modern (as distributed with "
        f"matplotlib). Drawn with Pillow {PIL.__version__} and matplotlib {matplotlib.__version__}: other versions "
        "may rasterise or encode differently, so byte-identical regeneration assumes these.", "",
        "## Composition", "",
        f"{n} scenarios, {len(images)} images, {size_mb:.1f} MB in this folder.", "",
        f"![distribution]({FIGURE})", "",
        *_table("Flow type", counts["flow"], n), *_table("Image arrival", counts["arrival"], n),
        *_table("Challenge", counts["challenge"], n),
        *_table("App domain (a scenario counts in every domain its reference solution uses)", counts["domain"], n),
        *_table("Image category (the paper's Table 12; multi-label)", counts["image_category"], n),
        *_table("Source type", counts["dataset_type"], n), *_table("Images per scenario", counts["num_images"], n),
        *_table("Rounds per scenario", counts["num_user_rounds"], n),
        "## What procedural images measure, and what they do not", "",
        "They measure reading and grounding: small and dense text, tables, charts with printed values, handwriting-"
        "like notes, tilted, blurred, low-contrast and compressed captures, distractors beside the content, and "
        "keeping several images apart across rounds; because the truth is exact, an error is unambiguous. They do "
        "not measure everything photographs demand: real optics and lighting, occlusion by real objects, the "
        "long tail of fonts, layouts, languages and handwriting, clutter that looks like content, and world "
        "knowledge that recognises real brands, places and products. The scenes with little text are composed "
        "of simple shapes, far from natural photographs, and the faces are few. Treat scores here as an upper "
        "bound on the visual side of the same tasks over photographs, and compare models on the same set.", "",
        "## Licence", "",
        "The scenario files and images are generated by this project and released under its licence "
        "(Apache-2.0). They contain no third-party images or text; the glyphs are rendered from the fonts named "
        "above, whose licences allow that. All people, companies, products, artists and places are invented; "
        "the base people of the world are the reference's.", "",
    ]
    card = folder / "README.md"
    card.write_text("\n".join(lines), encoding="utf-8")
    return card

