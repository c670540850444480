"""AmongAgents' game widget: the ship map, the talk, the side panel and the numbered actions."""
