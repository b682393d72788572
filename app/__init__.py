"""mahjong-lens front ends: the command line (`app.cli`) and the Streamlit page."""
