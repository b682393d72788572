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
    """Each code's picture, and the code drawn under it: drawn, not said (the `/ ""`), as a
    tile button's label is the tile's name for a screen reader."""
    return "\n".join(
        f'div[class*="__{code}__"] button {{ background-image: url("app/static/{code}.png"); }}\n'
        f'div[class*="__{code}__"] button::before {{ content: "{code}" / ""; }}'
        for code in TILES + (BACK,))


CSS = """
<style>
/* the top bar (the pages, the sidebar's button) is 60 px: nothing starts under it */
.block-container { padding-top: 4rem; padding-left: 0.7rem; padding-right: 0.7rem; }
/* tiles: 8 to a row in the hand, 9 to a row in the palette, whatever the width of the
   column they are in (a phone's screen, or a third of a wide one) */
div[data-testid="stColumn"] { container-type: inline-size; }
div[class*="st-key-tile__"], div[class*="st-key-add__"], div[class*="st-key-aside__"] {
  --tile-w: min(52px, calc((100cqw - 7 * 4px - 8px) / 8));
  flex: 0 0 var(--tile-w) !important; width: var(--tile-w) !important; }
div[class*="st-key-pal__"] {
  --tile-w: min(46px, calc((100cqw - 8 * 3px - 4px) / 9));
  flex: 0 0 var(--tile-w) !important; width: var(--tile-w) !important; }
div[class*="st-key-tile__"] button, div[class*="st-key-pal__"] button,
div[class*="st-key-add__"] button, div[class*="st-key-aside__"] button {
  width: 100%%; min-width: 0; aspect-ratio: 42 / 74; height: auto; min-height: 0;
  padding: 0 0 1px 0; display: flex; align-items: flex-end; justify-content: center;
  border-radius: 7px; border: 1px solid #bbb; background-color: #fbf8ef;
  background-repeat: no-repeat; background-position: center top; background-size: 100%% auto;
}
div[class*="st-key-tile__"] button::before, div[class*="st-key-pal__"] button::before,
div[class*="st-key-aside__"] button::before, div[class*="st-key-ptile__"] button::before {
  position: absolute; left: 0; right: 0; bottom: 1px; text-align: center;
  font-size: 11px; line-height: 12px; color: #333; }
/* the label, the tile's name, is for screen readers only: the picture and code show it */
div[class*="st-key-tile__"] button, div[class*="st-key-pal__"] button,
div[class*="st-key-aside__"] button, div[class*="st-key-ptile__"] button { position: relative; }
div[class*="st-key-tile__"] button p, div[class*="st-key-pal__"] button p,
div[class*="st-key-aside__"] button p, div[class*="st-key-ptile__"] button p {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%%);
  white-space: nowrap; }
/* the palette's tiles are shorter (the face is enough to choose by): the picture leaves the
   code its own line under it */
div[class*="st-key-pal__"] button { aspect-ratio: 42 / 62; background-size: auto calc(100%% - 13px); }
/* the winning tile: gold, a little apart from the concealed tiles */
div[class*="st-key-tile__"][class*="__win__0__"] button { border: 3px solid #d4a017; }
div[class*="st-key-tile__"][class*="__win__0__"] { margin-left: 6px; }
/* a tile set aside: greyed, until tapped back */
div[class*="st-key-aside__"] button { opacity: 0.55; border-style: dashed; }
/* a guessed winning tile: a dashed purple frame and a question mark on the tile */
div[class*="st-key-tile__"][class*="__gss__"] button { border: 3px dashed #8a2be2; position: relative; }
div[class*="st-key-tile__"][class*="__gss__"] button::after { content: "?"; position: absolute;
  top: -8px; right: -8px; width: 18px; height: 18px; border-radius: 9px; background: #8a2be2;
  color: white; font: bold 13px/18px sans-serif; text-align: center; }
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
/* the running total and "Add to the ledger" stay at the foot of the screen while the hand
   is in view (a phone shows the columns one under the other) */
div[data-testid="stLayoutWrapper"]:has(> .st-key-tally), .st-key-tally {
  position: sticky; bottom: 0; z-index: 90; }
.st-key-tally { background: #fff; padding: 4px 0 8px 0; border-top: 1px solid #ddd; gap: 4px; }
/* ... except while the palette is open (a tile being fixed, tiles being added): the
   palette has the screen, and the new total comes back into view with the tap that closes it */
[data-testid="stMain"]:has(div[class*="st-key-palette__"])
  div[data-testid="stLayoutWrapper"]:has(> .st-key-tally),
[data-testid="stMain"]:has(div[class*="st-key-palette__"]) .st-key-tally {
  position: static; }
/* a phone's links to the pages, in the top bar beside the sidebar's button; a wide screen
   shows Streamlit's own navigation there instead (from 768 px) */
div[data-testid="stLayoutWrapper"]:has(> .st-key-pagenav) {
  position: fixed; top: 0; left: 3.2rem; right: 0.5rem; width: auto !important; height: 3.75rem;
  z-index: 999991; }
.st-key-pagenav { height: 100%%; width: 100%% !important; align-items: center; flex-wrap: nowrap;
  overflow-x: auto; }
.st-key-pagenav a { padding: 0.35rem 0.55rem; min-height: 40px; }
@media (min-width: 768px) {
  div[data-testid="stLayoutWrapper"]:has(> .st-key-pagenav), .st-key-pagenav { display: none; } }
/* what scrolls into view stops above the running total, not under it */
[data-testid="stMain"] { scroll-padding-bottom: 140px; }
.st-key-tally div[data-testid="stAlert"] > div { padding: 6px 12px; }
/* the photo as read: short enough that the hand shows under it */
div[class*="st-key-overlay__"] img { max-height: 130px; object-fit: contain; }
/* closer together than Streamlit's default: a phone screen holds photo, hand and total */
div[data-testid="stVerticalBlock"] { gap: 0.5rem; }
.st-key-tally div[data-testid="stAlert"] { flex: 1 1 60%%; }
.st-key-tally div[data-testid="stAlert"] p { font-size: 15px; }
div[data-testid="stFileUploaderDropzone"] { padding: 6px 12px; }
/* Streamlit's own line of sizes and formats is English: the label says it in the page's language */
div[data-testid="stFileUploaderDropzoneInstructions"] { display: none; }
div[data-testid="stFileUploader"] section { min-height: 0; gap: 0; }
/* once a photo is chosen its name says enough: the hand gets the room */
div[data-testid="stFileUploader"]:has([data-testid="stFileChip"]) > label { display: none; }
div[data-testid="stFileUploader"] section { padding: 4px 8px; }
div[data-testid="stCaptionContainer"] { margin-bottom: -6px; }
%(tiles)s
</style>
""" % {"tiles": tile_rules()}
