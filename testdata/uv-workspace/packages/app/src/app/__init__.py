"""The app of acme."""
