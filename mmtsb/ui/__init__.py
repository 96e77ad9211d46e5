"""A2UI (v0.8) interactive UI: message validation, per-World UI state, a PIL renderer, documentation and the
eight UI tools (:mod:`mmtsb.ui.tools`); what UI mode adds to an episode (:mod:`mmtsb.ui.mode`) and the
structure of drawn screens for the UI judges and the scripted user (:mod:`mmtsb.ui.inspect`)."""
