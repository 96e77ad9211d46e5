"""A2UI (v0.8) interactive UI: message validation, per-World UI state, a PIL renderer, documentation and the
eight UI tools (:mod:`mmtsb.ui.tools`)."""
