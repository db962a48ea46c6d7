"""Renderers: plain data from the services -> rich renderables, JSON, DOT, Mermaid text."""
