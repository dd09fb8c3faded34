"""Learning inside world models: PPO (docs/ppo.md)."""
