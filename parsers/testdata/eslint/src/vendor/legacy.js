var legacy = 1
