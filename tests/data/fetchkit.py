"""Tiny stand-ins for the released benchmark's sources (imported as `fetchkit`): a scenario repository archive,
HierText's test.tgz and the seven hub datasets, each a few small generated images laid out as the real
sources are, so the fetch's filtering, naming and re-encoding can be checked byte for byte."""

from __future__ import annotations

import base64
import copy
import csv
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from PIL import Image

from mmtsb.data.files import reencode_jpeg

SCENARIO_ARCHIVE = "/apple/ml-mmtoolsandbox/archive/main.tar.gz"
HIERTEXT_ARCHIVE = "/ocr/test.tgz"


def png(colour: tuple[int, int, int], size: tuple[int, int] = (24, 16), mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, colour if mode == "RGB" else colour + (128,)).save(out, format="PNG")
    return out.getvalue()


def jpeg(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 12), colour).save(out, format="JPEG", quality=80)
    return out.getvalue()


def tar_gz(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def parquet(rows: list[dict[str, Any]]) -> bytes:
    out = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows), out)
    return out.getvalue()


def image_cell(data: bytes, name: str) -> dict[str, Any]:
    """How ``datasets`` stores an Image feature in parquet."""
    return {"bytes": data, "path": name}


# ------------------------------------------------------------------------------------------------ source images
HIERTEXT = {"aa11": jpeg((200, 10, 10)), "bb22": jpeg((10, 200, 10)), "cc33": jpeg((10, 10, 200))}
OMNIDOC_PAGES = [("english", "page_a.png", (1, 2, 3)), ("simplified_chinese", "page_zh.png", (4, 5, 6)),
                 ("en_ch_mixed", "page_mix.png", (7, 8, 9)), ("english", "page_b.png", (10, 20, 30)),
                 ("english", "page_c.png", (40, 50, 60))]
DOCVQA_ROWS = [(10, (90, 0, 0)), (11, (90, 0, 0)), (12, (0, 90, 0)), (13, (0, 0, 90))]   # 11 repeats 10's image
INFOGRAPHIC_ROWS = [(500, (5, 5, 5)), (501, (6, 6, 6))]
CHARTQAPRO_COLOURS = [(30, 30, 30), (60, 60, 60), (90, 90, 90)]
CHARTMUSEUM = {"images/foodwaste_zs.png": png((1, 100, 1)), "images/sankey.png": png((2, 100, 2))}
SCREENSPOT = {"images/word_mac/screenshot_1.png": png((3, 3, 100)),
              "images/vivado_windows/screenshot_2.png": png((4, 4, 100))}
WORLDVQA_ROWS = [("1", "zh", (100, 1, 1)), ("2", "non-zh", (100, 2, 2)), ("3", "non-zh", (100, 3, 3))]

#: what the default fetch must produce, relative to the image root: the expected bytes
EXPECTED_DEFAULT = {
    "hiertext/images/test/aa11.jpg": HIERTEXT["aa11"],
    "omnidocbench/images/000001.jpg": reencode_jpeg(png((10, 20, 30))),    # page_b: zh and mixed pages dropped
    "docvqa/images/12.jpg": reencode_jpeg(png((0, 90, 0))),
    "docvqa/images/13.jpg": reencode_jpeg(png((0, 0, 90))),
    "infographicvqa/images/501.jpg": reencode_jpeg(png((6, 6, 6))),
    "chartmuseum/images/foodwaste_zs.png": CHARTMUSEUM["images/foodwaste_zs.png"],
    "chartqapro/images/chart_0002.jpg": reencode_jpeg(png((90, 90, 90), mode="RGBA")),
    "screenspotpro/images/word_mac/screenshot_1.png": SCREENSPOT["images/word_mac/screenshot_1.png"],
    "worldvqa/images/3.jpg": reencode_jpeg(png((100, 3, 3))),
}
#: what only --all adds (and what it must still leave out)
EXTRA_WITH_ALL = ["hiertext/images/test/bb22.jpg", "omnidocbench/images/000000.jpg", "omnidocbench/images/000002.jpg",
                  "docvqa/images/10.jpg", "infographicvqa/images/500.jpg", "chartmuseum/images/sankey.png",
                  "chartqapro/images/chart_0000.jpg", "screenspotpro/images/vivado_windows/screenshot_2.png",
                  "worldvqa/images/2.jpg"]
NEVER = ["docvqa/images/11.jpg", "worldvqa/images/1.jpg", "omnidocbench/images/000003.jpg"]


# ------------------------------------------------------------------------------------------------ scenario files
def scenario(name: str, image_paths: list[str]) -> dict[str, Any]:
    """A small released-format scenario naming ``image_paths`` (round 1 delivers them all)."""
    script = "{{USER_INSTRUCTION}}ROUND 1 [provide: " + ", ".join(f"image_{i + 1}" for i in range(len(image_paths)))
    script += "]\nQuery: Save a note about these images.\nInstructions: Say thanks."
    return {
        "name": name, "base_scenario": "base", "description": "A note.", "difficulty": "easy",
        "appworld_base_task": "_base_", "device_state_id": "brenda.webe@gmail.com",
        "reference_time": "2026-04-16T23:51:15+00:00", "agentsandbox_entities": {}, "appworld_entities": {},
        "image_paths": image_paths,
        "messages": [{"sender": "SYSTEM", "recipient": "USER", "content": script},
                     {"sender": "USER", "recipient": "AGENT", "content": "Save a note about these images.",
                      "image_ids": list(range(len(image_paths)))}],
        "milestones": [],
        "entity_diff_specs": [{"operation": "create", "source": "appworld", "table": "simple_note.notes",
                               "entity_data": {"user_id": 50, "title": "Images"},
                               "column_similarity_measure": {"title": "column_rouge_l_similarity"}}],
        "task_completion_criteria": "A note titled Images exists.", "categories": ["APPWORLD"],
        "max_messages": 100,
        "metadata": {"scenario_metadata": {"num_images": len(image_paths), "dataset_type": "docvqa",
                                           "image_arrival": "upfront", "num_user_rounds": 1}},
    }


NOMINAL_A = sorted(EXPECTED_DEFAULT)[:5]
NOMINAL_B = sorted(EXPECTED_DEFAULT)[5:]
SCENARIOS = {"scenarios/nominal/scenario_0001.json": scenario("scenario_0001", NOMINAL_A),
             "scenarios/nominal/scenario_0002.json": scenario("scenario_0002", NOMINAL_B),
             "scenarios/ui/scenario_0001.json": scenario("scenario_0001", NOMINAL_A[:2])}


def scenario_archive(scenarios: dict[str, dict[str, Any]] | None = None) -> bytes:
    files = {f"ml-mmtoolsandbox-main/{rel}": json.dumps(data).encode()
             for rel, data in (scenarios or SCENARIOS).items()}
    files["ml-mmtoolsandbox-main/README.md"] = b"# the repository"
    files["ml-mmtoolsandbox-main/scenarios/README.md"] = b"not a scenario"
    return tar_gz(files)


# ------------------------------------------------------------------------------------------------ hub datasets
def card(configs: dict[str, str]) -> bytes:
    lines = ["---", "configs:"]
    for name, folder in configs.items():
        lines += [f"- config_name: {name}", "  data_files:", "  - split: validation",
                  f"    path: {folder}/validation-*", "  - split: test", f"    path: {folder}/test-*"]
    return ("\n".join([*lines, "---", "# card"]) + "\n").encode()


def hub_datasets() -> dict[str, dict[str, bytes]]:
    omnidoc_meta = [{"page_info": {"page_attribute": {"language": lang}, "image_path": name}}
                    for lang, name, _ in OMNIDOC_PAGES]
    docvqa = [{"questionId": q, "question": "?", "image": image_cell(png(c), f"{q}.png")} for q, c in DOCVQA_ROWS]
    worldvqa = io.StringIO()
    writer = csv.DictWriter(worldvqa, ["index", "image", "question", "answer", "difficulty", "category", "language"],
                            delimiter="\t")
    writer.writeheader()
    for index, lang, colour in WORLDVQA_ROWS:
        writer.writerow({"index": index, "image": base64.b64encode(png(colour)).decode(), "question": f"q{index}",
                         "answer": f"a{index}", "difficulty": "easy", "category": "place", "language": lang})
    return {
        "opendatalab/OmniDocBench": {"OmniDocBench.json": json.dumps(omnidoc_meta).encode(),
                                     **{f"images/{name}": png(c) for _, name, c in OMNIDOC_PAGES}},
        "lmms-lab/DocVQA": {
            "README.md": card({"DocVQA": "DocVQA", "InfographicVQA": "InfographicVQA"}),
            "DocVQA/test-00000-of-00002.parquet": parquet(docvqa[:3]),
            "DocVQA/test-00001-of-00002.parquet": parquet(docvqa[3:]),
            "DocVQA/validation-00000-of-00001.parquet": parquet(docvqa[:1]),
            "InfographicVQA/test-00000-of-00001.parquet": parquet(
                [{"questionId": q, "image": image_cell(png(c), "i.png")} for q, c in INFOGRAPHIC_ROWS])},
        "ahmed-masry/ChartQAPro": {   # no configs in the card: the usual data/<split>-* layout
            "README.md": b"# ChartQAPro\n",
            "data/test-00000-of-00001.parquet": parquet(
                [{"Question": str(i), "image": png(c, mode="RGBA")} for i, c in enumerate(CHARTQAPRO_COLOURS)])},
        "lytang/ChartMuseum": {**CHARTMUSEUM, "README.md": b"# ChartMuseum\n"},
        "likaixin/ScreenSpot-Pro": {**SCREENSPOT, "annotations/word_mac.json": b"[]"},
        "moonshotai/WorldVQA": {"WorldVQA.tsv": worldvqa.getvalue().encode()},
    }


def serve_sources(hub: Any, files: Any, scenarios: dict[str, dict[str, Any]] | None = None) -> None:
    """Load the fake hub and file server with every source."""
    for repo, content in hub_datasets().items():
        hub.add_dataset(repo, content)
    files.files[SCENARIO_ARCHIVE] = scenario_archive(scenarios)
    files.files[HIERTEXT_ARCHIVE] = tar_gz({f"test/{k}.jpg": v for k, v in HIERTEXT.items()})


def fetch_args(hub: Any, files: Any, dest: Path | None, *extra: str) -> list[str]:
    args = ["data", "fetch", "reference", "--scenarios-url", files.url(SCENARIO_ARCHIVE),
            "--hiertext-url", files.url(HIERTEXT_ARCHIVE), "--json", *extra]
    return args + (["--dest", str(dest)] if dest is not None else [])


def fetch_env(hub: Any, home: Path) -> dict[str, str]:
    """The subprocess environment: the fake hub through HF_ENDPOINT, a private hub cache, hub access on."""
    return {"HF_ENDPOINT": hub.endpoint, "HF_HOME": str(home), "HF_HUB_OFFLINE": "0",
            "HF_HUB_DISABLE_TELEMETRY": "1"}


def copy_scenarios() -> dict[str, dict[str, Any]]:
    return copy.deepcopy(SCENARIOS)
