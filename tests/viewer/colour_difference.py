"""CIEDE2000 colour difference and simulated colour-vision deficiencies, for the palette test.

CIEDE2000 follows Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula:
implementation notes, supplementary test data, and mathematical observations" (Color
Research and Application 30, 2005), whose test pairs check it. A difference of about 2
is just noticeable side by side; 20 is two colours a child names differently.
The deficiencies are Machado, Oliveira and Fernandes (2009) at full severity
(dichromacy), as colorspacious implements them.
"""

from __future__ import annotations

import math

import numpy as np
from colorspacious import cspace_convert

DEFICIENCIES = ("protanomaly", "deuteranomaly", "tritanomaly")
"""colorspacious's names; at severity 100 they are protanopia, deuteranopia, tritanopia."""


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """The CIEDE2000 difference of two CIELAB colours (D65), with kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def seen_lab(rgb: tuple[int, int, int], deficiency: str | None = None) -> tuple[float, float, float]:
    """CIELAB of an 8-bit sRGB colour as a person with ``deficiency`` (or normal vision) sees it."""
    colour = np.asarray(rgb, dtype=float) / 255
    if deficiency is not None:
        colour = cspace_convert(colour, {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}, "sRGB1")
        colour = np.clip(colour, 0, 1)
    return tuple(float(v) for v in cspace_convert(colour, "sRGB1", "CIELab"))
