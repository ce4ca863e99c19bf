s = "héllo 🌍"; x = (1 +
