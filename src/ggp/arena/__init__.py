"""The arena: matches between agents on a ground-truth model, tournaments, statistics."""
