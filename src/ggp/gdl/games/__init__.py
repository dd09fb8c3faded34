"""GDL game descriptions written for ggp (package data)."""
