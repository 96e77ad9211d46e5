"""The six stages, one module each: associate, cluster (+ viability), outline, scenario, entities, quality."""
