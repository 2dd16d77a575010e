"""Four-player tablebases: the team game solved by retrograde analysis, tier by tier."""
