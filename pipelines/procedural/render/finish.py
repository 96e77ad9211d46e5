"""Photo-like finishing applied after drawing: the sheet laid on a surface with perspective and rotation,
uneven lighting, sensor noise, blur, the output resolution, and the encoding (PNG or JPEG)."""

from __future__ import annotations

import io
import random

import numpy as np
from PIL import Image, ImageFilter

from pipelines.procedural.render.canvas import RGB
from pipelines.procedural.render.knobs import Knobs

__all__ = ["encode", "finish", "lay_on_surface", "perspective_coeffs"]


def perspective_coeffs(src: list[tuple[float, float]], dst: list[tuple[float, float]]) -> list[float]:
    """PIL's PERSPECTIVE coefficients mapping output points ``dst`` back to input points ``src``."""
    rows = []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    a = np.array(rows, dtype=np.float64)
    b = np.array([c for p in src for c in p], dtype=np.float64)
    return [float(c) for c in np.linalg.solve(a, b)]


def lay_on_surface(img: Image.Image, rng: random.Random, surface: RGB, tilt: float, perspective: float,
                   margin: float = 0.08) -> Image.Image:
    """``img`` on a ``surface``-coloured background, tilted up to ``tilt`` degrees and its corners moved up to
    ``perspective`` of its size (a photo of a sheet, sign or screen)."""
    w, h = img.size
    mx, my = int(w * margin) + 4, int(h * margin) + 4
    out_w, out_h = w + 2 * mx, h + 2 * my
    corners = [(mx, my), (mx + w, my), (mx + w, my + h), (mx, my + h)]
    angle = np.deg2rad(rng.uniform(-tilt, tilt))
    cx, cy = out_w / 2, out_h / 2
    moved = []
    for x, y in corners:
        dx, dy = x - cx, y - cy
        rx, ry = cx + dx * np.cos(angle) - dy * np.sin(angle), cy + dx * np.sin(angle) + dy * np.cos(angle)
        rx += rng.uniform(-perspective, perspective) * w
        ry += rng.uniform(-perspective, perspective) * h
        moved.append((float(rx), float(ry)))
    coeffs = perspective_coeffs([(0, 0), (w, 0), (w, h), (0, h)], moved)
    warped = img.convert("RGBA").transform((out_w, out_h), Image.Transform.PERSPECTIVE, coeffs,
                                            Image.Resampling.BICUBIC)
    base = Image.new("RGBA", (out_w, out_h), (*surface, 255))
    # a smooth shading across the surface (fine grain would only cost JPEG bytes)
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    angle_l = rng.uniform(0, 2 * np.pi)
    ramp = ((xx / out_w - 0.5) * np.cos(angle_l) + (yy / out_h - 0.5) * np.sin(angle_l)) * 28.0
    texture = np.clip(np.asarray(base, dtype=np.float32)[..., :3] + ramp[..., None], 0, 255).astype(np.uint8)
    base = Image.fromarray(texture, "RGB").convert("RGBA")
    # a soft shadow under the sheet
    shadow = Image.new("RGBA", (out_w, out_h), (0, 0, 0, 0))
    shadow_mask = warped.split()[3].filter(ImageFilter.GaussianBlur(6)).point(lambda a: a * 0.35)
    shadow.putalpha(shadow_mask)
    base.alpha_composite(shadow, (4, 6))
    base.alpha_composite(warped)
    return base.convert("RGB")


def _lighting(img: Image.Image, rng: random.Random, strength: float) -> Image.Image:
    w, h = img.size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    dist = np.sqrt(((xx - cx) / w) ** 2 + ((yy - cy) / h) ** 2)
    gain = 1.0 + strength * 0.35 - strength * 0.8 * dist
    arr = np.asarray(img, dtype=np.float32) * np.clip(gain, 0.35, 1.3)[..., None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")


def _noise(img: Image.Image, rng: random.Random, sigma: float) -> Image.Image:
    gen = np.random.default_rng(rng.randrange(2**32))
    arr = np.asarray(img, dtype=np.float32) + gen.normal(0.0, sigma, size=(img.size[1], img.size[0], 1))
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")


def finish(img: Image.Image, knobs: Knobs, rng: random.Random, *, photo: bool = False,
           surface: RGB = (120, 110, 100), base_tilt: float = 0.0, base_perspective: float = 0.0,
           base_lighting: float = 0.0, base_noise: float = 0.0, max_side: int = 1100) -> Image.Image:
    """Apply the knobs (plus a family's own photo look: ``base_*``) to a drawn image. ``photo`` lays it on a
    surface even when no tilt is asked for."""
    tilt, persp = base_tilt + knobs.rotation, base_perspective + knobs.perspective
    if photo or tilt > 0 or persp > 0:
        margin = (0.08 if photo else 0.02) + persp + float(np.sin(np.deg2rad(tilt))) * 0.7
        img = lay_on_surface(img, rng, surface, tilt, persp, margin=margin)
    light = base_lighting + knobs.lighting
    if light > 0:
        img = _lighting(img, rng, light)
    sigma = base_noise + knobs.noise
    if sigma > 0:
        img = _noise(img, rng, sigma)
    if knobs.blur > 0:
        img = img.filter(ImageFilter.GaussianBlur(knobs.blur))
    scale = knobs.resolution * min(1.0, max_side / max(img.size))
    if abs(scale - 1.0) > 1e-6:
        img = img.resize((max(16, round(img.size[0] * scale)), max(16, round(img.size[1] * scale))),
                         Image.Resampling.LANCZOS)
    return img


def encode(img: Image.Image, knobs: Knobs) -> bytes:
    """PNG (``jpeg_quality`` 0) or baseline JPEG at the knobs' quality; no metadata, so bytes depend on pixels
    only."""
    buf = io.BytesIO()
    if knobs.jpeg_quality:
        img.convert("RGB").save(buf, format="JPEG", quality=knobs.jpeg_quality, optimize=True)
    else:
        img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
