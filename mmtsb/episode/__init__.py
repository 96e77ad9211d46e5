"""The episode: messages, context, the loop, evidence and trajectories."""
