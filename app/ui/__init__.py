"""Streamlit views of the page; each takes plain values and calls `app` pure functions."""
