"""Fetching data the platform runs on: ``mmtsb data fetch reference`` downloads the released benchmark's
scenario files and the images they name from their public sources (see :mod:`mmtsb.data.reference`)."""
