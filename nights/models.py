"""No models: the input records moved to the one input log (moderator.models.Input, migration 0005)."""
