#!/usr/bin/env bash
# Install the tile art from Debian and PyPI and extract it into the art cache (idempotent).
#   bash datasets/install_art.sh [--procedural N] [--force]
# Cache: $MAHJONG_ART_DIR or cache/art/ (git-ignored). Python: $PYTHON or python.
# Debian packages already present are not reinstalled; designs already extracted are skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
ART="${MAHJONG_ART_DIR:-$PWD/cache/art}"
PY="${PYTHON:-python}"
DEB_PKGS=(kdegames-mahjongg-data-kf5 gnome-mahjongg xmahjongg mah-jong xshisen
          fonts-symbola fonts-noto-core fonts-arphic-ukai fonts-cwtex-kai fonts-lxgw-wenkai fonts-noto-cjk fonts-droid-fallback
          fonts-dejavu-core fonts-liberation
          librsvg2-bin imagemagick gifsicle python3-pyqt5 python3-pyqt5.qtsvg)
missing=()
for p in "${DEB_PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -q && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || echo "warning: some Debian packages could not be installed; their designs will be skipped" >&2
fi
# PyPI art without dependencies (mahjax would otherwise pull in jax).
if [ ! -d "$ART/_pypi/mahjong_learner" ] || [ ! -d "$ART/_pypi/mahjax" ]; then
  "$PY" -m pip install -q --no-deps --target "$ART/_pypi" mahjong-learner mahjax \
    || echo "warning: pip art not installed; fluffy_regular and mahjax_* will be skipped" >&2
fi
MAHJONG_ART_DIR="$ART" "$PY" -m datasets.art.build "$@"
