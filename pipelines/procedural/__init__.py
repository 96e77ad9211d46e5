"""The procedural generation backend's world: image families that draw pictures whose content is known (the
ground truth), a source that draws a manifest of them, flow templates that turn a group of such images into a
scenario, and the critic's checks against that truth."""
