"""What several test modules use (a test module imports from here, never from another)."""
