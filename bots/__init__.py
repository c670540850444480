"""Players that are not people: random and scripted baselines, LLM bots, prompt builders."""
