"""Ratings (R14): rated games' results as OpenSkill ratings with their uncertainty,
leaderboards, profiles' histories and the bot ladder. See docs/ARCHITECTURE.md."""
