#!/usr/bin/env python3
"""Makes the latin web-font files every page preloads (client/fonts/), smaller than @fontsource's:
no hinting (phones and macOS ignore it), and Inter's weight axis limited to the 400-700 the shop uses.
Same characters (fontsource's latin unicode-range) and every layout feature (kerning, tabular figures…).

Run after updating @fontsource/anton or @fontsource-variable/inter:
  python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools brotli && /tmp/ft/bin/python scripts/subset-fonts.py
"""
import os
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LATIN = ('U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,'
         'U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD')
FONTS = [
    ('node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2', 'inter-latin-wght-normal.woff2', (400, 700)),
    ('node_modules/@fontsource/anton/files/anton-latin-400-normal.woff2', 'anton-latin-400-normal.woff2', None),
]

for source, name, weights in FONTS:
    src = os.path.join(ROOT, source)
    with tempfile.TemporaryDirectory() as tmp:
        if weights:
            font = instancer.instantiateVariableFont(TTFont(src), {'wght': weights})
            src = os.path.join(tmp, 'limited.ttf')
            font.flavor = None
            font.save(src)
        out = os.path.join(ROOT, 'client', 'fonts', name)
        subprocess.run([sys.executable, '-m', 'fontTools.subset', src, f'--unicodes={LATIN}', '--flavor=woff2',
                        '--layout-features=*', '--no-hinting', '--desubroutinize', f'--output-file={out}'], check=True)
        print(name, os.path.getsize(out), 'bytes')
