"""The page's CSS: tile buttons that look like tiles, big targets for a phone held in one hand.

A tile button's key carries its code between double underscores (`tile__...__5p__`,
`pal__5p__`), then optional flags (`dbt__` doubtful, `sel__` selected). Streamlit gives each
keyed element the class `st-key-<key>`, so one rule per code puts that tile's picture (served
from app/static) on the button. Without the pictures (static serving off) the buttons still
read as their codes.
"""
from __future__ import annotations

from scoring.tiles import BACK, TILES

def tile_rules() -> str:
    return "\n".join(
        f'div[class*="__{code}__"] button {{ background-image: url("app/static/{code}.png"); }}'
        for code in TILES + (BACK,))


CSS = """
<style>
.block-container { padding-top: 1.2rem; padding-left: 0.7rem; padding-right: 0.7rem; }
/* tiles: 7 to a row in the hand, 9 to a row in the palette, whatever the phone's width */
div[class*="st-key-tile__"], div[class*="st-key-add__"] {
  --tile-w: min(52px, calc((100vw - 1.4rem - 6 * 4px - 8px) / 7));
  flex: 0 0 var(--tile-w) !important; width: var(--tile-w) !important; }
div[class*="st-key-pal__"] {
  --tile-w: min(46px, calc((100vw - 1.4rem - 8 * 3px - 8px) / 9));
  flex: 0 0 var(--tile-w) !important; width: var(--tile-w) !important; }
div[class*="st-key-tile__"] button, div[class*="st-key-pal__"] button,
div[class*="st-key-add__"] button {
  width: 100%%; min-width: 0; aspect-ratio: 42 / 74; height: auto; min-height: 0;
  padding: 0 0 1px 0; display: flex; align-items: flex-end; justify-content: center;
  border-radius: 7px; border: 1px solid #bbb; background-color: #fbf8ef;
  background-repeat: no-repeat; background-position: center top; background-size: 100%% auto;
}
div[class*="st-key-tile__"] button p, div[class*="st-key-pal__"] button p {
  font-size: 11px; line-height: 12px; color: #333; }
div[class*="st-key-tile__"][class*="__dbt__"] button { border: 3px solid #ff8c00; }
div[class*="st-key-tile__"][class*="__sel__"] button { border: 3px solid #1f5fd0;
  box-shadow: 0 0 0 3px #9bbcf2; }
div[class*="st-key-grp__"] { gap: 4px; }
div[class*="st-key-palrow__"], div[class*="st-key-palette__"] { gap: 3px; }
div[class*="st-key-add__"] button { border-style: dashed; align-items: center; background: none; }
div[class*="st-key-add__"] button p { font-size: 22px; }
div[class*="st-key-add__"][class*="__on__"] button { border: 3px solid #1f5fd0; }
div.stButton > button, div.stDownloadButton > button { min-height: 44px; }
div[class*="st-key-tile__"] button, div[class*="st-key-pal__"] button,
div[class*="st-key-add__"] button { min-height: 0 !important; }
div[data-testid="stButtonGroup"] button { min-height: 42px; }
%(tiles)s
</style>
""" % {"tiles": tile_rules()}
