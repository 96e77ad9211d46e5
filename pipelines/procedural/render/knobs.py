"""Difficulty knobs every renderer takes, and the two profiles the benchmark sets use."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

__all__ = ["HARD", "NOMINAL", "Knobs", "PROFILES"]


@dataclass(frozen=True)
class Knobs:
    """How hard an image is to read. ``text_scale`` multiplies font sizes; ``contrast`` (0-1) pulls ink toward
    the paper; ``blur`` is a Gaussian radius in pixels; ``jpeg_quality`` 0 encodes PNG; ``rotation`` is the
    largest tilt in degrees; ``perspective`` the largest corner shift as a share of the size; ``clutter`` the
    number of distractors (stray marks, other text, objects); ``resolution`` scales the final size;
    ``noise`` the sensor-noise sigma (0-255 scale); ``lighting`` the strength of uneven light."""

    text_scale: float = 1.0
    contrast: float = 1.0
    blur: float = 0.0
    jpeg_quality: int = 0
    rotation: float = 0.0
    perspective: float = 0.0
    clutter: int = 0
    resolution: float = 1.0
    noise: float = 0.0
    lighting: float = 0.0

    def __post_init__(self) -> None:
        problems = []
        if not 0.4 <= self.text_scale <= 2.0:
            problems.append(f"text_scale {self.text_scale} outside [0.4, 2]")
        if not 0.2 <= self.contrast <= 1.0:
            problems.append(f"contrast {self.contrast} outside [0.2, 1]")
        if self.jpeg_quality and not 10 <= self.jpeg_quality <= 95:
            problems.append(f"jpeg_quality {self.jpeg_quality} outside 10..95 (0 = PNG)")
        if not 0.25 <= self.resolution <= 2.0:
            problems.append(f"resolution {self.resolution} outside [0.25, 2]")
        if self.blur < 0 or self.rotation < 0 or self.perspective < 0 or self.clutter < 0 or self.noise < 0:
            problems.append("blur, rotation, perspective, clutter and noise must be >= 0")
        if problems:
            raise ValueError("invalid knobs: " + "; ".join(problems))

    def with_(self, **changes: Any) -> Knobs:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: the nominal sets: clean renders, moderate JPEG
NOMINAL = Knobs(jpeg_quality=70)
#: the hard set: smaller, fainter, blurred, tilted, cluttered, lower resolution and quality
HARD = Knobs(text_scale=0.8, contrast=0.6, blur=0.9, jpeg_quality=45, rotation=4.0, perspective=0.05, clutter=4,
             resolution=0.8, noise=7.0, lighting=0.35)
PROFILES = {"nominal": NOMINAL, "hard": HARD}
